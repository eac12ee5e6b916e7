// An app's screen that shows a launch in PayrollLinkView: it saves the account and the job on success, and says how
// the flow ended once the launch page is done. __tests__/simulate-launch.test.tsx drives it with simulateLaunch().
import * as React from 'react';
import { Text } from 'react-native';
import { PayrollLinkView } from 'payroll-link/react-native';

export function ConnectPayrollScreen({
  launchUrl,
  saveAccount,
}: {
  launchUrl: string;
  saveAccount: (accountId: string, jobId: string) => void;
}) {
  const [exitReason, setExitReason] = React.useState<string | null>(null);
  const [done, setDone] = React.useState<'success' | 'exit' | null>(null);
  if (done === 'success') return <Text>Payroll connected</Text>;
  if (done === 'exit') return <Text>{`Not connected (${exitReason ?? 'unknown'}): you can try again later`}</Text>;
  return (
    <PayrollLinkView
      url={launchUrl}
      style={{ flex: 1 }}
      onSuccess={(detail) => saveAccount(detail.accountId, detail.jobId)}
      onExit={(detail) => setExitReason(detail.error ? `${detail.reason}: ${detail.error.code}` : detail.reason)}
      onDone={(detail) => setDone(detail.status)}
    />
  );
}
