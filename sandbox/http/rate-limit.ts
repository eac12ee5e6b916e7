/**
 * Requests per second per secret (spec, "Limits": 10 in sandbox mode), as a
 * sliding one-second window. Past the limit: 429 with Retry-After.
 */
import { apiError } from './errors.js';

const WINDOW_MS = 1000;

/** A per-key sliding-window limiter. */
export class RateLimiter {
  readonly #limit: number;
  readonly #now: () => number;
  readonly #hits = new Map<string, number[]>();

  /**
   * @param perSecond requests allowed per key in any one-second window; `Infinity` or 0 turns the limit off.
   * @param now clock in milliseconds (tests may pass their own).
   */
  constructor(perSecond: number, now: () => number = Date.now) {
    this.#limit = perSecond > 0 ? perSecond : Infinity;
    this.#now = now;
  }

  /**
   * Counts one request for `key`.
   *
   * @throws ApiError 429 RATE_LIMIT_EXCEEDED with a `Retry-After` header (whole seconds) past the limit.
   */
  hit(key: string): void {
    if (this.#limit === Infinity) return;
    const now = this.#now();
    const hits = (this.#hits.get(key) ?? []).filter((time) => time > now - WINDOW_MS);
    if (hits.length >= this.#limit) {
      this.#hits.set(key, hits);
      const waitMs = hits[0]! + WINDOW_MS - now;
      const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
      throw apiError(
        429,
        'RATE_LIMIT_EXCEEDED',
        'RATE_LIMIT_EXCEEDED',
        `More than ${this.#limit} requests per second; retry with exponential backoff`,
        { 'retry-after': retryAfter },
      );
    }
    hits.push(now);
    this.#hits.set(key, hits);
  }
}
