import { ConfigError } from '../config-error.js';
import { wait } from '../../shared/backoff.js';

/**
 * What paces a client's calls under the service's rate limit (spec, "Limits": 10 requests per second in sandbox and
 * development, 50 in production). The client asks it before every attempt, retries included. One limiter may be shared
 * by several clients (the token handler and the app's own reads), or, through `redisRateLimiter`
 * (`payroll-link/server/redis`), by several processes.
 */
export interface RateLimiter {
  /**
   * Resolves when one request may be sent now, having counted it. Rejects with `signal.reason` as soon as `signal`
   * aborts while waiting (the request is never sent). What it resolves with is ignored.
   */
  acquire(signal?: AbortSignal): Promise<void | RequestAnswered>;
}

/**
 * @deprecated Not called any more: the client no longer tells the limiter when an attempt has its answer, the built-in
 * limiters space their calls by {@link slotIntervalMs} instead. Kept so that a limiter that returns one still
 * type-checks.
 */
export type RequestAnswered = () => void;

/** The service's sliding window: its limit counts the requests of any one second. */
export const RATE_LIMIT_WINDOW_MS = 1000;

/**
 * How much later than the others a request may reach the service, and the service's sliding second still see no more
 * than the limit. The service counts a request when it arrives, somewhere between our send and its answer; calls are
 * spaced by (window + margin) / limit, so any limit + 1 consecutive calls are window + margin apart at their sends, and
 * more than the window apart at their arrivals while the spread of their delays (a timer that fired late, a Redis round
 * trip, a connection being opened, a slow hop on the way) stays under the margin. That replaced counting a request from
 * its answer (an answer that came late is a delay like any other). Bench 12 measures the spread on loopback: 6 ms in
 * one process, 15 ms across four on Redis; 100 ms leaves room for a real network and costs 1 / 11 of the limit (91 %
 * paced).
 */
export const RATE_LIMIT_MARGIN_MS = 100;

/** The spacing of consecutive calls under a limit of `perSecond` (see {@link RATE_LIMIT_MARGIN_MS}), in ms. */
export const slotIntervalMs = (perSecond: number) => (RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS) / perSecond;

/** Resolves after `ms` on a timer of the caller's own, or rejects with the signal's reason once it aborts (the timer cleared). */
export const waitForSlot = (ms: number, signal: AbortSignal | undefined) =>
  ms > 0 ? wait(ms, signal ?? new AbortController().signal) : Promise.resolve();

/**
 * The in-process {@link RateLimiter}: GCRA, the generic cell rate algorithm, with no burst. It keeps one number, the
 * time of the next free slot; a call takes the later of now and that slot, moves it on by {@link slotIntervalMs}, and
 * waits for its own slot. For one process; several processes share `redisRateLimiter` instead.
 *
 * Safe to share across requests on every runtime, Cloudflare Workers included: what calls share is that number, and
 * each waits on a timer of its own, so no request waits on a timer or a promise another request made. A call whose
 * request ended while it waited (a runtime that cancels an ended request's timers) only leaves its slot unused; an
 * aborted call rejects at once and its slot stays taken.
 *
 * @example
 * const limiter = inProcessRateLimiter({ perSecond: 10 });
 * const client = createPayrollClient({ ...options, rateLimit: limiter });
 */
export function inProcessRateLimiter({ perSecond }: { perSecond: number }, now: () => number = () => performance.now()): RateLimiter {
  if (!Number.isSafeInteger(perSecond) || perSecond < 1)
    throw new ConfigError('inProcessRateLimiter: perSecond must be a whole number of at least 1');
  const interval = slotIntervalMs(perSecond);
  let nextSlot = -Infinity;
  return {
    async acquire(signal?: AbortSignal): Promise<void> {
      if (signal?.aborted) throw signal.reason;
      const time = now();
      const slot = Math.max(time, nextSlot);
      nextSlot = slot + interval;
      await waitForSlot(slot - time, signal);
    },
  };
}
