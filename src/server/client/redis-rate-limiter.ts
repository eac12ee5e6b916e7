/**
 * A {@link RateLimiter} shared by several processes through Redis: the
 * one-second window plus {@link RATE_LIMIT_MARGIN_MS} of the in-process
 * limiter, kept in one sorted set on Redis and read on Redis's clock.
 */
import { z } from 'zod';
import { ConfigError } from '../config-error.js';
import type { RedisScriptClient } from '../redis.js';
import { RATE_LIMIT_MARGIN_MS, RATE_LIMIT_WINDOW_MS, type RateLimiter } from './rate-limiter.js';

/** Options of {@link redisRateLimiter}. */
export const RedisRateLimiterOptionsSchema = z.object({
  /** Requests per second that all the processes sharing the key send together. Default 10 (the sandbox's limit). */
  perSecond: z.int().min(1).max(100_000).default(10),
  /** Prefix of the one key the limiter keeps (`<keyPrefix>sent`): one prefix per API secret, since the service counts per secret. */
  keyPrefix: z.string().max(200).default('payroll-link:rate-limit:'),
});

/** What {@link redisRateLimiter} accepts. */
export type RedisRateLimiterOptions = z.input<typeof RedisRateLimiterOptionsSchema>;

/**
 * How long a call to Redis may take before `acquire` gives up: longer than a
 * healthy round trip by far, short enough that a read never hangs on Redis.
 */
export const REDIS_LIMITER_TIMEOUT_MS = 1_000;

/**
 * Books the next free send time and answers how long to wait for it, in whole
 * milliseconds. KEYS[1]: a sorted set of booked send times (ms on Redis's
 * clock, one member per request). ARGV: the limit, the window (1 s plus the
 * margin), a member unique to this request.
 *
 * Times are booked in order, each at the latest of now, the last booking, and
 * the booking `limit` places back plus the window: so any `limit` + 1
 * consecutive sends span at least the window, and callers are served in the
 * order Redis saw them, whichever process they came from. Entries older than
 * one window can no longer matter and are dropped.
 */
const BOOK = `if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local at = now
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then at = math.max(at, tonumber(last[2])) end
if redis.call('ZCARD', KEYS[1]) >= limit then
  local back = redis.call('ZRANGE', KEYS[1], -limit, -limit, 'WITHSCORES')
  at = math.max(at, tonumber(back[2]) + window)
end
redis.call('ZADD', KEYS[1], at, ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(at - now + window) + 1000)
return math.ceil(at - now)`;

/** Gives a booking back (its caller left before its time): later bookings stay valid, only the window is less full. */
const RELEASE = `return redis.call('ZREM', KEYS[1], ARGV[1])`;

/** Settles like `promise`, or rejects once `ms` have passed without an answer. */
function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redisRateLimiter: Redis did not answer ${what} within ${ms} ms (unreachable?); the request was not sent`)),
      ms,
    );
    promise.then(resolve, (error: unknown) =>
      reject(new Error(`redisRateLimiter: Redis failed ${what} (${error instanceof Error ? error.message : String(error)}); the request was not sent`, { cause: error })),
    ).finally(() => clearTimeout(timer));
  });
}

/**
 * A {@link RateLimiter} on Redis, for several processes that share one API
 * secret (and so one limit at the service): pass the same limiter options to
 * each, and give it to `createPayrollClient` as `rateLimit`. Together they
 * send at most `perSecond` requests in any window of one second plus
 * {@link RATE_LIMIT_MARGIN_MS}, so the service's own sliding second never sees
 * more; calls beyond it wait their turn, in the order Redis received them.
 *
 * How: each `acquire` is one Lua script (atomic on Redis) that reads Redis's
 * clock (`TIME`), books the next free send time in a sorted set, and answers
 * how long to wait; the process then waits that long on its own timer. Only
 * durations cross between hosts, so their clocks need not agree. A `signal`
 * that aborts while waiting rejects with its reason and gives the booking back.
 * Give it your connected node-redis client (`redis` ≥ 4); it creates nothing
 * and never closes it.
 *
 * **Redis unreachable: the call fails, it does not go on unpaced.** When Redis
 * does not answer within {@link REDIS_LIMITER_TIMEOUT_MS} (node-redis queues
 * commands while it reconnects) or answers with an error, `acquire` rejects
 * and the request is not sent: through the client, the call rejects with a
 * `PayrollApiError` of kind `connection` and `status` null. Going on unpaced
 * would let N processes send N times the limit, and every call would then
 * meet 429s and their retries; failing at once is visible and keeps the
 * service's limit. Calls pace again as soon as the client has reconnected.
 *
 * **Several instances.** Every process that uses the same API secret must use
 * the same Redis, `keyPrefix` and `perSecond`; a process pacing itself with
 * the default in-process limiter is not counted. Use one `keyPrefix` per
 * secret (sandbox and production keys have their own limits). The booked
 * time is the send time within a few milliseconds; the margin absorbs that,
 * not an event loop blocked for longer.
 *
 * @example
 * import { createClient } from 'redis';
 * import { createPayrollClient } from 'payroll-link/server';
 * import { redisRateLimiter } from 'payroll-link/server/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const client = createPayrollClient({
 *   apiSecret: process.env.PAYROLL_API_SECRET!,
 *   baseUrl: 'https://api.example.com',
 *   version: '2025-07-08',
 *   mode: 'production',
 *   rateLimit: redisRateLimiter(redis, { perSecond: 50 }),
 * });
 */
export function redisRateLimiter(client: RedisScriptClient, options: RedisRateLimiterOptions = {}): RateLimiter {
  if (typeof client !== 'object' || client === null || typeof client.eval !== 'function') {
    throw new ConfigError('redisRateLimiter: client must be a node-redis client (from createClient() or createCluster())');
  }
  const parsed = RedisRateLimiterOptionsSchema.safeParse(options);
  if (!parsed.success) throw ConfigError.fromZod('redisRateLimiter options', parsed.error);
  const { perSecond, keyPrefix } = parsed.data;
  const keys = [`${keyPrefix}sent`];
  const window = String(RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS);

  const release = (member: string) => {
    // Best effort: a booking that cannot be given back only leaves the window fuller until it passes.
    client.eval(RELEASE, { keys, arguments: [member] }).catch(() => {});
  };

  return {
    acquire(signal?: AbortSignal): Promise<void> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      const member = crypto.randomUUID();
      const booking = bounded(client.eval(BOOK, { keys, arguments: [String(perSecond), window, member] }), REDIS_LIMITER_TIMEOUT_MS, 'the booking');
      return new Promise<void>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        let settled = false;
        const settle = () => {
          settled = true;
          signal?.removeEventListener('abort', onAbort);
        };
        const onAbort = () => {
          if (settled) return;
          settle();
          clearTimeout(timer);
          // The booking may be made or on its way: given back either way once it has an answer.
          booking.then(() => release(member), () => {});
          reject(signal!.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        booking.then(
          (waitMs) => {
            if (settled) return;
            if (typeof waitMs !== 'number' || !Number.isFinite(waitMs) || waitMs < 0) {
              settle();
              reject(new Error(`redisRateLimiter: unexpected answer from Redis: ${String(waitMs)}; the request was not sent`));
              return;
            }
            const go = () => {
              if (settled) return;
              settle();
              resolve();
            };
            if (waitMs === 0) go();
            else timer = setTimeout(go, waitMs);
          },
          (error: unknown) => {
            if (settled) return;
            settle();
            reject(error);
          },
        );
      });
    },
  };
}
