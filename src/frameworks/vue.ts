/**
 * `payroll-link/vue`: types only. Declares `<payroll-link>` in Vue's `GlobalComponents`, so Vue's template
 * type-checking (vue-tsc, Volar) knows its props and its `link-*` events. Opt in once, so that Vue stays optional for
 * everyone else:
 *
 * ```ts
 * /// <reference types="payroll-link/vue" />
 * ```
 *
 * Vue also needs to be told the tag is a custom element, at compile time:
 * `vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'payroll-link' } } })`.
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { PayrollLinkEventMap } from '../element/events.js';
import type { PayrollLink } from '../element/payroll-link.js';
import type { PayrollLinkBoundProperties } from './payroll-link-props.js';

/** The element's properties a Vue template may bind (Vue sets them as properties: `:fetch-token="fn"` works). */
export type PayrollLinkVueProps = PayrollLinkBoundProperties;

/**
 * `<payroll-link>` as Vue's template type-checker reads a component: `$props` for bindings, `$emit` for `@link-*`
 * listeners. Neither exists on the element at run time; they are for the type-checker only.
 */
export type PayrollLinkVueComponent = new () => PayrollLink & {
  /** @deprecated Template type-checking only: not on the element. */
  $props: HTMLAttributes & PayrollLinkVueProps & PublicProps;
  /** @deprecated Template type-checking only: not on the element. */
  $emit: EmitFn<{ [K in keyof PayrollLinkEventMap]: (event: PayrollLinkEventMap[K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'payroll-link': PayrollLinkVueComponent;
  }
}
