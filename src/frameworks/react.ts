/**
 * `payroll-link/react`: the `<payroll-link>` element as a React component, for
 * React 18 and 19. React 18 passes every prop to a custom element as a string
 * attribute, so functions and `fetchToken` would be lost; this wrapper (made
 * with `@lit/react`) sets them as properties and turns the `on*` props into
 * listeners of the element's `link-*` events.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import type { PayrollLinkEventMap } from '../element/events.js';
import { PayrollLink as PayrollLinkElement } from '../element/payroll-link.js';

/** The element's callback properties. The wrapper's `on*` props are event listeners instead, so these stay unset. */
type CallbackProperty = 'onLogin' | 'onSuccess' | 'onExit' | 'onError' | 'onEvent' | 'onReady';

/** The element as the wrapper sees it: its `on*` props are typed by the events below, not by the callback properties. */
type WrappedElement = Omit<PayrollLinkElement, CallbackProperty>;

const events = {
  onOpen: 'link-open' as EventName<PayrollLinkEventMap['link-open']>,
  onLogin: 'link-login' as EventName<PayrollLinkEventMap['link-login']>,
  onSuccess: 'link-success' as EventName<PayrollLinkEventMap['link-success']>,
  onExit: 'link-exit' as EventName<PayrollLinkEventMap['link-exit']>,
  onError: 'link-error' as EventName<PayrollLinkEventMap['link-error']>,
  onEvent: 'link-event' as EventName<PayrollLinkEventMap['link-event']>,
  onReady: 'link-ready' as EventName<PayrollLinkEventMap['link-ready']>,
};

/**
 * `<payroll-link>` for React. Props are the element's properties (`tokenUrl`,
 * `linkUrl`, `endUserId`, `accountId`, `prefetch`, `disabled`, `open`, `fetchToken`); the
 * handlers `onOpen`, `onLogin`, `onSuccess`, `onExit`, `onError`, `onEvent` and `onReady`
 * listen to `link-open` … `link-event` and get the `CustomEvent`, whose
 * `detail` is typed. A `ref` gives the element (`show()`, `close()`).
 *
 * @example
 * ```tsx
 * import { PayrollLink } from 'payroll-link/react';
 *
 * <PayrollLink
 *   tokenUrl="/api/link-token"
 *   linkUrl="https://link.example.com/link"
 *   prefetch
 *   onSuccess={(event) => save(event.detail.accountId, event.detail.jobId)}
 * />
 * ```
 */
export const PayrollLink = createComponent<WrappedElement, typeof events>({
  react: React,
  tagName: 'payroll-link',
  elementClass: PayrollLinkElement,
  events,
  displayName: 'PayrollLink',
});

/** The props of the {@link PayrollLink} React component. */
export type PayrollLinkProps = React.ComponentProps<typeof PayrollLink>;
