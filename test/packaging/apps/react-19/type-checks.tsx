// Type-checked only (never built): `<payroll-link>` in React 19 JSX, from `payroll-link/jsx`.
/// <reference types="payroll-link/jsx" />

export const typedDetail = <payroll-link onlink-success={(event) => event.detail.jobId.toUpperCase()} />;

// @ts-expect-error React 19 would listen for an event named "Success": use onlink-success.
export const notAnEventProp = <payroll-link onSuccess={() => undefined} />;

// @ts-expect-error A login detail has no jobId.
export const wrongDetail = <payroll-link onlink-login={(event) => event.detail.jobId} />;

// @ts-expect-error React's DOM onError hears the DOM's own error event, never a Link error: use onlink-error.
export const notLinkErrors = <payroll-link onError={() => undefined} />;
