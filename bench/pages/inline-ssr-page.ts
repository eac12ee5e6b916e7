/**
 * The element's script of bench 11's server-rendered page (see `ssrPageHtml` in bench/inline.ts): the markup and
 * `payroll-link/styles.css` painted before it; the server sends this script late. Defines `<payroll-link>`.
 */
import '../../src/index.js';
