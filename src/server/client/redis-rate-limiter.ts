/** The in-process limiter's GCRA (`inProcessRateLimiter`) on Redis, for several processes: one key, one script, Redis's clock. */
import * as z from 'zod';
import { ConfigError } from '../config-error.js';
import type { RedisScriptClient } from './redis-script-client.js';
import { slotIntervalMs, waitForSlot, type RateLimiter } from './rate-limiter.js';
import { untilAborted } from '../../shared/until-aborted.js';
import { withinTimeOrThrow } from '../handler/time-bound.js';

/** Options of {@link redisRateLimiter}. */
export const RedisRateLimiterOptionsSchema = z.object({
  /** Requests per second that all the processes sharing the key send together. Default 10 (the sandbox's limit). */
  perSecond: z.int().min(1).max(100_000).default(10),
  /** Prefix of the one key the limiter keeps (`<keyPrefix>tat`): one prefix per API secret, since the service counts per secret. */
  keyPrefix: z.string().max(200).default('payroll-link:rate-limit:'),
});

/** What {@link redisRateLimiter} accepts. */
export type RedisRateLimiterOptions = z.input<typeof RedisRateLimiterOptionsSchema>;

/** How long Redis may take to answer before `acquire` gives up: longer than a healthy round trip by far. */
export const REDIS_LIMITER_TIMEOUT_MS = 1_000;

/**
 * Takes the next slot. KEYS[1]: the theoretical arrival time of the next call (µs on Redis's clock, so that
 * every process reads one clock); ARGV[1]: the interval in µs. Answers the wait until the slot taken, in µs.
 * The key lives until its time has passed, after which it means "now" anyway.
 */
const TAKE_SLOT = `if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local slot = math.max(now, tonumber(redis.call('GET', KEYS[1]) or 0))
local tat = slot + tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%.0f', tat), 'PX', math.ceil((tat - now) / 1000))
return slot - now`;

const bounded = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  withinTimeOrThrow(() => promise, ms, {
    failed: (error) =>
      new Error(
        `redisRateLimiter: Redis failed the booking (${error instanceof Error ? error.message : String(error)}); the request was not sent`,
        {
          cause: error,
        },
      ),
    timedOut: () =>
      new Error(`redisRateLimiter: Redis did not answer the booking within ${ms} ms (unreachable?); the request was not sent`),
  });

/**
 * A {@link RateLimiter} on Redis, for several processes that share one API
 * secret (and so one limit at the service): pass the same limiter options to
 * each, and give it to `createPayrollClient` as `rateLimit`. Together they
 * space their calls as `inProcessRateLimiter` spaces one process's (see docs/reading-data.md).
 *
 * Each `acquire` runs one atomic script that takes the next slot on Redis's clock (`TIME`) and answers how long until
 * it; the process waits on a timer of its own counted from that answer, so the hosts' clocks need not agree. An abort
 * while waiting rejects at once (the slot stays taken). Give it your connected node-redis client (`redis` ≥ 4); it
 * creates nothing and never closes it.
 *
 * **Redis unreachable: the call fails, it does not go on unpaced** (N processes unpaced would send N times the limit
 * and meet 429s). When Redis errs or does not answer within {@link REDIS_LIMITER_TIMEOUT_MS} (node-redis queues
 * commands while it reconnects), the request is not sent: the client's call rejects with a `PayrollApiError` of kind
 * `connection`, `status` null. A call that already has its slot goes at it.
 *
 * Every process on the same API secret must use the same Redis, `keyPrefix` and `perSecond` (a process on the
 * in-process limiter is not counted); one `keyPrefix` per secret (sandbox and production keys have their own limits).
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
  const script = { keys: [`${keyPrefix}tat`], arguments: [String(Math.ceil(slotIntervalMs(perSecond) * 1000))] };

  const takeSlot = async () => {
    const waitUs = await bounded(client.eval(TAKE_SLOT, script), REDIS_LIMITER_TIMEOUT_MS);
    if (typeof waitUs !== 'number' || !Number.isSafeInteger(waitUs) || waitUs < 0)
      throw new Error(`redisRateLimiter: unexpected answer from Redis: ${String(waitUs)}; the request was not sent`);
    return waitUs / 1000;
  };

  return {
    async acquire(signal?: AbortSignal): Promise<void> {
      if (signal?.aborted) throw signal.reason;
      const waitMs = signal ? await untilAborted(takeSlot(), signal) : await takeSlot();
      await waitForSlot(waitMs, signal);
    },
  };
}
