import type { LinkError, LinkErrorType } from '../protocol.js';

/** Builds a {@link LinkError}: errors are data with a type to branch on and a stable code. */
export const linkError = (
  type: LinkErrorType,
  code: string,
  message: string,
  pendingRetry = false,
): LinkError => ({ type, code, message, pendingRetry });

/**
 * Thrown inside the core when a step fails with a known {@link LinkError}; the
 * session turns it into `onError` + `onExit`. Never escapes to the integrator.
 */
export class LinkFailure extends Error {
  constructor(readonly linkError: LinkError) {
    super(linkError.message);
    this.name = 'LinkFailure';
  }
}
