/**
 * inProcessRateLimiter (GCRA, issue 51) on a mocked clock (its own `now` injected, and Node's mocked timers):
 * consecutive calls spaced by the interval with no burst, abort while waiting, a caller whose request ended while
 * it waited (its timers cancelled, as Cloudflare Workers does), and each call on a timer of its own.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { inProcessRateLimiter, RATE_LIMIT_MARGIN_MS, RATE_LIMIT_WINDOW_MS, slotIntervalMs } from '../../src/server/client/rate-limiter.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A limiter on the mocked clock, and when each of its calls was let go. */
function mockedLimiter(t: TestContext, perSecond: number) {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  const limiter = inProcessRateLimiter({ perSecond }, Date.now);
  const grants: number[] = [];
  const acquire = (signal?: AbortSignal) => limiter.acquire(signal).then(() => void grants.push(Date.now()));
  return { limiter, grants, acquire };
}

test('issue 51: consecutive calls are spaced by 1 s / limit plus the margin, with no burst', async (t) => {
  const { grants, acquire } = mockedLimiter(t, 10);
  const interval = slotIntervalMs(10);
  assert.equal(interval, (RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS) / 10);
  for (let i = 0; i < 25; i++) void acquire();
  await settle();
  assert.deepEqual(grants, [0], 'only the first goes at once (the limiter before #51 let 10 go)');
  for (let i = 1; i < 25; i++) {
    t.mock.timers.tick(interval);
    await settle();
  }
  assert.equal(grants.length, 25);
  for (let i = 1; i < grants.length; i++)
    assert.ok(grants[i]! - grants[i - 1]! >= interval, `call ${i} went ${grants[i]! - grants[i - 1]!} ms after the one before`);
  assert.equal(grants.at(-1), 24 * interval, 'paced, not stalled: each at its slot');
  // So any window of the service's second holds at most the limit, with the margin to spare.
  for (const at of grants)
    assert.ok(grants.filter((other) => other >= at && other < at + RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS).length <= 10);
});

test('issue 51: a call after an idle spell goes at once, and its slot counts from then', async (t) => {
  const { grants, acquire } = mockedLimiter(t, 2);
  await acquire();
  t.mock.timers.tick(5_000);
  void acquire();
  void acquire();
  await settle();
  assert.deepEqual(grants, [0, 5_000]);
  t.mock.timers.tick(slotIntervalMs(2));
  await settle();
  assert.deepEqual(grants, [0, 5_000, 5_000 + slotIntervalMs(2)]);
});

test('issue 51: a call aborted while waiting rejects at once with its reason; later calls keep their slots', async (t) => {
  const { limiter, grants, acquire } = mockedLimiter(t, 1);
  await acquire();
  const controller = new AbortController();
  const aborted = limiter.acquire(controller.signal);
  const next = acquire();
  controller.abort(new Error('left'));
  // At once: no time has passed on the clock.
  await assert.rejects(aborted, /left/);
  // Its slot is not given back (that went with #51): the next call keeps the one after it.
  t.mock.timers.tick(slotIntervalMs(1));
  await settle();
  assert.deepEqual(grants, [0]);
  t.mock.timers.tick(slotIntervalMs(1));
  await next;
  assert.deepEqual(grants, [0, 2 * slotIntervalMs(1)]);
  await assert.rejects(limiter.acquire(AbortSignal.abort(new Error('already'))), /already/);
  // An already aborted signal takes no slot: the next call has the one right after.
  void acquire();
  t.mock.timers.tick(slotIntervalMs(1));
  await settle();
  assert.deepEqual(grants, [0, 2 * slotIntervalMs(1), 3 * slotIntervalMs(1)]);
});

test('issue 51: a caller whose request ended while it waited (its timers cancelled) leaves later calls their own slots', async (t) => {
  const { grants, acquire } = mockedLimiter(t, 1);
  await acquire();
  // Faked, outside the limiter: the runtime cancels the timers of a request that ended (workerd does), so this
  // caller never wakes again. The limiter before #51 held the next caller for a grace of 200 ms past its turn.
  const mockedSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = (() => 0) as unknown as typeof setTimeout;
  let endedWent = false;
  try {
    void acquire().then(() => (endedWent = true));
  } finally {
    globalThis.setTimeout = mockedSetTimeout;
  }
  void acquire();
  t.mock.timers.tick(2 * slotIntervalMs(1) - 1);
  await settle();
  assert.deepEqual(grants, [0], "the ended caller's slot stays its own, unused");
  t.mock.timers.tick(1);
  await settle();
  assert.equal(endedWent, false);
  assert.deepEqual(grants, [0, 2 * slotIntervalMs(1)], 'the live caller goes at its own slot, the one after the ended one');
});

test('issue 51: each waiting call sleeps on a timer of its own, cleared when it aborts', async (t) => {
  const { limiter } = mockedLimiter(t, 1);
  await limiter.acquire();
  const mockedSetTimeout = globalThis.setTimeout;
  const mockedClearTimeout = globalThis.clearTimeout;
  const set: unknown[] = [];
  const cleared: unknown[] = [];
  globalThis.setTimeout = ((callback: () => void, ms: number) => {
    const timer = mockedSetTimeout(callback, ms);
    set.push(timer);
    return timer;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((timer: ReturnType<typeof setTimeout>) => {
    cleared.push(timer);
    mockedClearTimeout(timer);
  }) as typeof clearTimeout;
  try {
    const controllers = [new AbortController(), new AbortController(), new AbortController()];
    const waiting = controllers.map((controller) => limiter.acquire(controller.signal));
    assert.equal(set.length, 3, 'one timer per call, none shared');
    controllers[1]!.abort(new Error('gone'));
    await assert.rejects(waiting[1]!, /gone/);
    assert.ok(cleared.includes(set[1]), 'the aborted call cleared its own timer');
    t.mock.timers.tick(3 * slotIntervalMs(1));
    await Promise.all([waiting[0], waiting[2]]);
  } finally {
    globalThis.setTimeout = mockedSetTimeout;
    globalThis.clearTimeout = mockedClearTimeout;
  }
});

test('perSecond must be a whole number of at least 1', () => {
  for (const perSecond of [0, -1, 1.5, Number.NaN, Infinity])
    assert.throws(
      () => inProcessRateLimiter({ perSecond }),
      (error: Error) => error.name === 'ConfigError' && /perSecond/.test(error.message),
    );
});
