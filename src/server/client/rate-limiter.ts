import { ConfigError } from '../config-error.js';

/**
 * What paces a client's calls under the service's rate limit (spec, "Limits":
 * 10 requests per second in sandbox and development, 50 in production). The
 * client asks it before every attempt, retries included. One limiter may be
 * shared by several clients (the token handler and the app's own reads), or,
 * through `redisRateLimiter` (`payroll-link/server/redis`), by several processes.
 */
export interface RateLimiter {
  /**
   * Resolves when one request may be sent now, having counted it; callers that
   * arrive while the limit is reached wait their turn, in order. Rejects with
   * `signal.reason` when `signal` aborts while waiting (the request is then not
   * counted and never sent).
   *
   * It may resolve with a function, {@link RequestAnswered}, which the client
   * calls once the request's attempt has ended (answered, failed or timed out).
   */
  acquire(signal?: AbortSignal): Promise<void | RequestAnswered>;
}

/**
 * Called by the client once a request's attempt has ended (answered, failed or
 * timed out); more calls change nothing. The service counted the request at
 * some time between its send and its answer, so an answer tells the limiter
 * the latest: the built-in limiters then count the request for the service's
 * one second from its answer, when that ends later than its window from the
 * send. A request that took long to reach the service (a stalled machine on
 * the way, a burst on cold TLS connections) then leaves the next second its
 * room, where counting from the send alone met 429s. What it cannot cover: a
 * request still unanswered when its window from the send has passed (held on
 * its way longer than that), and an attempt given up (a timeout) whose request
 * arrives later still. A slow answer holds its place longer than a fast one.
 * Not calling it is allowed (a limiter used without a client): the request
 * counts from when it went, as it did before.
 */
export type RequestAnswered = () => void;

/**
 * Added to the one-second window: a request sent at the edge of our window
 * may arrive at the service a little later, and the service's own sliding
 * second must still never see more than the limit.
 */
export const RATE_LIMIT_MARGIN_MS = 100;

/** The service's sliding window: its limit counts the requests of any one second. */
export const RATE_LIMIT_WINDOW_MS = 1000;

/** One caller waiting its turn. */
interface Waiter {
  resolve: (answered: RequestAnswered) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * The in-process {@link RateLimiter}: at most `perSecond` requests in any
 * window of one second plus {@link RATE_LIMIT_MARGIN_MS}, callers served in
 * the order they came. For one process; several processes share
 * `redisRateLimiter` instead.
 *
 * @example
 * const limiter = inProcessRateLimiter({ perSecond: 10 });
 * const client = createPayrollClient({ ...options, rateLimit: limiter });
 */
export function inProcessRateLimiter({ perSecond }: { perSecond: number }, now: () => number = Date.now): RateLimiter {
  if (!Number.isSafeInteger(perSecond) || perSecond < 1)
    throw new ConfigError('inProcessRateLimiter: perSecond must be a whole number of at least 1');
  /** The requests the window holds: each counts from when it went, or from its answer once that came. */
  let counted: { at: number }[] = [];
  const queue: Waiter[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const leave = (waiter: Waiter) => waiter.signal?.removeEventListener('abort', waiter.onAbort);
  const span = RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS;

  // Lets through as many waiters, first come first served, as the window has room for; then sleeps until the earliest count leaves it.
  const pump = () => {
    timer = undefined;
    const time = now();
    counted = counted.filter((request) => request.at > time - span);
    while (queue.length > 0 && counted.length < perSecond) {
      const waiter = queue.shift()!;
      leave(waiter);
      const request = { at: time };
      counted.push(request);
      let answered = false;
      waiter.resolve(() => {
        if (answered) return;
        answered = true;
        // The service counted it by now: it holds the window for one second from here (the margin is for sends,
        // whose arrival is unknown), put back if it had left it meanwhile (an answer slower than the window).
        request.at = Math.max(request.at, now() - RATE_LIMIT_MARGIN_MS);
        if (!counted.includes(request)) counted.push(request);
      });
    }
    if (queue.length > 0) timer = setTimeout(pump, Math.min(...counted.map((request) => request.at)) + span - time + 1);
  };

  return {
    acquire(signal?: AbortSignal): Promise<void | RequestAnswered> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<RequestAnswered>((resolve, reject) => {
        const waiter: Waiter = {
          resolve,
          reject,
          signal,
          onAbort: () => {
            const index = queue.indexOf(waiter);
            if (index >= 0) queue.splice(index, 1);
            reject(signal!.reason);
          },
        };
        signal?.addEventListener('abort', waiter.onAbort, { once: true });
        queue.push(waiter);
        if (timer === undefined) pump();
      });
    },
  };
}
