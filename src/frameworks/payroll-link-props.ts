/**
 * The element's attributes and properties as the framework typings see them (`jsx.ts`, `svelte.ts`, `vue.ts`):
 * read from the element's one definition, its `static properties` (attribute names) and its fields (types), so a
 * new property reaches every typing with no edit here. Types only.
 */
import type { PayrollLink } from '../element/payroll-link.js';

type Declarations = typeof PayrollLink.properties;

/** The element's public properties: its declarations but its internal state (`state: true`). */
type PublicProperty = {
  [K in keyof Declarations]: Declarations[K] extends { state: true } ? never : K & keyof PayrollLink;
}[keyof Declarations];

/** A property's attribute: the one declared, or Lit's default (the name lowercased); none for a property only. */
type AttributeOf<K extends PublicProperty> = Declarations[K] extends { attribute: false }
  ? never
  : Declarations[K] extends { attribute: infer A extends string }
    ? A
    : Lowercase<K>;

/** A property set from a framework by its name. Not the `on*` callbacks: a framework's `on*` props are listeners. */
type SetByName<K extends PublicProperty> = K extends `on${string}` ? never : K;

/** The element's attributes, by attribute name (`token-url`), typed by their property; `Empty`: what a framework also takes for "unset" (Svelte: `null`). */
export type PayrollLinkAttributes<Empty = never> = { [K in PublicProperty as AttributeOf<K>]?: PayrollLink[K] | Empty };

/** The element's properties without an attribute (`fetchToken`, `strings`), callbacks aside: a framework sets them as properties. */
export type PayrollLinkPropertiesOnly = {
  [K in PublicProperty as Declarations[K] extends { attribute: false } ? SetByName<K> : never]?: PayrollLink[K];
};

/** Every public property a template binds by its name (`tokenUrl`, `fetchToken`), callbacks aside. */
export type PayrollLinkBoundProperties = { [K in PublicProperty as SetByName<K>]?: PayrollLink[K] };
