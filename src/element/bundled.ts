/**
 * The single-file build's entry (`dist/payroll-link.bundled.js`, for a plain `<script type="module">`): registers
 * `<payroll-link>`, and exports `openLink()` and `prepareLink()` with their documented contract. The session's
 * code (the core and the wire contract's schemas) is `payroll-link.session.js` next to it, loaded on the first
 * sign of intent or the first call, so that a page loads only Lit and the button before that. The schemas
 * themselves stay with `payroll-link` for bundlers: exported here, they would be in the file every page loads.
 */
export { PayrollLink } from './payroll-link.js';
export { WIDGET_STRINGS } from '../core/strings.js';
import type { PreparedLink, PrepareLinkOptions } from '../core/link-options.js';
import { lazyPrepareLink } from './load-session.js';

export { lazyOpenLink as openLink } from './load-session.js';

/** `prepareLink()` of `payroll-link`, which loads the session's code first: see load-session.ts. */
export const prepareLink = (options: PrepareLinkOptions): PreparedLink => lazyPrepareLink(options);
