/**
 * `payroll-link/server/redis`: {@link redisEventStore} and {@link redisRateLimiter}, through your own node-redis
 * client (`redis` ≥ 4, an optional peer dependency: this module never imports it). Each step is one Lua script, so
 * it is atomic on the server; a claim is its key set with a lease (`PX`), a launch record expires at its absolute
 * time (`PXAT`, Redis ≥ 6.2).
 */
import * as z from 'zod';
import { ConfigError } from './config-error.js';
import type { ClaimResult, EventClaimStore } from './webhooks/event-claim-store.js';
import type { ExpiresAt, LaunchStore } from './launches/store/launch-store.js';
import type { RedisScriptClient } from './client/redis-script-client.js';

export {
  redisRateLimiter,
  RedisRateLimiterOptionsSchema,
  REDIS_LIMITER_TIMEOUT_MS,
  type RedisRateLimiterOptions,
} from './client/redis-rate-limiter.js';

export type { RedisScriptClient } from './client/redis-script-client.js';

/** Options of {@link redisEventStore}. */
export const RedisEventStoreOptionsSchema = z.object({
  /** Prefix of the keys, one per event id. */
  keyPrefix: z.string().max(200).default('payroll-link:webhook:'),
  /**
   * How long a handled id is remembered, in seconds: longer than the service
   * goes on delivering copies of one event. Default 7 days.
   */
  doneTtlSeconds: z.int().min(1).max(31_536_000).default(604_800),
  /**
   * Prefix of the launch records' keys (the store as a `LaunchStore`, for `createLinkLaunches`). It must differ
   * from `keyPrefix`, so that a launch record and an event id never share a key.
   */
  launchKeyPrefix: z.string().max(200).default('payroll-link:launch:'),
});

/** What {@link redisEventStore} accepts. */
export type RedisEventStoreOptions = z.input<typeof RedisEventStoreOptionsSchema>;

const CLAIM = `local v = redis.call('GET', KEYS[1])
if v == 'done' then return 'done' end
if v then return 'busy' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 'claimed'`;

const MARK_DONE = `redis.call('SET', KEYS[1], 'done', 'EX', ARGV[1])
return 1`;

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

const IS_DONE = `return redis.call('GET', KEYS[1]) == 'done' and 1 or 0`;

const CLAIM_RESULTS = new Set<unknown>(['claimed', 'done', 'busy']);

const GET = `return redis.call('GET', KEYS[1])`;

// A time already past is accepted by PXAT and PEXPIREAT: the key is written and deleted at once, as the contract asks.
const ADD = `return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PXAT', ARGV[2]) and 1 or 0`;

const SET = `redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
return 1`;

const INCREMENT = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return count`;

/** An expiry as PXAT takes it: whole ms, and at least 1 (it refuses 0 and below, where any past time will do). */
const pxat = (expiresAt: ExpiresAt) => String(Math.max(1, Math.floor(expiresAt)));

/**
 * The webhook handler's store on Redis, shared by all your instances. Give it your connected client; it creates nothing
 * and never closes it. While Redis is unreachable node-redis queues commands; the handler bounds each store call (5 s)
 * and answers 503, so no event is acknowledged without its callback. The same object is a {@link LaunchStore} for
 * `createLinkLaunches`: its records are keys under `launchKeyPrefix`, which Redis deletes at their expiry.
 *
 * @example
 * import { createClient } from 'redis';
 * import { createWebhookHandler } from 'payroll-link/server';
 * import { redisEventStore } from 'payroll-link/server/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const handleWebhook = createWebhookHandler({
 *   secret: process.env.PAYROLL_WEBHOOK_SECRET!,
 *   store: redisEventStore(redis),
 *   onEvent: async (event) => { ... },
 * });
 */
export function redisEventStore(client: RedisScriptClient, options: RedisEventStoreOptions = {}): EventClaimStore & LaunchStore {
  if (typeof client !== 'object' || client === null || typeof client.eval !== 'function') {
    throw new ConfigError('redisEventStore: client must be a node-redis client (from createClient() or createCluster())');
  }
  const parsed = RedisEventStoreOptionsSchema.safeParse(options);
  if (!parsed.success) throw ConfigError.fromZod('redisEventStore options', parsed.error);
  const { keyPrefix, doneTtlSeconds, launchKeyPrefix } = parsed.data;
  if (launchKeyPrefix === keyPrefix) throw new ConfigError('redisEventStore options: launchKeyPrefix must differ from keyPrefix');
  const key = (eventId: string) => `${keyPrefix}${eventId}`;
  const launchKey = (name: string) => [`${launchKeyPrefix}${name}`];
  // The claim's value carries the token, so that only its holder can release it; never equal to 'done'.
  const held = (token: string) => `claim:${token}`;
  return {
    async claim(eventId, token, leaseMs) {
      const answer = await client.eval(CLAIM, { keys: [key(eventId)], arguments: [held(token), String(leaseMs)] });
      if (!CLAIM_RESULTS.has(answer)) throw new Error(`redisEventStore: unexpected answer to the claim: ${String(answer)}`);
      return answer as ClaimResult;
    },
    async markDone(eventId) {
      await client.eval(MARK_DONE, { keys: [key(eventId)], arguments: [String(doneTtlSeconds)] });
    },
    async release(eventId, token) {
      await client.eval(RELEASE, { keys: [key(eventId)], arguments: [held(token)] });
    },
    async isDone(eventId) {
      return (await client.eval(IS_DONE, { keys: [key(eventId)], arguments: [] })) === 1;
    },
    async get(name) {
      const value = await client.eval(GET, { keys: launchKey(name), arguments: [] });
      return typeof value === 'string' ? value : null;
    },
    async add(name, value, expiresAt) {
      return (await client.eval(ADD, { keys: launchKey(name), arguments: [value, pxat(expiresAt)] })) === 1;
    },
    async set(name, value, expiresAt) {
      await client.eval(SET, { keys: launchKey(name), arguments: [value, pxat(expiresAt)] });
    },
    async remove(name, value) {
      await client.eval(RELEASE, { keys: launchKey(name), arguments: [value] });
    },
    async increment(name, expiresAt) {
      const count = await client.eval(INCREMENT, { keys: launchKey(name), arguments: [pxat(expiresAt)] });
      if (typeof count !== 'number') throw new Error(`redisEventStore: unexpected answer to the increment: ${String(count)}`);
      return count;
    },
  };
}
