import type { ReadyDetail } from '../core/link-options.js';
import type { ExitDetail, LinkError, LinkEventDetail, LoginDetail, OpenDetail, SuccessDetail } from '../protocol.js';

/** The DOM events of `<payroll-link>`, by name, with their `detail` types. */
export interface PayrollLinkEventMap {
  'link-open': CustomEvent<OpenDetail>;
  'link-login': CustomEvent<LoginDetail>;
  'link-success': CustomEvent<SuccessDetail>;
  'link-exit': CustomEvent<ExitDetail>;
  'link-error': CustomEvent<LinkError>;
  'link-event': CustomEvent<LinkEventDetail>;
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
  /** The events bubble and are composed, so listeners on `document` see them too. */
  interface DocumentEventMap extends PayrollLinkEventMap {}
}
