import { LinkTokenEnvelopeSchema, LinkTokenSchema } from '../protocol.js';
import type { TokenInput } from '../protocol/link-token.js';
import { MAX_RETRY_WAIT_MS, backoffDelay, parseRetryAfter, wait } from '../shared/backoff.js';
import { timeLimit } from '../shared/time-limit.js';
import { untilAborted } from '../shared/until-aborted.js';
import { LinkFailure, linkError } from './link-error.js';
import { TOKEN_FAILURE_MEMORY_MS } from './token-failure-memory.js';
import { SCRIPTED_LINKS } from '../shared/scripted-key.js';

export type { TokenInput } from '../protocol/link-token.js';

/** A token ready for one session. `id` and `expires` are null when only the string was given. */
export interface SessionToken {
  token: string;
  id: string | null;
  expires: number | null;
  /** When this side received it (ms since the epoch). */
  receivedAt: number;
  /** What the source handed over, to pass on unchanged. */
  input: TokenInput;
}

/** Where and how to get a Link token. */
export interface TokenSource {
  /** The integrator's backend endpoint; receives `POST { "end_user_id"?, "account_id"? }` (`{}` when neither is set). */
  tokenUrl?: string;
  endUserId?: string;
  /**
   * The account to reconnect (update mode): set it to bring back an account that was disconnected or needs
   * its user to log in again. The token request carries it as `account_id`; the backend forwards it only for
   * an account this user owns. The session then logs in to that account only: a login to another one ends
   * the session with error code `ACCOUNT_MISMATCH`.
   */
  accountId?: string;
  /** The integrator's own fetch (custom headers etc.); wins over `tokenUrl`. */
  fetchToken?: () => Promise<TokenInput>;
}

/** Tuning, mostly for tests: the defaults are what users get. */
export interface TokenFetchTuning {
  /** Per-try timeout. */
  timeoutMs?: number;
  /** Tries in all, the first included. */
  maxAttempts?: number;
  /** First backoff step; doubles each retry. */
  backoffBaseMs?: number;
}

/**
 * A token kept for later (fetched ahead, or handed in) is used only while it has this much life left, or half its
 * lifetime for short-lived tokens: it has to survive the frame's load and the user's first steps.
 */
const REUSE_MARGIN_MS = 30_000;
const DEFAULTS = { timeoutMs: 15_000, maxAttempts: 3, backoffBaseMs: 400 } as const;

/** True once the token's `expires` has passed. Tokens without a known expiry never expire here. */
export function isExpired(token: SessionToken, now = Date.now()): boolean {
  return token.expires !== null && token.expires <= now;
}

/** A bare token string says nothing of its expiry: kept for later, it is trusted for this long. */
const BARE_TOKEN_MAX_AGE_MS = 5 * 60_000;

/** True when a token kept for later is too close to its expiry (or, without one, too old) to start a session with. */
export function isStale(token: SessionToken, now = Date.now()): boolean {
  if (token.expires === null) return now - token.receivedAt >= BARE_TOKEN_MAX_AGE_MS;
  const margin = Math.min(REUSE_MARGIN_MS, (token.expires - token.receivedAt) / 2);
  return token.expires - margin <= now;
}

/** Validates what a token source handed over and makes it a {@link SessionToken}. */
export function toSessionToken(input: unknown): SessionToken {
  // A bare string meets the same contract as a Link token's `token` (at most 2,000 characters): the Link page
  // refuses an init that breaks it, so a token that would be refused fails here, before any hand-over.
  if (typeof input === 'string' && input.trim() !== '' && LinkTokenSchema.shape.token.safeParse(input).success) {
    return { token: input, id: null, expires: null, receivedAt: Date.now(), input };
  }
  const parsed = LinkTokenSchema.safeParse(input);
  if (!parsed.success) {
    throw new LinkFailure(
      linkError(
        'invalidLinkToken',
        'TOKEN_INVALID',
        'The token source did not give a Link token ({ id, token, expires, mode }) or a token string of at most 2,000 characters.',
      ),
    );
  }
  const { token, id, expires } = parsed.data;
  return { token, id, expires: Date.parse(expires), receivedAt: Date.now(), input: parsed.data };
}

/**
 * Where the token comes from, as its errors name it: `token-url` resolved against the page, without user name,
 * password, query or fragment (they may carry a secret), or `fetchToken`.
 */
function endpointOf({ tokenUrl, fetchToken }: TokenSource): string {
  if (fetchToken) return 'fetchToken';
  try {
    // Without a page's `location` (a server), the catch below names it.
    const { origin, pathname } = new URL(tokenUrl!, location.href);
    return origin + pathname;
  } catch {
    return 'token-url';
  }
}

/**
 * The token half of payroll-link/testing's seam (`ScriptedLinks`, src/core/scripted-links.ts, which builds on this one
 * so that neither module imports the other's): a test's scripted token, or `undefined` when the real fetch goes on.
 */
export interface ScriptedTokens {
  fetchLinkToken(source: TokenSource, signal: AbortSignal): Promise<SessionToken> | undefined;
}

/**
 * Gets a fresh Link token from the integrator's backend, with a per-try timeout and retries (exponential backoff with
 * jitter, honouring `Retry-After`) for network errors, 429 and 5xx. Everything else, a timeout included, fails at
 * once. Failures are thrown as {@link LinkFailure} carrying a typed `LinkError` whose message names the endpoint, and
 * said once on the console; an abort is thrown as its reason, silently.
 */
export async function fetchLinkToken(source: TokenSource, signal: AbortSignal, tuning: TokenFetchTuning = {}): Promise<SessionToken> {
  // A test's scripted token (payroll-link/testing's mockLink()), unless it keeps the app's token request: see scripted-links.ts.
  const scripted = (globalThis as { [SCRIPTED_LINKS]?: ScriptedTokens })[SCRIPTED_LINKS]?.fetchLinkToken(source, signal);
  if (scripted) return scripted;
  const { timeoutMs, maxAttempts, backoffBaseMs } = { ...DEFAULTS, ...tuning };
  try {
    if (!canFetch(source)) {
      throw new LinkFailure(linkError('clientError', 'NO_TOKEN_SOURCE', 'Set token-url (tokenUrl) or fetchToken.'));
    }
    for (let attempt = 1; ; attempt++) {
      signal.throwIfAborted();
      const outcome = await tryOnce(source, signal, timeoutMs);
      if (outcome.ok) {
        if (isExpired(outcome.token)) {
          throw new LinkFailure(linkError('invalidLinkToken', 'TOKEN_EXPIRED', 'The token endpoint answered with an expired token.'));
        }
        return outcome.token;
      }
      const { failure, retryAfterMs } = outcome;
      const delay = retryAfterMs ?? backoffDelay(attempt, backoffBaseMs);
      if (!outcome.retryable || attempt >= maxAttempts || delay > MAX_RETRY_WAIT_MS) throw failure;
      await wait(delay, signal);
    }
  } catch (error) {
    if (error instanceof LinkFailure) {
      const failed = error.linkError;
      // Each message about the endpoint names it, here once for all ("The token endpoint https://... answered").
      failed.message = failed.message.replace('endpoint', `endpoint ${endpointOf(source)}`);
      // Noted for acquireToken (a failure handed back stands while recent), and said once where developers look first.
      error.at = Date.now();
      console.error(`payroll-link: ${failed.message} ${failed.code}: see docs/errors.md.`);
    }
    throw error;
  }
}

type Outcome = { ok: true; token: SessionToken } | { ok: false; failure: LinkFailure; retryable: boolean; retryAfterMs: number | null };

const fail = (failure: LinkFailure, retryable: boolean, retryAfterMs: number | null = null): Outcome => ({
  ok: false,
  failure,
  retryable,
  retryAfterMs,
});

/** What the token endpoint is told: whom the token is for and, for a reconnect, which account; empty values are left out. */
function tokenRequestBody({ endUserId, accountId }: TokenSource): Record<string, string> {
  const body: Record<string, string> = {};
  if (endUserId) body['end_user_id'] = endUserId;
  if (accountId) body['account_id'] = accountId;
  return body;
}

async function tryOnce(source: TokenSource, outer: AbortSignal, timeoutMs: number): Promise<Outcome> {
  const [signal, timedOut, dispose] = timeLimit(timeoutMs, outer);
  try {
    // An integrator's `fetchToken` knows nothing of our signal: stop waiting for it when we stop caring.
    if (source.fetchToken) return { ok: true, token: toSessionToken(await untilAborted(source.fetchToken(), signal)) };
    const response = await fetch(source.tokenUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(tokenRequestBody(source)),
      credentials: 'same-origin',
      signal,
    });
    if (!response.ok) {
      const retryable = response.status === 429 || response.status >= 500;
      const failure = new LinkFailure(
        linkError('networkError', `TOKEN_HTTP_${response.status}`, `The token endpoint answered HTTP ${response.status}.`),
      );
      return fail(failure, retryable, parseRetryAfter(response.headers.get('retry-after')));
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      // A body cut short by our timeout or an abort is not malformed JSON: let the outer handler name it.
      if (signal.aborted) throw error;
      throw new LinkFailure(linkError('invalidLinkToken', 'TOKEN_MALFORMED', 'The token endpoint answered with malformed JSON.'));
    }
    const envelope = LinkTokenEnvelopeSchema.safeParse(body);
    if (!envelope.success) {
      throw new LinkFailure(
        linkError(
          'invalidLinkToken',
          'TOKEN_INVALID',
          'The token endpoint answered without a valid { data: { id, token, expires, mode } } envelope.',
        ),
      );
    }
    return { ok: true, token: toSessionToken(envelope.data.data) };
  } catch (error) {
    if (outer.aborted) throw outer.reason;
    // What the answer broke (its body, its token) is thrown above: never retried.
    if (error instanceof LinkFailure) return fail(error, false);
    if (timedOut()) {
      // Not retried: an endpoint that hung once is likely to hang again, and the user has waited long enough.
      return fail(
        new LinkFailure(linkError('networkError', 'TOKEN_TIMEOUT', `The token endpoint did not answer within ${timeoutMs} ms.`)),
        false,
      );
    }
    return fail(new LinkFailure(linkError('networkError', 'TOKEN_NETWORK', 'The token endpoint could not be reached.')), true);
  } finally {
    dispose();
  }
}

/** Whether `source` can mint a token (again): a `fetchToken` or a `tokenUrl`. */
export const canFetch = (source: TokenSource) => Boolean(source.fetchToken || source.tokenUrl);

/**
 * The token a session starts with: `given` (the `token` option, or the token fetched ahead) while fresh, else a
 * new one from the source. A given token that failed or expired is replaced silently when there is a source for
 * a new one, and `cancelGiven` stops the work still behind it; not when the session has ended meanwhile (`signal`),
 * nor when it is a token fetch that failed less than {@link TOKEN_FAILURE_MEMORY_MS} ago: that failure is the
 * session's, and the failing endpoint is not called again at once.
 */
export async function acquireToken(
  source: TokenSource,
  signal: AbortSignal,
  tuning: TokenFetchTuning = {},
  given?: TokenInput | Promise<TokenInput>,
  cancelGiven?: () => void,
): Promise<SessionToken> {
  if (given !== undefined) {
    try {
      const taken = toSessionToken(await settleWithin(given, signal, tuning.timeoutMs));
      if (!isStale(taken)) return taken;
      if (!canFetch(source)) throw new LinkFailure(linkError('invalidLinkToken', 'TOKEN_EXPIRED', 'The Link token given has expired.'));
    } catch (error) {
      // Given up on: a fetch ahead still retrying must stop, not run beside the session's own.
      cancelGiven?.();
      if (!canFetch(source) || signal.aborted || Date.now() - ((error as LinkFailure | undefined)?.at ?? 0) < TOKEN_FAILURE_MEMORY_MS)
        throw error;
    }
  }
  return fetchLinkToken(source, signal, tuning);
}

/** Waits for a token given as a promise (fetched ahead, or by the integrator); one that never settles: `TOKEN_TIMEOUT`. */
export async function settleWithin<T>(value: T | Promise<T>, outer: AbortSignal, timeoutMs: number = DEFAULTS.timeoutMs): Promise<T> {
  // Its time up, the limit aborts with TOKEN_TIMEOUT itself: what the wait rejects with.
  const [signal, , dispose] = timeLimit(
    timeoutMs,
    outer,
    () => new LinkFailure(linkError('networkError', 'TOKEN_TIMEOUT', `The token did not arrive within ${timeoutMs} ms.`)),
  );
  try {
    return await untilAborted(Promise.resolve(value), signal);
  } finally {
    dispose();
  }
}
