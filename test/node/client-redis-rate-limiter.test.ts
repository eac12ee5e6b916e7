/**
 * redisRateLimiter (`payroll-link/server/redis`) on a real, private Redis
 * (Debian's redis-server on a unix socket in a temporary folder): GCRA on
 * Redis's clock (issue 51) with two limiters sharing one key, calls served in
 * order, an aborted wait, and Redis stopped mid-way, before a call and while
 * one waits (a call fails within the bound, it neither hangs nor goes on
 * unpaced). Where a client is used, its `fetch` is a counting fake of the
 * service (outside what is tested here: the limiter and the client's use of it).
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import { createClient } from 'redis';
import { ConfigError, createPayrollClient, isPayrollApiError, type RateLimiter } from 'payroll-link/server';
import { REDIS_LIMITER_TIMEOUT_MS, redisRateLimiter } from 'payroll-link/server/redis';
import { slotIntervalMs } from '../../src/server/client/rate-limiter.js';
import { startRedis, type PrivateRedis } from '../private-servers.js';
import { keepingLog } from './client-fake-outside.js';

let server: PrivateRedis;
const clients: { destroy(): void }[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

/** A connected client that reconnects quickly and often (the "Redis is back" test waits for it). */
async function connect() {
  const client = createClient({ socket: { path: server.socketPath, reconnectStrategy: () => 50 } });
  client.on('error', () => {}); // Reconnection errors while the server is paused are expected.
  await client.connect();
  clients.push(client);
  return client;
}

type Redis = Awaited<ReturnType<typeof connect>>;

/** Redis's clock, in microseconds. */
async function redisMicros(client: Redis): Promise<number> {
  const [seconds, micros] = (await client.sendCommand(['TIME'])) as [string, string];
  return Number(seconds) * 1_000_000 + Number(micros);
}

/**
 * A client for the limiter that also reads, in the same transaction as each of its scripts, the key the script
 * wrote (the next slot, in µs on Redis's clock): so the slot each call took is Redis's own data, not a guess.
 */
function slotSpy(redis: Redis, key: string) {
  const slots: number[] = [];
  const interval = (options: { arguments: string[] }) => Number(options.arguments[0]);
  const client = {
    async eval(script: string, options: { keys: string[]; arguments: string[] }) {
      const [wait, next] = await redis.multi().eval(script, options).get(key).exec();
      slots.push(Number(next) - interval(options));
      return wait;
    },
  };
  return { client, slots };
}

/** A fake of the service for the client: counts requests, answers an account. */
function countingFetch() {
  const urls: string[] = [];
  const fetch = (async (url: string | URL | Request) => {
    urls.push(String(url));
    return new Response(JSON.stringify({ data: { id: crypto.randomUUID() } }), {
      status: 200,
      headers: { 'content-type': 'application/json', 'service-version': '2025-07-08' },
    });
  }) as typeof globalThis.fetch;
  return { fetch, urls };
}

const clientOn = (rateLimit: RateLimiter, fetch: typeof globalThis.fetch) =>
  createPayrollClient({
    apiSecret: 'sandbox_secret_0123456789abcdef',
    baseUrl: 'http://127.0.0.1:9',
    version: '2025-07-08',
    fetch,
    rateLimit,
    log: keepingLog().log,
  });

before(async () => {
  process.on('unhandledRejection', onUnhandled);
  server = await startRedis();
});
after(async () => {
  for (const client of clients) client.destroy();
  await server.stop();
  process.off('unhandledRejection', onUnhandled);
});

describe('redisRateLimiter', () => {
  test("issue 51: two limiters sharing a key: each call its own slot on Redis's clock, spaced by the interval, none sent before it", async (t) => {
    // The hosts' clocks are not read: Date is stuck in 1970 for this test, and the pace still holds.
    t.mock.timers.enable({ apis: ['Date'], now: 0 });
    const observer = await connect();
    const perSecond = 10;
    const spies = await Promise.all([0, 1].map(async () => slotSpy(await connect(), 'shared:tat')));
    const limiters = spies.map((spy) => redisRateLimiter(spy.client, { perSecond, keyPrefix: 'shared:' }));
    const grantedAt: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        await limiters[i % 2]!.acquire();
        grantedAt.push(await redisMicros(observer));
      }),
    );
    const slots = spies.flatMap((spy) => spy.slots).sort((a, b) => a - b);
    assert.equal(slots.length, 12);
    const intervalUs = slotIntervalMs(perSecond) * 1000;
    // On Redis's own data: a loaded machine can only spread the slots further, never bring two closer.
    for (let i = 1; i < slots.length; i++)
      assert.ok(slots[i]! - slots[i - 1]! >= intervalUs, `slots ${i - 1} and ${i} are ${slots[i]! - slots[i - 1]!} µs apart`);
    // Each call went at or after its slot (read on Redis's clock once it had gone; 1 ms for the clocks' grain).
    grantedAt.sort((a, b) => a - b);
    for (let i = 0; i < slots.length; i++) assert.ok(grantedAt[i]! >= slots[i]! - 1_000, `call ${i} went before its slot`);
  });

  test('callers of one limiter are served in the order they came', async () => {
    const limiter = redisRateLimiter(await connect(), { perSecond: 5, keyPrefix: 'in-order:' });
    const order: number[] = [];
    await Promise.all(Array.from({ length: 12 }, (_, i) => limiter.acquire().then(() => order.push(i))));
    assert.deepEqual(
      order,
      Array.from({ length: 12 }, (_, i) => i),
    );
  });

  test('issue 51: a call aborted while waiting rejects at once with its reason, is never sent, and its slot stays taken', async () => {
    const redis = await connect();
    const spy = slotSpy(redis, 'abort:tat');
    const limiter = redisRateLimiter(spy.client, { perSecond: 1, keyPrefix: 'abort:' });
    const { fetch, urls } = countingFetch();
    const client = clientOn(limiter, fetch);
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = client.accounts.get(crypto.randomUUID(), { signal: controller.signal });
    // Waiting for its slot once Redis has answered its booking.
    await waitUntil(async () => spy.slots.length === 2);
    controller.abort(new Error('the page was closed'));
    await assert.rejects(waiting, /the page was closed/);
    assert.deepEqual(urls, [], 'never reached the service');
    // Not given back (that went with #51): the next call takes the slot after it.
    const next = limiter.acquire(AbortSignal.timeout(60_000));
    await waitUntil(async () => spy.slots.length === 3);
    assert.equal(spy.slots[2]! - spy.slots[1]!, slotIntervalMs(1) * 1000);
    await next;
    // Already aborted: rejects at once, no slot taken.
    await assert.rejects(limiter.acquire(AbortSignal.abort(new Error('already'))), /already/);
    assert.equal(spy.slots.length, 3);
  });

  test('an error from Redis rejects with a clear error, and the client call fails typed, unsent', async () => {
    const redis = await connect();
    await redis.hSet('wrong-type:tat', 'a', 'a hash, not a string');
    const limiter = redisRateLimiter(redis, { keyPrefix: 'wrong-type:' });
    await assert.rejects(limiter.acquire(), /redisRateLimiter: Redis failed the booking \(WRONGTYPE/);
    const { fetch, urls } = countingFetch();
    const error = await clientOn(limiter, fetch)
      .accounts.get(crypto.randomUUID())
      .catch((reason: unknown) => reason);
    assert.ok(isPayrollApiError(error) && error.kind === 'connection' && error.status === null, String(error));
    assert.deepEqual(urls, []);
    await assert.rejects(redisRateLimiter({ eval: async () => 'soon' }).acquire(), /unexpected answer from Redis: soon/);
  });

  test(
    'Redis stopped mid-way: calls fail within the bound, none hangs or goes unpaced; back again, they pace again',
    { timeout: 30_000 },
    async () => {
      const redis = await connect();
      const limiter = redisRateLimiter(redis, { perSecond: 10, keyPrefix: 'stopped:' });
      const { fetch, urls } = countingFetch();
      const client = clientOn(limiter, fetch);
      await client.accounts.get(crypto.randomUUID());
      assert.equal(urls.length, 1);

      await server.pause();
      const started = performance.now();
      const results = await Promise.allSettled(Array.from({ length: 5 }, () => client.accounts.get(crypto.randomUUID())));
      const ms = performance.now() - started;
      for (const result of results) {
        assert.equal(result.status, 'rejected');
        const error = (result as PromiseRejectedResult).reason;
        assert.ok(isPayrollApiError(error), String(error));
        assert.equal(error.kind, 'connection');
        assert.equal(error.status, null);
        assert.match(error.message, /rate limiter failed .*Redis/);
      }
      // Bounded, not hung: the bound plus room for a busy machine (the test's own limit is 30 s).
      assert.ok(ms < REDIS_LIMITER_TIMEOUT_MS + 4_000, `failed after ${Math.round(ms)} ms`);
      assert.equal(urls.length, 1, 'nothing sent unpaced while Redis was down');

      // Not events.once: it rejects on the reconnection errors that come first.
      const ready = new Promise((resolve) => redis.once('ready', resolve));
      await server.start();
      await ready;
      await client.accounts.get(crypto.randomUUID());
      assert.equal(urls.length, 2);
    },
  );

  test(
    'issue 51: Redis stopped while a call waits for its slot: it goes at its slot, taken before; a call made then fails within the bound',
    { timeout: 30_000 },
    async () => {
      const redis = await connect();
      const spy = slotSpy(redis, 'stopped-waiting:tat');
      const limiter = redisRateLimiter(spy.client, { perSecond: 1, keyPrefix: 'stopped-waiting:' });
      const { fetch, urls } = countingFetch();
      const client = clientOn(limiter, fetch);
      await client.accounts.get(crypto.randomUUID());
      const waiting = client.accounts.get(crypto.randomUUID());
      await waitUntil(async () => spy.slots.length === 2);
      await server.pause();
      // Its slot is on Redis already: no second round trip, so nothing for a stopped Redis to fail.
      await waiting;
      assert.equal(urls.length, 2);
      const started = performance.now();
      const error = await client.accounts.get(crypto.randomUUID()).catch((reason: unknown) => reason);
      const ms = performance.now() - started;
      assert.ok(isPayrollApiError(error) && error.kind === 'connection' && error.status === null, String(error));
      assert.match(error.message, /rate limiter failed .*Redis did not answer/);
      // Bounded, not hung: the bound plus room for a busy machine (the test's own limit is 30 s).
      assert.ok(ms < REDIS_LIMITER_TIMEOUT_MS + 4_000, `failed after ${Math.round(ms)} ms`);
      assert.equal(urls.length, 2, 'the call made while Redis was down was not sent');
      const ready = new Promise((resolve) => redis.once('ready', resolve));
      await server.start();
      await ready;
    },
  );

  test('a client that is not node-redis, or bad options, is a ConfigError', () => {
    assert.throws(() => redisRateLimiter({} as never), ConfigError);
    assert.throws(
      () => redisRateLimiter({ eval: async () => 0 }, { perSecond: 0 }),
      (error: unknown) => error instanceof ConfigError && /perSecond/.test(error.message),
    );
    assert.throws(() => redisRateLimiter({ eval: async () => 0 }, { keyPrefix: 7 as never }), /keyPrefix/);
  });

  test('no unhandled rejection', () => {
    assert.deepEqual(unhandled, []);
  });
});

/** Polls `check` until it holds (a Redis state the test cannot subscribe to), up to 5 s. */
async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (!(await check())) {
    if (performance.now() > deadline) assert.fail('condition not reached within 5 s');
    await new Promise(setImmediate);
  }
}
