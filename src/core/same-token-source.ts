import type { TokenSource } from './fetch-link-token.js';

/**
 * The one rule for "is this the same token source?": whether a token fetched for source `a` may serve source `b`.
 * Used wherever a token fetched ahead meets the session that would take it: the element (`LinkPrefetch`) and
 * `prepareLink().open()`.
 *
 * The same endpoint, end user and account (a token for one account's reconnect must never serve another
 * account, nor a new connection) and, when an integrator's `fetchToken` gets it, the same function, since only
 * the function knows whom it fetches for. With `endUserId` set, the end user is known: any `fetchToken` function
 * then serves, so a new arrow on every React render (`fetchToken={() => getToken()}`) keeps the token fetched
 * ahead. Without it, keep the function stable (React's `useCallback`) or the token is dropped at each new one.
 */
export function sameTokenSource(a: TokenSource, b: TokenSource): boolean {
  if (a.tokenUrl !== b.tokenUrl || a.endUserId !== b.endUserId || a.accountId !== b.accountId) return false;
  // An empty end-user-id identifies nobody: the token request leaves it out too.
  if (a.endUserId) return Boolean(a.fetchToken) === Boolean(b.fetchToken);
  return a.fetchToken === b.fetchToken;
}
