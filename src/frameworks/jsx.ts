/**
 * `payroll-link/jsx`: types only. Declares `<payroll-link>` in React 19's JSX, for apps that use the bare element
 * rather than `payroll-link/react`. Opt in once, so that React stays optional for everyone else:
 *
 * ```ts
 * /// <reference types="payroll-link/jsx" />
 * ```
 *
 * React 19 sets a prop as a property when the element has one (`fetchToken`, `prefetch`), as an attribute otherwise
 * (`token-url`), and turns `on<name>` into a listener of the event `<name>`, case kept. So the handlers are
 * `onlink-success`, not `onSuccess`: `onSuccess` would listen for an event called "Success", which never comes, and is
 * a type error here. So is `onError`, although React's DOM types know it: it listens to the DOM's own `error` event,
 * never to the Link's errors (`onlink-error`).
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { LinkCallbacks } from '../core/link-options.js';
import type { PayrollLinkEventMap } from '../element/events.js';
import type { PayrollLink } from '../element/payroll-link.js';
import type { PayrollLinkAttributes, PayrollLinkPropertiesOnly } from './payroll-link-props.js';

/** `on<event>` handler props for React 19, one per `link-*` event, typed by its `detail`. */
export type PayrollLinkJsxEventProps = { [K in keyof PayrollLinkEventMap as `on${K}`]?: (event: PayrollLinkEventMap[K]) => void };

/**
 * What `<payroll-link>` takes in React 19 JSX: its attributes, its properties without one (`fetchToken`, `strings`),
 * and the `onlink-*` handlers; not React's DOM props named like the element's callbacks (`onError`: see the module's
 * doc).
 */
export type PayrollLinkJsxProps = Omit<DetailedHTMLProps<HTMLAttributes<PayrollLink>, PayrollLink>, keyof LinkCallbacks> &
  PayrollLinkJsxEventProps &
  PayrollLinkAttributes &
  PayrollLinkPropertiesOnly;

declare module 'react' {
  // React 19 reads intrinsic elements from React.JSX (no longer from the global JSX).
  namespace JSX {
    interface IntrinsicElements {
      'payroll-link': PayrollLinkJsxProps;
    }
  }
}
