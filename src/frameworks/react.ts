/**
 * `payroll-link/react`: {@link PayrollLink}, the element as a React 18 and 19 component. React 18 passes every
 * prop to a custom element as a string attribute, so functions and `fetchToken` would be lost: `@lit/react` sets
 * them as properties.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import type { LinkCallbacks } from '../core/link-options.js';
import type { PayrollLinkEventMap } from '../element/events.js';
import { ELEMENT_EVENTS, type ElementEvents, type PayrollLinkEventName } from '../protocol/element-events.js';
import { PayrollLink as PayrollLinkElement } from '../element/payroll-link.js';

/** The element as the wrapper sees it: its `on*` props are typed by the events below, not by the callback properties. */
type WrappedElement = Omit<PayrollLinkElement, keyof LinkCallbacks>;

/**
 * Each event's handler prop, named as its callback (`onSelectEmployer` for `link-select-employer`), from the events'
 * table; each name typed with its event, which @lit/react reads from its `EventName` brand.
 */
const events = Object.fromEntries(Object.entries(ELEMENT_EVENTS).map(([name, row]) => [row.callback, name])) as {
  [K in PayrollLinkEventName as ElementEvents[K]['callback']]: EventName<PayrollLinkEventMap[K]>;
};

/**
 * `<payroll-link>` for React. Props are the element's properties (docs/reference.md lists them: `tokenUrl`,
 * `linkUrl`, `fetchToken`, `onOpenUrl`, …), set as properties, and one handler per event of the element, named after
 * it (`link-open` is `onOpen`, `link-success` `onSuccess`, …, `link-ready` `onReady`), which listens to that event
 * and gets the `CustomEvent`, whose `detail` is typed; the element's callback properties of those names stay unset.
 * Both lists come from the element: its `static properties` and the events' table (`ELEMENT_EVENTS`). A `ref` gives the
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
