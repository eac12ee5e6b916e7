/**
 * Builds a {@link LinkError}, the one construction both sides of the frame use: the widget (through
 * `src/core/link-error.ts`, which re-exports it) and the sandbox's Link page (whose codes are the service's). Beside
 * the contract, not in it: `protocol.ts` builds its zod schemas when loaded, and the element builds errors before
 * intent, when no zod may load (the size check); this file imports the contract's types only.
 */
import type { LinkError, LinkErrorType } from '../protocol.js';

/** Builds a {@link LinkError}. */
export const linkError = (type: LinkErrorType, code: string, message: string, pendingRetry = false): LinkError => ({
  type,
  code,
  message,
  pendingRetry,
});
