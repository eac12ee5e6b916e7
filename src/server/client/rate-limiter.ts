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
   */
  acquire(signal?: AbortSignal): Promise<void>;
}

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
  resolve: () => void;
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
  const sent: number[] = [];
  const queue: Waiter[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const leave = (waiter: Waiter) => waiter.signal?.removeEventListener('abort', waiter.onAbort);

  // Lets through as many waiters, first come first served, as the window has room for; then sleeps until the oldest send leaves it.
  const pump = () => {
    timer = undefined;
    const time = now();
    while (sent.length > 0 && sent[0]! <= time - RATE_LIMIT_WINDOW_MS - RATE_LIMIT_MARGIN_MS) sent.shift();
    while (queue.length > 0 && sent.length < perSecond) {
      const waiter = queue.shift()!;
      leave(waiter);
      sent.push(time);
      waiter.resolve();
    }
    if (queue.length > 0) timer = setTimeout(pump, sent[0]! + RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS - time + 1);
  };

  return {
    acquire(signal?: AbortSignal): Promise<void> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<void>((resolve, reject) => {
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
