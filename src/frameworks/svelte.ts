/**
 * `payroll-link/svelte`: types only. Declares `<payroll-link>` in Svelte 5's `svelte/elements`, so `svelte-check` (and
 * the editor) type its attributes, properties and event handlers in `.svelte` files. Opt in once, e.g. in
 * `src/app.d.ts`, so that Svelte stays optional for everyone else:
 *
 * ```ts
 * /// <reference types="payroll-link/svelte" />
 * ```
 *
 * Svelte 5 turns an `on<name>` attribute into a listener of the event `<name>`, case kept. So the handlers are
 * `onlink-success` and friends: `onSuccess` would listen for an event called "Success", which never comes, and is a
 * type error here. Svelte sets the other props as properties when the element has one (`fetchToken={fn}` works).
 */
import type { HTMLAttributes } from 'svelte/elements';
import type { LinkCallbacks } from '../core/link-options.js';
import type { PayrollLinkEventMap } from '../element/events.js';
import type { PayrollLink } from '../element/payroll-link.js';
import type { PayrollLinkAttributes, PayrollLinkPropertiesOnly } from './payroll-link-props.js';

/** `on<event>` handlers for Svelte 5, one per `link-*` event, typed by its `detail`. */
export type PayrollLinkSvelteEventProps = { [K in keyof PayrollLinkEventMap as `on${K}`]?: (event: PayrollLinkEventMap[K]) => void };

/**
 * What `<payroll-link>` takes in a Svelte 5 template: its attributes, its properties without one (`fetchToken`),
 * and the `onlink-*` handlers. Not the DOM handlers named like the element's callbacks (`onerror`): on the element
 * they would be DOM listeners, never the Link's callbacks.
 */
export type PayrollLinkSvelteProps = Omit<HTMLAttributes<PayrollLink>, keyof LinkCallbacks | Lowercase<keyof LinkCallbacks>> &
  PayrollLinkSvelteEventProps & { [K in keyof LinkCallbacks]?: never } & PayrollLinkAttributes<null> &
  PayrollLinkPropertiesOnly;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'payroll-link': PayrollLinkSvelteProps;
  }
}
