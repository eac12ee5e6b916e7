/**
 * A {@link RateLimiter} shared by several processes through Redis: the
 * one-second window plus {@link RATE_LIMIT_MARGIN_MS} of the in-process
 * limiter, kept in one sorted set on Redis and read on Redis's clock.
 */
import * as z from 'zod';
import { ConfigError } from '../config-error.js';
import type { RedisScriptClient } from './redis-script-client.js';
import { wait } from '../../shared/backoff.js';
import { RATE_LIMIT_MARGIN_MS, RATE_LIMIT_WINDOW_MS, type RateLimiter, type RequestAnswered } from './rate-limiter.js';
import { untilAborted } from '../../shared/until-aborted.js';
import { withinTime } from '../handler/time-bound.js';
import { WaitingLine } from './waiting-line.js';

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

/** Shared by the scripts: `now`, whole ms on Redis's clock; `keep(ms)`, which only ever lengthens the key's life. */
const PRELUDE = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function keep(ms)
  if redis.call('PTTL', KEYS[1]) < ms then redis.call('PEXPIRE', KEYS[1], ms) end
end
`;

/**
 * Books the next free send time. KEYS[1]: a sorted set of send times (whole
 * ms on Redis's clock, one member per request). ARGV: the limit, the window
 * (1 s plus the margin), a member unique to this request. Answers the booked
 * time and how long until it, in ms.
 *
 * Times are booked in order, each at the latest of now, the last booking, and
 * the booking `limit` places back plus the window: so any `limit` + 1
 * consecutive sends span at least the window, and callers are served in the
 * order Redis saw them, whichever process they came from. Entries older than
 * one window can no longer matter and are dropped.
 */
const BOOK = `if redis.replicate_commands then redis.replicate_commands() end
${PRELUDE}local limit = tonumber(ARGV[1])
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
keep(at - now + window + 1000)
return {at, at - now}`;

/**
 * Just before a booked time: moves the booking later if the window before it
 * has filled since it was made (an earlier send went out late, see SENT), and
 * answers how long until it, in ms (0 or less: now). ARGV: the member, the
 * limit, the window, the booked time (booked again if the entry is gone, as
 * after a restart of Redis). Each step moves the time to where the `limit`-th
 * other send before it leaves the window, until none is left inside it.
 */
const CHECK = `if redis.replicate_commands then redis.replicate_commands() end
${PRELUDE}local member = ARGV[1]
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local at = math.max(now, tonumber(redis.call('ZSCORE', KEYS[1], member) or ARGV[4]))
for step = 1, 1000 do
  local before = redis.call('ZREVRANGEBYSCORE', KEYS[1], at, '-inf', 'WITHSCORES', 'LIMIT', 0, limit + 1)
  local seen, back = 0, nil
  for i = 1, #before, 2 do
    if before[i] ~= member then
      seen = seen + 1
      if seen == limit then back = tonumber(before[i + 1]) break end
    end
  end
  if back == nil or back + window <= at then break end
  at = back + window
end
redis.call('ZADD', KEYS[1], at, member)
keep(at - now + window + 1000)
return at - now`;

/**
 * Once a request goes, and again once it is answered: its time becomes now
 * (less ARGV[3] ms) if that is later, so that the bookings after it are
 * checked against when it really went (a busy event loop), then against the
 * latest the service can have counted it. The answer's mark is now less the
 * margin, since the service has counted it by then: it holds the service's one
 * second from its answer. Put back if it had left the set meanwhile (an answer
 * slower than the window). ARGV: the member, the key's lifetime, the offset.
 */
const SENT = `if redis.replicate_commands then redis.replicate_commands() end
${PRELUDE}local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
local mark = now - tonumber(ARGV[3])
if not at or tonumber(at) < mark then
  redis.call('ZADD', KEYS[1], mark, ARGV[1])
  keep(tonumber(ARGV[2]) + 1000)
end
return 1`;

/** Gives a booking back (its caller left before its time): later bookings stay valid, only the window is less full. */
const RELEASE = `return redis.call('ZREM', KEYS[1], ARGV[1])`;

/** How long before a booked time Redis is asked again how long there is left. */
const CHECK_AHEAD_MS = 50;

/** Resolves at `time` (`performance.now()`), or rejects with the signal's reason once it aborts. */
const sleepUntil = (time: number, signal: AbortSignal) => wait(Math.max(0, time - performance.now()), signal);

/** Settles like `promise`, or rejects once `ms` have passed without an answer. */
async function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let answer;
  try {
    answer = await withinTime(() => promise, ms);
  } catch (error) {
    throw new Error(
      `redisRateLimiter: Redis failed ${what} (${error instanceof Error ? error.message : String(error)}); the request was not sent`,
      {
        cause: error,
      },
    );
  }
  if (!answer.settled)
    throw new Error(`redisRateLimiter: Redis did not answer ${what} within ${ms} ms (unreachable?); the request was not sent`);
  return answer.value;
}

/** A whole number of ms from Redis, or an error naming what came instead. */
function milliseconds(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new Error(`redisRateLimiter: unexpected answer from Redis: ${String(value)}; the request was not sent`);
  return value;
}

/**
 * A {@link RateLimiter} on Redis, for several processes that share one API
 * secret (and so one limit at the service): pass the same limiter options to
 * each, and give it to `createPayrollClient` as `rateLimit`. Together they
 * send at most `perSecond` requests in any window of one second plus
 * {@link RATE_LIMIT_MARGIN_MS}, so the service's own sliding second never sees
 * more; calls beyond it wait their turn.
 *
 * How: each `acquire` books the next free send time with a Lua script
 * (atomic on Redis) that reads Redis's clock (`TIME`) and keeps the times in
 * one sorted set; the process waits on its own timer, asks Redis again just
 * before the time (a send that went out late moves the bookings after it),
 * and marks its send as gone. Only durations cross between hosts, so their
 * clocks need not agree. Within a process, callers go in the order they came.
 * A `signal` that aborts while waiting rejects with its reason and gives the
 * booking back. Once the client has the request's answer, it marks it again
 * (see {@link RequestAnswered}). At most four short Redis calls per request
 * (three when there is room). Give it your connected node-redis client (`redis` ≥ 4); it creates
 * nothing and never closes it.
 *
 * **Redis unreachable: the call fails, it does not go on unpaced.** When Redis
 * does not answer within {@link REDIS_LIMITER_TIMEOUT_MS} (node-redis queues
 * commands while it reconnects) or answers with an error, `acquire` rejects
 * and the request is not sent: through the client, the call rejects with a
 * `PayrollApiError` of kind `connection` and `status` null. A call already
 * waiting its turn fails the same way when Redis does not answer the check
 * just before its time. Going on unpaced
 * would let N processes send N times the limit, and every call would then
 * meet 429s and their retries; failing at once is visible and keeps the
 * service's limit. Calls pace again as soon as the client has reconnected.
 *
 * **Several instances.** Every process that uses the same API secret must use
 * the same Redis, `keyPrefix` and `perSecond`; a process pacing itself with
 * the default in-process limiter is not counted. Use one `keyPrefix` per
 * secret (sandbox and production keys have their own limits). A request
 * counts from its answer once the client has it, so a send that took long to
 * reach the service (a burst on cold connections: TLS handshakes; a stalled
 * machine on the way) still leaves the next second room, when its answer
 * reaches Redis before the next booking is checked (50 ms before its time);
 * the margin (100 ms) is for sends whose answers have not come by then.
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
  const check = async (member: string, at: number) =>
    milliseconds(
      await bounded(
        client.eval(CHECK, { keys, arguments: [member, String(perSecond), window, String(at)] }),
        REDIS_LIMITER_TIMEOUT_MS,
        'the check',
      ),
    );
  /** Best effort: unmarked, a late send is only checked against its booked time, a slow answer not at all. */
  const mark = (member: string, offsetMs: number) => {
    client.eval(SENT, { keys, arguments: [member, window, String(offsetMs)] }).catch(() => {});
  };
  /** Marks the send as gone now, and gives the client its {@link RequestAnswered}: marked again at the answer, once. */
  const go = (member: string): RequestAnswered => {
    mark(member, 0);
    let answered = false;
    return () => {
      if (answered) return;
      answered = true;
      mark(member, RATE_LIMIT_MARGIN_MS);
    };
  };

  /** This process's callers, in the order Redis booked them (see waitFor). */
  const line = new WaitingLine();

  /**
   * Waits for the booked time on Redis's clock, on this host's timer. Redis read its clock somewhere between
   * the ask and the answer: the middle is the best guess of when, whatever the hosts' clocks say. A booking
   * answered slowly (a busy event loop, a burst of calls) would leave a guess off by half that delay, so a
   * longer wait asks Redis once more, a little ahead of the time, and the send itself waits on no round trip.
   */
  const waitFor = async (booking: Promise<unknown>, member: string, asked: number, signal: AbortSignal) => {
    const answer = await booking;
    const answered = performance.now();
    if (!Array.isArray(answer) || answer.length !== 2) milliseconds(answer);
    const at = milliseconds((answer as unknown[])[0]);
    const waitMs = milliseconds((answer as unknown[])[1]);
    const place = line.join(answered);
    try {
      let target = waitMs <= 0 ? answered : (asked + answered) / 2 + waitMs;
      if (waitMs > CHECK_AHEAD_MS) {
        place.wakeAt = target - CHECK_AHEAD_MS;
        await sleepUntil(place.wakeAt, signal);
        const checked = performance.now();
        // Awake, waiting on Redis: due, so the callers behind poll until it has gone, and none goes later than its
        // booking by more than a few ms (a late send crowds the window the later bookings were checked in). A check
        // slower than the grace only lets them go first; it takes its place back when it returns.
        place.wakeAt = checked;
        const remaining = await check(member, at);
        target = (checked + performance.now()) / 2 + remaining;
      }
      // A check may have moved an earlier caller's time past this one's: this process's callers still go in
      // order, each looking again on its own timer (never awaiting another caller, which may be another request's).
      for (;;) {
        place.wakeAt = target;
        await sleepUntil(target, signal);
        const ahead = line.ahead(place, performance.now());
        if (ahead.length === 0) return go(member);
        target = WaitingLine.nextLook(ahead, performance.now());
      }
    } finally {
      line.leave(place);
    }
  };

  return {
    acquire(signal?: AbortSignal): Promise<RequestAnswered> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      const member = crypto.randomUUID();
      const asked = performance.now();
      const booking = bounded(
        client.eval(BOOK, { keys, arguments: [String(perSecond), window, member] }),
        REDIS_LIMITER_TIMEOUT_MS,
        'the booking',
      );
      let granted: Promise<RequestAnswered>;
      if (!signal) {
        granted = waitFor(booking, member, asked, new AbortController().signal);
      } else {
        const onAbort = () => {
          // Made or on its way: the booking is given back either way once Redis has answered.
          booking.then(
            () => release(member),
            () => {},
          );
        };
        signal.addEventListener('abort', onAbort, { once: true });
        granted = untilAborted(waitFor(booking, member, asked, signal), signal).finally(() => signal.removeEventListener('abort', onAbort));
      }
      return granted;
    },
  };
}
