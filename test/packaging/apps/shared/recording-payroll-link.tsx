// `payroll-link/react` with a handler for every event, each recording what it gets: the React 18
// app and the StrictMode app render it (the React 18 build aliases `react` to React 18).
import type { ReactNode } from 'react';
import { PayrollLink } from 'payroll-link/react';
import { linkUrl, record, tokenUrl } from './harness.js';

export function RecordingPayrollLink({ endUserId, children }: { endUserId: string; children?: ReactNode }) {
  return (
    <PayrollLink
      tokenUrl={tokenUrl}
      linkUrl={linkUrl}
      endUserId={endUserId}
      prefetch
      onOpen={(event) => record('open', event.detail)}
      onLogin={(event) => record('login', event.detail)}
      onSuccess={(event) => {
        const { accountId, jobId, linkTokenId } = event.detail;
        record('success', { accountId, jobId, linkTokenId });
      }}
      onExit={(event) => record('exit', event.detail)}
      onError={(event) => record('error', event.detail)}
    >
      {children}
    </PayrollLink>
  );
}
