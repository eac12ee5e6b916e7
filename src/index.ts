/**
 * payroll-link: the `<payroll-link>` element (registered on import), the
 * framework-free `openLink()`, and the wire contract's schemas and types.
 */
export * from './core/index.js';
export { PayrollLink } from './element/payroll-link.js';
export type { PayrollLinkEventMap, PayrollLinkEventName, PayrollLinkEventDetail } from './element/events.js';
export { WIDGET_STRINGS, type WidgetLanguage, type WidgetStrings } from './core/strings.js';
