import type { LinkError } from '../protocol.js';
// Types only: the codes' descriptions are for the docs, never for the bundle.
import type { LINK_ERROR_CODES } from '../shared/link-error-codes.js';

/**
 * The `code` of a {@link LinkError} the widget gives of its own: a key of `LINK_ERROR_CODES`
 * (src/shared/link-error-codes.ts, where each code's `type`, cause and remedy are, and docs/errors.md's table comes
 * from), with `TOKEN_HTTP_<status>` as `TOKEN_HTTP_${number}` when the token endpoint answered an HTTP error.
 * Codes from the Link page (the service's) are plain strings: `LinkError['code']` stays `string`. See docs/errors.md.
 */
export type LinkErrorCode = {
  [Code in keyof typeof LINK_ERROR_CODES]: Code extends `${infer Prefix}<status>` ? `${Prefix}${number}` : Code;
}[keyof typeof LINK_ERROR_CODES];

/**
 * {@link linkError} of src/shared/link-error.ts. Its `code` is any string there; that the widget's own are in
 * `LINK_ERROR_CODES`, test/node/error-codes.test.ts checks. A re-export, not a narrower alias: an alias costs bytes
 * in the bundled file before intent, which must not grow (the size check).
 */
export { linkError } from '../shared/link-error.js';

/** Thrown inside the core with a known {@link LinkError}: the session makes it `onError` + `onExit`, never throws it. */
export class LinkFailure extends Error {
  /** When a token fetch ended with it (see `fetchLinkToken`): unset for any other failure. */
  declare at?: number;
  constructor(readonly linkError: LinkError) {
    super(linkError.message);
    this.name = 'LinkFailure';
  }
}
