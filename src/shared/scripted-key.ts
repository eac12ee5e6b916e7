/**
 * The key under which payroll-link/testing's `mockLink()` puts its scripted sessions on the realm's global object
 * (see src/core/scripted-links.ts). A registered symbol, not a name: markup cannot clobber it (an element with that `id` or
 * `name` is a property of `window` by its name), nor can polluted JSON reach it (JSON's keys are strings); and
 * `Symbol.for` is the same symbol in every copy of the package in the realm.
 */
export const SCRIPTED_LINKS: unique symbol = Symbol.for('payroll-link/testing');
