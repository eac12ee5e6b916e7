// React 18 with the wrapper from `payroll-link/react` (see ../shared/recording-payroll-link.tsx):
// React 18 would pass a bare custom element every prop as a string attribute; the wrapper sets
// properties and listens to the link-* events. The test builds this app with `react` and
// `react-dom` aliased to React 18.
import { version } from 'react';
import { createRoot } from 'react-dom/client';
import { RecordingPayrollLink } from '../shared/recording-payroll-link.js';

window.payrollLinkReact = version;

createRoot(document.getElementById('root')!).render(
  <RecordingPayrollLink endUserId="user-react-18">Connect payroll (React 18)</RecordingPayrollLink>,
);
