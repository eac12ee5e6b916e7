import type { ExitDetail, ExitReason, LinkError } from '../protocol.js';

/**
 * The one place a session's exit detail is built: by the session (`LinkSession`), and by the lazy loader for a session
 * that ended before its code arrived (src/element/load-session.ts). Once the job succeeded, closing (or hiding) the
 * modal is the natural end of a completed session; a reconnect session is about its account from the start, even when
 * it ends before the login.
 */
export function exitDetail(
  reason: ExitReason,
  error: LinkError | null,
  linkTokenId: string | null,
  accountId: string | undefined,
  succeeded = false,
): ExitDetail {
  const completed = succeeded && (reason === 'user_closed' || reason === 'closed_by_host');
  const detail: ExitDetail = { reason: completed ? 'completed' : reason, error: completed ? null : error, linkTokenId };
  if (accountId) detail.accountId = accountId;
  return detail;
}
