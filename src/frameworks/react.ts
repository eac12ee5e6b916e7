/**
 * `payroll-link/react`: {@link PayrollLink}, the element as a React 18 and 19 component. React 18 passes every
 * prop to a custom element as a string attribute, so functions and `fetchToken` would be lost: `@lit/react` sets
 * them as properties.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import type { LinkCallbacks } from '../core/link-options.js';
import type { PayrollLinkEventMap, PayrollLinkEventName } from '../element/events.js';
import { PayrollLink as PayrollLinkElement } from '../element/payroll-link.js';

/** The element as the wrapper sees it: its `on*` props are typed by the events below, not by the callback properties. */
type WrappedElement = Omit<PayrollLinkElement, keyof LinkCallbacks>;

/** The handler prop of each event of the element's event map. */
type EventProps = { [K in PayrollLinkEventName as K extends `link-${infer Name}` ? `on${Capitalize<Name>}` : never]: K };

// `satisfies` the map: an event added to the element and missing here, one removed, or a handler not named after
// its event is a type error. The one cast gives each name its event's type, which @lit/react reads from its
// `EventName` brand.
const events = {
  onOpen: 'link-open',
  onLogin: 'link-login',
  onSuccess: 'link-success',
  onExit: 'link-exit',
  onError: 'link-error',
  onEvent: 'link-event',
  onReady: 'link-ready',
} satisfies EventProps as { [P in keyof EventProps]: EventName<PayrollLinkEventMap[EventProps[P]]> };

/**
 * `<payroll-link>` for React. Props are the element's properties (docs/reference.md lists them: `tokenUrl`,
 * `linkUrl`, `fetchToken`, `onOpenUrl`, …), set as properties, and one handler per event of the element, named after
 * it (`link-open` is `onOpen`, `link-success` `onSuccess`, …, `link-ready` `onReady`), which listens to that event
 * and gets the `CustomEvent`, whose `detail` is typed; the element's callback properties of those names stay unset.
 * Both lists come from the element: its `static properties` and {@link PayrollLinkEventMap}. A `ref` gives the
 * element (`show()`, `close()`, `requestClose()`).
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
