import type { LinkError } from '../protocol.js';

/**
 * Every error code the widget gives of its own (the Link page's come from the service and pass through as
 * they are), with its `type`, cause and what to do in docs/errors.md. A test keeps the three in step: a code
 * used in src/ must be here and in that table.
 */
export const LINK_ERROR_CODES = [
  'NO_TOKEN_SOURCE',
  'INVALID_LINK_URL',
  'MODAL_UNAVAILABLE',
  'MODAL_HIDDEN',
  'NO_CONTAINER',
  'TOKEN_NETWORK',
  'TOKEN_TIMEOUT',
  'TOKEN_MALFORMED',
  'TOKEN_INVALID',
  'TOKEN_EXPIRED',
  'LINK_UNAVAILABLE',
  'LINK_RELOADED',
  'SESSION_CODE_UNAVAILABLE',
  'ACCOUNT_MISMATCH',
  'OPEN_URL_REFUSED',
  'POPUP_BLOCKED',
  'UNEXPECTED',
] as const;

/**
 * The `code` of a {@link LinkError} the widget gives of its own: one of {@link LINK_ERROR_CODES}, or
 * `TOKEN_HTTP_<status>` when the token endpoint answered an HTTP error. Codes from the Link page (the
 * service's) are plain strings: `LinkError['code']` stays `string`. See docs/errors.md.
 */
export type LinkErrorCode = (typeof LINK_ERROR_CODES)[number] | `TOKEN_HTTP_${number}`;

/**
 * Builds a {@link LinkError}: the builder in src/shared/link-error.ts, which the sandbox's Link page uses too. Its
 * `code` is any string there (the page's codes are the service's); that the widget's own are in
 * {@link LINK_ERROR_CODES} and docs/errors.md, test/node/error-codes.test.ts checks. A re-export, not a narrower
 * alias: an alias costs bytes in the bundled file before intent, which must not grow (the size check).
 */
export { linkError } from '../shared/link-error.js';

/**
 * Thrown inside the core when a step fails with a known {@link LinkError}; the
 * session turns it into `onError` + `onExit`. Never escapes to the integrator.
 */
export class LinkFailure extends Error {
  /** When a token fetch ended with it (see `fetchLinkToken`): unset for any other failure. */
  declare at?: number;
  constructor(readonly linkError: LinkError) {
    super(linkError.message);
    this.name = 'LinkFailure';
  }
}
