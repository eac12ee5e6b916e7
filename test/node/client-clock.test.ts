/**
 * createPayrollClient on a mocked clock, with a fake `fetch` (a fake of the
 * outside, the service): what depends on time and could only be seen against
 * the sandbox by waiting in real time (a 10-second Retry-After, a limiter that
 * holds a poll past jobs.wait's deadline, how the default limiter spaces its
 * calls). The sandbox cannot make these answers on demand,
 * and the wall clock would make the tests slow and flaky.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import { createPayrollClient, isPayrollApiError, type ClientOptions, type RateLimiter } from '../../src/server/index.js';
import { RATE_LIMIT_MARGIN_MS, RATE_LIMIT_WINDOW_MS, slotIntervalMs } from '../../src/server/client/rate-limiter.js';
import { MAX_RETRY_WAIT_MS } from '../../src/shared/backoff.js';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const platform = { id: randomUUID(), name: 'P', type: 'payroll' };

/** Lets every promise chain that can move, move (setImmediate is not mocked). */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A fake service: answers each request with `answer(n)` (n from 1), and counts them. */
function fakeFetch(answer: (n: number) => Response | Promise<Response>) {
  let calls = 0;
  const fetch = (() => Promise.resolve(answer(++calls))) as typeof globalThis.fetch;
  return { fetch, calls: () => calls };
}

function client(t: TestContext, options: Partial<ClientOptions>) {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  return createPayrollClient({ apiSecret: 'secret', baseUrl: 'https://service.example', version: '2025-07-08', log: quiet, ...options });
}

/** Follows a promise without awaiting it: whether it settled, and how. */
function watch<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

test('a Retry-After longer than the cap is waited out to the cap, then the call is tried again', async (t) => {
  const service = fakeFetch((n) => (n === 1 ? json(429, {}, { 'retry-after': '3600' }) : json(200, { data: platform })));
  const call = watch(client(t, { fetch: service.fetch, rateLimit: false }).platforms.get(platform.id));
  await settle();
  assert.equal(call.settled, false, `not a final answer: ${String(call.error)}`);
  t.mock.timers.tick(MAX_RETRY_WAIT_MS - 1);
  await settle();
  assert.equal(service.calls(), 1, 'no retry before the cap');
  t.mock.timers.tick(1);
  await settle();
  assert.equal(service.calls(), 2);
  assert.equal((call.value as { id: string } | undefined)?.id, platform.id);
});

test('jobs.wait settles at its deadline with kind timeout, even while the limiter holds the next poll', async (t) => {
  const job = { id: randomUUID(), status: 'pending' };
  const service = fakeFetch(() => json(200, { data: job }));
  let granted = 0;
  // Grants the first poll, then holds every other until its signal aborts: a limiter shared with a busy app.
  const holding: RateLimiter = {
    acquire: (signal) =>
      granted++ === 0
        ? Promise.resolve()
        : new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true })),
  };
  const waiting = watch(client(t, { fetch: service.fetch, rateLimit: holding }).jobs.wait(job.id, { timeoutMs: 5_000 }));
  await settle();
  t.mock.timers.tick(4_000); // past the first backoff: the second poll now waits for the limiter
  await settle();
  assert.equal(granted, 2);
  assert.equal(waiting.settled, false);
  t.mock.timers.tick(1_000);
  await settle();
  assert.ok(waiting.settled, 'settled at the deadline');
  assert.ok(isPayrollApiError(waiting.error) && waiting.error.kind === 'timeout', String(waiting.error));
  assert.equal(service.calls(), 1);
});

test('jobs.wait bounds a poll that never answers by its deadline, not by the client timeoutMs', async (t) => {
  // A fetch that answers only its signal's abort.
  const hanging = ((_input: RequestInfo | URL, init?: RequestInit) =>
    new Promise((_resolve, reject) =>
      init?.signal?.addEventListener('abort', () => reject(init.signal!.reason), { once: true }),
    )) as typeof fetch;
  const waiting = watch(client(t, { fetch: hanging, rateLimit: false, timeoutMs: 60_000 }).jobs.wait(randomUUID(), { timeoutMs: 2_000 }));
  await settle();
  t.mock.timers.tick(2_000);
  await settle();
  assert.ok(waiting.settled, 'settled at the deadline');
  assert.ok(isPayrollApiError(waiting.error) && waiting.error.kind === 'timeout', String(waiting.error));
});

for (const [mode, perSecond] of [
  [undefined, 10],
  ['sandbox', 10],
  ['development', 10],
  ['production', 50],
] as const) {
  test(`the default limiter of mode ${String(mode)}: one call each (1 s + margin) / ${perSecond}, no burst`, async (t) => {
    const service = fakeFetch(() => json(200, { data: platform }));
    const payroll = client(t, { fetch: service.fetch, ...(mode === undefined ? {} : { mode }) });
    // The limiter reads the monotonic clock, which mock.timers does not move: here it follows the mocked Date.
    t.mock.method(performance, 'now', () => Date.now());
    const interval = slotIntervalMs(perSecond);
    const calls = Array.from({ length: 60 }, () => watch(payroll.platforms.get(platform.id)));
    await settle();
    assert.equal(service.calls(), 1, 'the first at once, each other at its own slot');
    t.mock.timers.tick(Math.ceil(interval) - 1);
    await settle();
    assert.equal(service.calls(), 1, 'none before the next slot');
    t.mock.timers.tick(1);
    await settle();
    assert.equal(service.calls(), 2, 'the second at its slot');
    // To just before 1 s + margin: perSecond calls in all; at it, the next.
    const window = RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS;
    t.mock.timers.tick(window - 1 - Math.ceil(interval));
    await settle();
    assert.equal(service.calls(), perSecond, 'perSecond calls within (1 s + margin)');
    t.mock.timers.tick(1);
    await settle();
    assert.equal(service.calls(), perSecond + 1);
    assert.equal(calls.filter((call) => call.settled).length, perSecond + 1);
  });
}
