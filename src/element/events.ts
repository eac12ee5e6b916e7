import type { LinkCallbacks } from '../core/link-options.js';
import { ELEMENT_EVENTS, type ElementEvents, type PayrollLinkEventDetail, type PayrollLinkEventName } from '../protocol/element-events.js';

export type { PayrollLinkEventDetail, PayrollLinkEventName } from '../protocol/element-events.js';

/**
 * The DOM events of `<payroll-link>`, by name, with their `detail` types: from the events' table
 * (`ELEMENT_EVENTS`, src/protocol/element-events.ts), whose rows' doc comments are the events' descriptions.
 */
export interface PayrollLinkEventMap extends EventsAsDom {}

type EventsAsDom = { -readonly [K in keyof ElementEvents]: CustomEvent<PayrollLinkEventDetail<K>> };

/**
 * Dispatches a typed event that bubbles and crosses shadow roots: integrators
 * listen at `document` level and the widget often sits inside other components.
 */
export function emit<K extends PayrollLinkEventName>(target: EventTarget, name: K, detail: PayrollLinkEventDetail<K>): void {
  target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}

/**
 * A session's callbacks that relay each of its events as the element's: the event on `host`, then `host`'s callback
 * property of the same name, each only while `current()` says the session is still the element's (a listener that
 * removes the element or closes the flow ends it, and nothing of it may follow its `link-exit`).
 */
export function relayEvents(host: EventTarget & LinkCallbacks, current: () => boolean): LinkCallbacks {
  const callbacks: Record<string, (detail: never) => void> = {};
  for (const [name, { callback }] of Object.entries(ELEMENT_EVENTS) as [PayrollLinkEventName, ElementEvents[PayrollLinkEventName]][])
    callbacks[callback] = (detail) => {
      if (!current()) return;
      emit(host, name, detail);
      if (current()) (host[callback] as ((detail: never) => void) | undefined)?.(detail);
    };
  return callbacks;
}

declare global {
  interface HTMLElementEventMap extends PayrollLinkEventMap {}
  /** Typed on `document` too: the events bubble and are composed ({@link emit}). */
  interface DocumentEventMap extends PayrollLinkEventMap {}
}
