// How a React Native app's code meets `payroll-link/react-native`'s types, from the packed package: the props
// type-check as docs/react-native.md uses them, each callback's detail is the bridge schema's, and every wrong use
// below is an error (tsc fails on a @ts-expect-error that has no error to expect).
import * as React from 'react';
import { StyleSheet } from 'react-native';
import { PayrollLinkView, type PayrollLinkViewDetail, type PayrollLinkViewProps } from 'payroll-link/react-native';

const styles = StyleSheet.create({ screen: { flex: 1 } });

export function ConnectPayroll({ launchUrl, onClose }: { launchUrl: string; onClose: () => void }) {
  return (
    <PayrollLinkView
      url={launchUrl}
      style={styles.screen}
      onOpen={(detail) => console.log(detail.linkTokenId)}
      onLogin={(detail) => console.log(detail.accountId, detail.platformId)}
      onSuccess={(detail) => console.log(detail.accountId, detail.jobId, detail.job)}
      onError={(detail) => console.log(detail.type, detail.code, detail.pendingRetry)}
      onExit={(detail) => console.log(detail.reason, detail.error?.code)}
      onEvent={(detail) => console.log(detail.name, detail.payload, detail.typed)}
      onDone={(detail) => {
        const status: 'success' | 'exit' = detail.status;
        const redirect: string | null = detail.redirect;
        console.log(status, redirect);
        onClose();
      }}
    />
  );
}

export const success = (detail: PayrollLinkViewDetail<'link-success'>): string => detail.jobId;
export const props: PayrollLinkViewProps = { url: 'https://app.example.com/link/x' };

export function WrongUses() {
  return (
    <>
      {/* @ts-expect-error: url is required */}
      <PayrollLinkView />
      {/* @ts-expect-error: url is a string */}
      <PayrollLinkView url={42} />
      {/* @ts-expect-error: the callbacks get the plain detail, not a CustomEvent as payroll-link/react's handlers do */}
      <PayrollLinkView url="https://app.example.com/link/x" onSuccess={(event) => console.log(event.detail.accountId)} />
      {/* @ts-expect-error: the element's attribute names are not props here */}
      <PayrollLinkView url="https://app.example.com/link/x" tokenUrl="/api/link-token" />
      {/* @ts-expect-error: onReady is gone: the launch page has no prefetched frame, so link-ready never crosses the bridge */}
      <PayrollLinkView url="https://app.example.com/link/x" onReady={() => undefined} />
      {/* @ts-expect-error: launch-done's status is 'success' or 'exit' */}
      <PayrollLinkView url="https://app.example.com/link/x" onDone={(detail) => detail.status === 'pending'} />
    </>
  );
}
