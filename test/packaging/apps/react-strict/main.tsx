// React 19 in <StrictMode>, development build: effects run, are cleaned up and run again. The
// wrapper (../shared/recording-payroll-link.tsx) must leave no duplicate listeners, frames or
// token fetches behind.
import { StrictMode, useEffect, version } from 'react';
import { createRoot } from 'react-dom/client';
import { RecordingPayrollLink } from '../shared/recording-payroll-link.js';

window.payrollLinkReact = version;

function App() {
  useEffect(() => {
    window.payrollLinkEffects++;
  }, []);
  return <RecordingPayrollLink endUserId="user-react-strict" />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
