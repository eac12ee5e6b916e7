// React 19 with the bare element: React 19 sets properties (fetchToken, a function) on custom
// elements and turns `onlink-success` into a listener of `link-success`. The JSX types come from
// `payroll-link/jsx`.
/// <reference types="payroll-link/jsx" />
import { version } from 'react';
import { createRoot } from 'react-dom/client';
import 'payroll-link';
import type { LinkToken, LinkTokenEnvelope } from 'payroll-link';
import { linkUrl, record, tokenUrl } from '../shared/harness.js';

window.payrollLinkReact = version;

/** Gets the token the integrator's own way (here: the same fake endpoint, with its own request). */
async function fetchToken(): Promise<LinkToken> {
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ end_user_id: 'user-react-19' }),
  });
  const envelope = (await response.json()) as LinkTokenEnvelope;
  return envelope.data;
}

function App() {
  return (
    <payroll-link
      link-url={linkUrl}
      fetchToken={fetchToken}
      onlink-open={(event) => record('open', event.detail)}
      onlink-login={(event) => record('login', event.detail)}
      onlink-success={(event) => {
        const { accountId, jobId, linkTokenId } = event.detail;
        record('success', { accountId, jobId, linkTokenId });
      }}
      onlink-exit={(event) => record('exit', event.detail)}
      onlink-error={(event) => record('error', event.detail)}
    >
      Connect payroll (React 19)
    </payroll-link>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
