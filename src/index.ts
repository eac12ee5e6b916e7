/**
 * payroll-link: the `<payroll-link>` element (registered on import), and every public name of `payroll-link/core`
 * (`openLink()`, `prepareLink()`, their types, the wire contract's schemas and types). Re-exported whole, so the
 * two entries cannot drift apart (test/node/surface-drift.test.ts).
 */
export * from './core/index.js';
export { PayrollLink } from './element/payroll-link.js';
export type { PayrollLinkEventMap, PayrollLinkEventName, PayrollLinkEventDetail } from './element/events.js';
export { WIDGET_STRINGS } from './core/strings.js';
