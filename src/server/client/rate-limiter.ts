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
