/**
 * The events of `<payroll-link>`, one row each: the one place an event is written, its doc comment its description
 * everywhere. Derived: the DOM event map, `LinkCallbacks` and the element's callback properties, the element's relay,
 * the React wrapper's props, the JSX, Svelte and Vue typings, the launch page's forwarding and the bridge's messages
 * (src/launch-bridge.ts), React Native's props, custom-elements.json and the element reference. Plain data: loaded
 * before intent (a detail's schema is named, in src/protocol.ts).
 *
 * To add an event: its row; where it fires, unless a Link page's event brings it (`linkEvent`); a test; the CHANGELOG.
 */
import type * as z from 'zod/mini';
import type * as Protocol from '../protocol.js';
import type { RowsWhere } from './rows-where.js';

/** One event's row. */
export interface ElementEventRow {
  /** The callback of `openLink()` and the element's property of the same name (`onSelectEmployer`), written out. */
  readonly callback: `on${string}`;
  /**
   * The Link page's event (a `payroll-link:event` name) that brings this one, its payload the detail (typed and
   * checked by the contract's schema of that Link event): the session relays it as it comes. Absent: the session
   * fires it itself, from its effect of the same name as the callback (src/core/session-moves.ts), with `detail`.
   */
  readonly linkEvent?: Protocol.LinkEventName;
  /** The export of src/protocol.ts that is the detail's schema, for an event no Link event brings (`OpenDetailSchema`). */
  readonly detail?: keyof typeof Protocol & `${string}Schema`;
  /** `false`: a launch page does not forward it to its native app (src/launch-bridge.ts), nor has React Native its callback. */
  readonly bridge?: false;
  /** Fired before `open()` only, by a flow built ahead (`prepareLink`, `prefetch`): the element's prefetch relays it. */
  readonly beforeOpen?: true;
}

export const ELEMENT_EVENTS = {
  /** The Link frame is showing and has its token. */
  'link-open': { callback: 'onOpen', detail: 'OpenDetailSchema' },
  /** The user logged in to their payroll platform. At most once per session. */
  'link-login': { callback: 'onLogin', linkEvent: 'login' },
  /**
   * The job finished. At most once per session. Save the detail; navigate on `link-exit`: the Link page shows its Done
   * screen until the user closes it, and navigating now takes it away.
   */
  'link-success': { callback: 'onSuccess', linkEvent: 'success' },
  /** Something failed; `pendingRetry: true` means the flow goes on (e.g. a wrong password). */
  'link-error': { callback: 'onError', linkEvent: 'error' },
  /**
   * The session ended. Exactly once per session, always last: the place to navigate after a success (`reason:
   * 'completed'`, once the user has closed the Done screen). When the element is removed mid-flow it fires on the
   * detached element (`reason: 'closed_by_host'`): listen on the element or use `onExit`, since a listener on
   * `document` no longer hears it. Hiding the element does not end the session: the modal is in `<body>`. Only hiding
   * the modal's own container does (`link-error`, then `link-exit` with `reason: 'closed_by_host'`, `error.code:
   * 'MODAL_HIDDEN'`): a modal nobody sees would leave the page blocked.
   */
  'link-exit': { callback: 'onExit', detail: 'ExitDetailSchema' },
  /**
   * Every event the Link flow emits: typed (`typed: true`, the payload typed by `name`: `open`, `screen_transition`,
   * `select_employer`, `select_platform`, `login_attempt`, `input_allocation` and the callbacks' events), or, outside
   * the contract (an unknown name, a payload that does not fit), passed on as it came (`typed: false`).
   */
  'link-event': { callback: 'onEvent', detail: 'LinkEventDetailSchema' },
  /**
   * The Link frame built ahead (`prefetch`, `prepareLink`) has loaded hidden: a click (`open()`) now opens it at once.
   * Once per frame built ahead, before any click; never for a flow built at the click. A launch page never fires it:
   * it builds nothing before the user's tap.
   */
  'link-ready': { callback: 'onReady', detail: 'ReadyDetailSchema', bridge: false, beforeOpen: true },
} as const satisfies Record<`link-${string}`, ElementEventRow & ({ linkEvent: Protocol.LinkEventName } | { detail: string })>;

/** The events' rows, by name. */
export type ElementEvents = typeof ELEMENT_EVENTS;
/** Names of the DOM events of `<payroll-link>`. */
export type PayrollLinkEventName = keyof ElementEvents;
/** The `detail` type of a `<payroll-link>` event: its Link event's payload, or its own schema's. */
export type PayrollLinkEventDetail<K extends PayrollLinkEventName> = ElementEvents[K] extends { linkEvent: infer N }
  ? Extract<Protocol.EventMessage, { name: N }>['payload']
  : ElementEvents[K] extends { detail: infer S extends keyof typeof Protocol }
    ? z.infer<(typeof Protocol)[S]>
    : never;
/** The events a launch page forwards to its app. */
export type BridgedEventName = Exclude<PayrollLinkEventName, RowsWhere<ElementEvents, { bridge: false }>>;
/** The events the session fires itself (no `linkEvent`). */
export type OwnEventName = Exclude<PayrollLinkEventName, RowsWhere<ElementEvents, { linkEvent: string }>>;

/** The callbacks of the events `K`, by callback name, each taking its event's detail (its doc comment the row's). */
export type CallbacksOf<K extends PayrollLinkEventName> = {
  -readonly [E in keyof ElementEvents as E extends K ? ElementEvents[E]['callback'] : never]?: (detail: PayrollLinkEventDetail<E>) => void;
};
