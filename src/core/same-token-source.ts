import type { TokenSource } from './fetch-link-token.js';

/**
 * The keys of `TokenSource`, listed once: what says whom a token is for, which {@link tokenSourceOf} picks. A new
 * key is a type error here until it is listed; give it its rule in {@link sameTokenSource}, just below, too (a
 * loop over this list with the `fetchToken` rule inside cost the page more bytes than the four names).
 */
const TOKEN_SOURCE: { [K in keyof Required<TokenSource>]: 1 } = { tokenUrl: 1, endUserId: 1, accountId: 1, fetchToken: 1 };

/**
 * The one rule for "is this the same token source?": whether a token fetched for source `a` may serve source `b`.
 * Used wherever a token fetched ahead meets the session that would take it: the element (`LinkPrefetch`) and
 * `prepareLink().open()`.
 *
 * Key by key, by name, the same value: the same endpoint, end user and account (a token for one account's reconnect must
 * never serve another account, nor a new connection) and, when an integrator's `fetchToken` gets it, the same
 * function, since only the function knows whom it fetches for. With `endUserId` set, the end user is known: any
 * `fetchToken` function then serves, so a new arrow on every React render (`fetchToken={() => getToken()}`) keeps
 * the token fetched ahead. Without it, keep the function stable (React's `useCallback`) or the token is dropped at
 * each new one. An empty end-user-id identifies nobody: the token request leaves it out too.
 */
export function sameTokenSource(a: TokenSource, b: TokenSource): boolean {
  if (a.tokenUrl !== b.tokenUrl || a.endUserId !== b.endUserId || a.accountId !== b.accountId) return false;
  if (a.endUserId) return Boolean(a.fetchToken) === Boolean(b.fetchToken);
  return a.fetchToken === b.fetchToken;
}

/** The token source of `from` (options, an element): its values of the keys of `TokenSource`, nothing else. */
export function tokenSourceOf(from: TokenSource): TokenSource {
  const source: Record<string, unknown> = {};
  for (const key in TOKEN_SOURCE) source[key] = from[key as keyof TokenSource];
  return source;
}
