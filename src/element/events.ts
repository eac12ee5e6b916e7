import type { ReadyDetail } from '../core/link-options.js';
import type { ExitDetail, LinkError, LinkEventDetail, LoginDetail, OpenDetail, SuccessDetail } from '../protocol.js';

/**
 * The DOM events of `<payroll-link>`, by name, with their `detail` types: the one list of them. Each member's doc
 * comment is the event's description: custom-elements.json (hence the element reference in docs/reference.md) takes
 * its events from here (custom-elements-manifest.config.mjs), and the framework typings and the React wrapper's
 * handler props are typed from it.
 */
export interface PayrollLinkEventMap {
  /** The Link frame is ready and has its token. */
  'link-open': CustomEvent<OpenDetail>;
  /** The user logged in. At most once per session. */
  'link-login': CustomEvent<LoginDetail>;
  /**
   * The job finished. At most once per session. Save the detail; navigate on `link-exit`: the Link page shows its Done
   * screen until the user closes it, and navigating now takes it away.
   */
  'link-success': CustomEvent<SuccessDetail>;
  /** Something failed; `pendingRetry: true` means the flow goes on. */
  'link-error': CustomEvent<LinkError>;
  /**
   * The session ended. Exactly once per session, always last: the place to navigate after a success (`reason:
   * 'completed'`, once the user has closed the Done screen). When the element is removed mid-flow it fires on the
   * detached element (`reason: 'closed_by_host'`): listen on the element or use `onExit`, since a listener on
   * `document` no longer hears it. Hiding the element does not end the session: the modal is in `<body>`. Only hiding
   * the modal's own container does (`link-error`, then `link-exit` with `reason: 'closed_by_host'`, `error.code:
   * 'MODAL_HIDDEN'`): a modal nobody sees would leave the page blocked.
   */
  'link-exit': CustomEvent<ExitDetail>;
  /**
   * Every event the Link flow emits: typed (`typed: true`, the payload typed by `name`: `open`, `screen_transition`,
   * `select_employer`, `select_platform`, `login_attempt`, `input_allocation` and the callbacks' events), or, outside
   * the contract, passed on as it came (`typed: false`).
   */
  'link-event': CustomEvent<LinkEventDetail>;
  /**
   * The Link frame built ahead (`prefetch`) has loaded hidden: a click now opens it at once. Once per frame built
   * ahead, before any click; never for a flow built at the click.
   */
  'link-ready': CustomEvent<ReadyDetail>;
}

/** Names of the DOM events of `<payroll-link>`. */
export type PayrollLinkEventName = keyof PayrollLinkEventMap;

/** The `detail` type of a `<payroll-link>` event. */
export type PayrollLinkEventDetail<K extends PayrollLinkEventName> = PayrollLinkEventMap[K]['detail'];

/**
 * Dispatches a typed event that bubbles and crosses shadow roots: integrators
 * listen at `document` level and the widget often sits inside other components.
 */
export function emit<K extends PayrollLinkEventName>(target: EventTarget, name: K, detail: PayrollLinkEventDetail<K>): void {
  target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}

declare global {
  interface HTMLElementEventMap extends PayrollLinkEventMap {}
  /** Typed on `document` too: the events bubble and are composed ({@link emit}). */
  interface DocumentEventMap extends PayrollLinkEventMap {}
}
