/**
 * The session's code, which the element loads on intent (a dynamic `import()`: see load-session.ts): the core
 * and the wire contract's zod schemas, about two thirds of the element's weight. The button's first render
 * needs none of it. Bundlers make this module a chunk of its own; the single-file build ships it as
 * `payroll-link.session.js` next to `payroll-link.bundled.js`.
 */
export { prepareLink } from '../core/open-link.js';
export { fetchLinkToken, isStale } from '../core/fetch-link-token.js';
