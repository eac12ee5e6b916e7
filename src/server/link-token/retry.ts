/**
 * Retrying with exponential backoff and jitter, honouring `Retry-After`,
 * bounded per try and overall. Nothing here knows about HTTP statuses: the
 * caller's try decides what is worth another go, this module decides when and
 * whether there is time for it.
 *
 * Kept free of Node-only APIs so the handler runs on any Web-standard runtime.
 */
import { backoffDelay } from '../../shared/backoff.js';

/** How hard to try. All times in milliseconds. */
export interface RetryPolicy {
  /** Tries in all, the first included. */
  maxAttempts: number;
  /** First backoff step; it doubles with each retry. */
  baseDelayMs: number;
  /** Ceiling of one computed backoff step. A `Retry-After` may ask for more; the overall timeout bounds it. */
  maxDelayMs: number;
  /** Bound of one try, so an upstream that hangs cannot hang the caller. */
  attemptTimeoutMs: number;
  /** Bound of all tries and waits together. */
  totalTimeoutMs: number;
}

/** What one try decided: done with a value, or worth another try (after `retryAfterMs` when the server said so). */
export type AttemptResult<T> = { retry: false; value: T } | { retry: true; value: T; retryAfterMs: number | null };

/**
 * The end of {@link withRetries}: the value of the last try, and when that try
 * asked for another but none was left (`exhausted`), how long the caller's own
 * client should wait before asking again.
 */
export type RetryOutcome<T> =
  | { exhausted: false; value: T; attempts: number }
  | { exhausted: true; value: T; attempts: number; retryAfterMs: number };

/** Told before each wait, for logging. */
export type RetryListener<T> = (info: { attempt: number; delayMs: number; value: T; fromRetryAfter: boolean }) => void;

/**
 * Runs `attempt` until it is done, tries run out, or the next wait would pass
 * the overall deadline. Each try gets a signal that aborts at the per-try
 * timeout or the overall deadline, whichever comes first; the try must pass it
 * on (to `fetch`, which also stops reading the body then).
 *
 * @example
 * const outcome = await withRetries(async (signal) => {
 *   const response = await fetch(url, { signal });
 *   return response.status === 503 ? { retry: true, value: response, retryAfterMs: null } : { retry: false, value: response };
 * }, policy);
 */
export async function withRetries<T>(
  attempt: (signal: AbortSignal, attemptNumber: number) => Promise<AttemptResult<T>>,
  policy: RetryPolicy,
  onRetry?: RetryListener<T>,
  random: () => number = Math.random,
): Promise<RetryOutcome<T>> {
  const deadline = Date.now() + policy.totalTimeoutMs;
  // Plain timers rather than AbortSignal.timeout + AbortSignal.any: Node 20 can collect a timeout signal
  // that only AbortSignal.any refers to, and then the per-try bound silently never fires.
  const overall = new AbortController();
  const overallTimer = setTimeout(() => overall.abort(timeoutError('overall')), policy.totalTimeoutMs);
  try {
    for (let n = 1; ; n++) {
      const result = await boundedAttempt(attempt, n, overall.signal, policy.attemptTimeoutMs);
      if (!result.retry) return { exhausted: false, value: result.value, attempts: n };
      const fromRetryAfter = result.retryAfterMs !== null;
      const delayMs = result.retryAfterMs ?? backoffDelay(n, policy.baseDelayMs, policy.maxDelayMs, random);
      // No time left for the wait plus a useful try: stop now rather than answer late.
      if (n >= policy.maxAttempts || Date.now() + delayMs >= deadline) {
        return { exhausted: true, value: result.value, attempts: n, retryAfterMs: delayMs };
      }
      onRetry?.({ attempt: n, delayMs, value: result.value, fromRetryAfter });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  } finally {
    clearTimeout(overallTimer);
  }
}

/** One try under a signal that aborts at the per-try timeout or with `overall`, whichever comes first. */
async function boundedAttempt<T>(
  attempt: (signal: AbortSignal, attemptNumber: number) => Promise<AttemptResult<T>>,
  n: number,
  overall: AbortSignal,
  timeoutMs: number,
): Promise<AttemptResult<T>> {
  const controller = new AbortController();
  const onOverall = () => controller.abort(overall.reason);
  overall.addEventListener('abort', onOverall, { once: true });
  if (overall.aborted) onOverall();
  const timer = setTimeout(() => controller.abort(timeoutError('attempt')), timeoutMs);
  try {
    return await attempt(controller.signal, n);
  } finally {
    clearTimeout(timer);
    overall.removeEventListener('abort', onOverall);
  }
}

const timeoutError = (which: string) => new DOMException(`The ${which} timeout passed`, 'TimeoutError');

/**
 * Settles like `promise`, or rejects with the signal's reason as soon as it
 * aborts: for work (such as an injected `fetch`) that might not heed the signal.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
