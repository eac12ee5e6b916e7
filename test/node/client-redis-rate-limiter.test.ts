/**
 * redisRateLimiter (`payroll-link/server/redis`) on a real, private Redis
 * (Debian's redis-server on a unix socket in a temporary folder): the limit
 * held on Redis's clock by several limiters sharing one key, a late send
 * that pushes the bookings after it, calls served in order, an aborted wait
 * that gives its booking back, and Redis stopped mid-way, before a call and
 * while one waits (the call fails within the bound, it neither hangs nor goes
 * on unpaced). Where a client is used, its `fetch` is a counting fake of the
 * service (outside what is tested here: the limiter and the client's use of it).
 */
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'redis';
import { ConfigError, createPayrollClient, isPayrollApiError, type RateLimiter } from 'payroll-link/server';
import { REDIS_LIMITER_TIMEOUT_MS, redisRateLimiter } from 'payroll-link/server/redis';
import { RATE_LIMIT_MARGIN_MS, RATE_LIMIT_WINDOW_MS } from '../../src/server/client/rate-limiter.js';
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

/** Redis's clock, in milliseconds. */
async function redisNow(client: Awaited<ReturnType<typeof connect>>): Promise<number> {
  const [seconds, micros] = (await client.sendCommand(['TIME'])) as [string, string];
  return Number(seconds) * 1000 + Number(micros) / 1000;
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
  test('three limiters on one key: at most perSecond per second of Redis, plus the margin, and no slower than that', async (t) => {
    // The hosts' clocks are not read: Date is stuck in 1970 for this test, and the pace still holds.
    t.mock.timers.enable({ apis: ['Date'], now: 0 });
    const observer = await connect();
    const perSecond = 10;
    const limiters = await Promise.all(
      [0, 1, 2].map(async () => redisRateLimiter(await connect(), { perSecond, keyPrefix: 'limit-held:' })),
    );
    let granted = 0;
    const started = performance.now();
    // 45 calls at once, spread over the three: the first 10 go at once, the others 10 per 1.1 s.
    await Promise.all(
      Array.from({ length: 45 }, async (_, i) => {
        await limiters[i % 3]!.acquire();
        granted++;
      }),
    );
    const elapsed = performance.now() - started;
    assert.equal(granted, 45);
    // The booked times, on Redis's clock: any 11 consecutive span at least 1 s plus the full margin, so the
    // service's sliding second never sees more than the limit. (When each call is let go is this host's best guess
    // of its booked time, half a round trip to Redis either way: the margin is there for that. A check of readings
    // of Redis's clock taken after each call went failed on a loaded machine, by 2 ms.)
    const booked = (await observer.zRangeWithScores('limit-held:sent', 0, -1)).map((entry) => entry.score);
    assert.equal(booked.length, 45);
    for (let i = 0; i + perSecond < booked.length; i++)
      assert.ok(booked[i + perSecond]! - booked[i]! >= RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS - 1);
    // Paced, not stalled: 4 more windows after the first. The lower bound is exact; the upper one only catches a
    // limiter that stalls (a wake-up missed until some timeout), with room for a busy machine: a send that goes
    // late rightly pushes the bookings after it.
    const expected = 4 * (RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS);
    assert.ok(
      elapsed >= expected - 50 && elapsed < expected + 3_000,
      `45 grants took ${Math.round(elapsed)} ms, expected about ${expected}`,
    );
  });

  test('a send that went out late pushes the bookings after it: the window counts from when it really went', async () => {
    const observer = await connect();
    const limiter = redisRateLimiter(await connect(), { perSecond: 2, keyPrefix: 'late:' });
    // Before the three are booked, on Redis's clock.
    const before = await redisNow(observer);
    const first = limiter.acquire();
    const second = limiter.acquire();
    const third = limiter.acquire();
    // A blocked event loop (the condition under test, not a pause of the test): once the bookings are written
    // (node-redis writes on a later turn), Redis books the first two at once, but they go 300 ms later.
    await new Promise(setImmediate);
    const until = performance.now() + 300;
    while (performance.now() < until);
    await Promise.all([first, second, third]);
    // Marked as gone when they went, 300 ms or more after `before`, the two moved the third's booking to a window
    // after that (without the mark: a window after their booking, about 1,100 ms after `before`). On Redis's own
    // data, so a loaded machine can only make the marks later: it may hide a missing mark, never fail a limiter
    // that has it.
    const latest = Math.max(...(await observer.zRangeWithScores('late:sent', 0, -1)).map((entry) => entry.score));
    assert.ok(
      latest - before >= 300 + RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS - 1,
      `the third was booked ${Math.round(latest - before)} ms after the start`,
    );
  });

  test('answers that came late push the bookings after them: a request counts from its answer once the client reports it', async () => {
    const observer = await connect();
    const limiter = redisRateLimiter(await connect(), { perSecond: 2, keyPrefix: 'answered-late:' });
    const answers = await Promise.all([limiter.acquire(), limiter.acquire()]);
    await sleep(300);
    // Before the answers are marked, on Redis's clock.
    const answeredAt = await redisNow(observer);
    for (const answered of answers) {
      assert.equal(typeof answered, 'function');
      (answered as () => void)();
    }
    // Booked after the marks (one connection, in order): the third is held for the service's one second from the
    // answers, not a window from the sends (about 800 ms from `answeredAt`). On Redis's own data: a loaded machine
    // can only make the answers later.
    await limiter.acquire();
    const latest = Math.max(...(await observer.zRangeWithScores('answered-late:sent', 0, -1)).map((entry) => entry.score));
    assert.ok(
      latest - answeredAt >= RATE_LIMIT_WINDOW_MS - 1,
      `the third was booked ${Math.round(latest - answeredAt)} ms after the answers`,
    );
  });

  test('an answer slower than the window puts its request back in the window', async () => {
    const observer = await connect();
    const limiter = redisRateLimiter(await connect(), { perSecond: 2, keyPrefix: 'answered-slow:' });
    const scores = async () => (await observer.zRangeWithScores('answered-slow:sent', 0, -1)).map((entry) => entry.score);
    const slow = await limiter.acquire();
    // Its window passes with no answer, and the next booking drops it from the set.
    await sleep(RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS + 100);
    await limiter.acquire();
    const [next, ...others] = await scores();
    assert.equal(others.length, 0, 'the slow one left the set');
    await sleep(300);
    (slow as () => void)();
    // The window holds the next one and, back in it, the slow one: a third is booked for when the next one leaves
    // (without the slow one put back, at once).
    await limiter.acquire();
    const latest = Math.max(...(await scores()));
    assert.ok(
      latest - next! >= RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS - 1,
      `the third was booked ${Math.round(latest - next!)} ms after the next one`,
    );
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

  test('an aborted wait rejects with its reason, gives its booking back, and the request is never sent', async () => {
    const redis = await connect();
    const limiter = redisRateLimiter(redis, { perSecond: 2, keyPrefix: 'abort:' });
    const { fetch, urls } = countingFetch();
    const client = clientOn(limiter, fetch);
    await limiter.acquire();
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = client.accounts.get(crypto.randomUUID(), { signal: controller.signal });
    // Booked (so waiting for its time) once the set holds three.
    await waitUntil(async () => (await redis.zCard('abort:sent')) === 3);
    controller.abort(new Error('the page was closed'));
    await assert.rejects(waiting, /the page was closed/);
    assert.deepEqual(urls, [], 'never reached the service');
    await waitUntil(async () => (await redis.zCard('abort:sent')) === 2);
    // Already aborted: rejects at once, nothing booked.
    await assert.rejects(limiter.acquire(AbortSignal.abort(new Error('already'))), /already/);
    assert.equal(await redis.zCard('abort:sent'), 2);
  });

  test('an error from Redis rejects with a clear error, and the client call fails typed, unsent', async () => {
    const redis = await connect();
    await redis.set('wrong-type:sent', 'a string, not a sorted set');
    const limiter = redisRateLimiter(redis, { keyPrefix: 'wrong-type:' });
    await assert.rejects(limiter.acquire(), /redisRateLimiter: Redis failed the booking \(WRONGTYPE/);
    const { fetch, urls } = countingFetch();
    const error = await clientOn(limiter, fetch)
      .accounts.get(crypto.randomUUID())
      .catch((reason: unknown) => reason);
    assert.ok(isPayrollApiError(error) && error.kind === 'connection' && error.status === null, String(error));
    assert.deepEqual(urls, []);
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

  test('Redis stopped while a call waits its turn: it fails by its time plus the bound, unsent', { timeout: 30_000 }, async () => {
    const redis = await connect();
    const limiter = redisRateLimiter(redis, { perSecond: 1, keyPrefix: 'stopped-waiting:' });
    const { fetch, urls } = countingFetch();
    const client = clientOn(limiter, fetch);
    await client.accounts.get(crypto.randomUUID());
    const started = performance.now();
    const waiting = client.accounts.get(crypto.randomUUID()).catch((reason: unknown) => reason);
    await waitUntil(async () => (await redis.zCard('stopped-waiting:sent')) === 2);
    await server.pause();
    const error = await waiting;
    const ms = performance.now() - started;
    assert.ok(isPayrollApiError(error) && error.kind === 'connection' && error.status === null, String(error));
    assert.ok(ms < RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS + REDIS_LIMITER_TIMEOUT_MS + 4_000, `failed after ${Math.round(ms)} ms`);
    assert.equal(urls.length, 1, 'the waiting call was not sent');
    const ready = new Promise((resolve) => redis.once('ready', resolve));
    await server.start();
    await ready;
  });

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
