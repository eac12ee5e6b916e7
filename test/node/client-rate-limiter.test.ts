/**
 * inProcessRateLimiter on a mocked clock: the window with its margin, first come first served, abort, and a
 * caller whose request ended without aborting (its timers cancelled, as Cloudflare Workers does); and the line
 * the limiters keep their callers in.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inProcessRateLimiter, RATE_LIMIT_MARGIN_MS } from '../../src/server/client/rate-limiter.js';
import { DUE_POLL_MS, LATE_WAKE_GRACE_MS, WaitingLine } from '../../src/server/client/waiting-line.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('at most perSecond in any window of one second plus the margin, served in order', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  const limiter = inProcessRateLimiter({ perSecond: 3 });
  const granted: [number, number][] = [];
  for (let i = 0; i < 7; i++) void limiter.acquire().then(() => granted.push([i, Date.now()]));
  await settle();
  assert.deepEqual(
    granted.map(([i]) => i),
    [0, 1, 2],
  );
  // The service's one second alone is not enough: sent at the window's edge, a request may arrive inside it.
  t.mock.timers.tick(1_050);
  await settle();
  assert.equal(granted.length, 3, 'a margin of at least 50 ms holds the rest');
  t.mock.timers.tick(RATE_LIMIT_MARGIN_MS - 50 + 1);
  await settle();
  assert.deepEqual(
    granted.map(([i]) => i),
    [0, 1, 2, 3, 4, 5],
  );
  t.mock.timers.tick(1_000 + RATE_LIMIT_MARGIN_MS + 1);
  await settle();
  assert.deepEqual(
    granted.map(([i]) => i),
    [0, 1, 2, 3, 4, 5, 6],
  );
  // No window of 1 s + margin holds more than 3 grants.
  for (const [, at] of granted)
    assert.ok(granted.filter(([, other]) => other >= at && other < at + 1_000 + RATE_LIMIT_MARGIN_MS).length <= 3);
});

test('an aborted wait rejects with its reason, is not counted, and the queue goes on', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  const limiter = inProcessRateLimiter({ perSecond: 1 });
  await limiter.acquire();
  const controller = new AbortController();
  const aborted = limiter.acquire(controller.signal);
  const next = limiter.acquire();
  controller.abort(new Error('left'));
  await assert.rejects(aborted, /left/);
  t.mock.timers.tick(1_000 + RATE_LIMIT_MARGIN_MS + 1);
  await next;
  await assert.rejects(limiter.acquire(AbortSignal.abort(new Error('already'))), /already/);
});

test("a request answered late holds the service's one second from its answer: late answers hold the next window back", async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  const limiter = inProcessRateLimiter({ perSecond: 2 });
  const answers = [await limiter.acquire(), await limiter.acquire()];
  let thirdAt: number | null = null;
  void limiter.acquire().then(() => (thirdAt = Date.now()));
  // The two went at 0, and their answers come 300 ms later (the service may have counted them as late as that).
  t.mock.timers.tick(300);
  for (const answered of answers) {
    assert.equal(typeof answered, 'function');
    (answered as () => void)();
  }
  // Ticks that end at each timer (a mocked tick reads its end time in the timers it runs).
  t.mock.timers.tick(1_000 + RATE_LIMIT_MARGIN_MS + 1 - 300);
  await settle();
  assert.equal(thirdAt, null, 'not 1.1 s after they went');
  t.mock.timers.tick(199);
  await settle();
  assert.equal(thirdAt, null);
  t.mock.timers.tick(1);
  await settle();
  assert.equal(thirdAt, 300 + 1_000 + 1, 'one second after their answers');
});

test('a fast answer (within the margin) holds nothing longer than the send did', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  const limiter = inProcessRateLimiter({ perSecond: 1 });
  const answered = (await limiter.acquire()) as () => void;
  let nextAt: number | null = null;
  void limiter.acquire().then(() => (nextAt = Date.now()));
  t.mock.timers.tick(RATE_LIMIT_MARGIN_MS);
  answered();
  t.mock.timers.tick(1_000 + 1);
  await settle();
  assert.equal(nextAt, 1_000 + RATE_LIMIT_MARGIN_MS + 1);
});

test('an answer slower than the window puts its request back in it; its function counts once', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  const limiter = inProcessRateLimiter({ perSecond: 1 });
  const slow = (await limiter.acquire()) as () => void;
  // Its window passed with no answer: the next goes, counted from when it went (1,101).
  t.mock.timers.tick(1_000 + RATE_LIMIT_MARGIN_MS + 1);
  const next = (await limiter.acquire()) as () => void;
  next();
  // The slow one's answer, 2 s after it went (2,001): it holds the window to 3,001, so the one after waits for it.
  t.mock.timers.tick(900);
  slow();
  let lastAt: number | null = null;
  void limiter.acquire().then(() => (lastAt = Date.now()));
  // 2,202: the next one's count has left the window; the slow one's has not.
  t.mock.timers.tick(1_101 + 1_000 + RATE_LIMIT_MARGIN_MS + 1 - 2_001);
  await settle();
  assert.equal(lastAt, null, 'the slow answer holds it');
  // A second call of the slow one's function, later: counted once, it moves nothing.
  t.mock.timers.tick(500);
  slow();
  t.mock.timers.tick(299);
  await settle();
  assert.equal(lastAt, null);
  t.mock.timers.tick(1);
  await settle();
  assert.equal(lastAt, 2_001 + 1_000 + 1);
});

test('a caller whose request ended while it waited (its timers cancelled) holds the next one up by the grace at most', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
  const limiter = inProcessRateLimiter({ perSecond: 1 });
  await limiter.acquire();
  // Faked, outside the limiter: the runtime cancels the timers of a request that ended (workerd does), so this
  // caller never wakes again. Today's limiter kept one timer for all callers: set here, the queue stalled for good.
  const mockedSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = (() => 0) as unknown as typeof setTimeout;
  let endedWent = false;
  try {
    void limiter.acquire().then(() => (endedWent = true));
  } finally {
    globalThis.setTimeout = mockedSetTimeout;
  }
  let liveAt: number | null = null;
  void limiter.acquire().then(() => (liveAt = Date.now()));
  // The ended caller's turn (when the first request leaves the window): the live one lets it go first.
  const turn = 1_000 + RATE_LIMIT_MARGIN_MS + 1;
  t.mock.timers.tick(turn);
  await settle();
  assert.equal(liveAt, null, 'first come, first served: the ended caller might still have woken');
  t.mock.timers.tick(LATE_WAKE_GRACE_MS + 1);
  await settle();
  assert.equal(liveAt, turn + LATE_WAKE_GRACE_MS + 1, 'once it slept past its turn by the grace, it is passed over');
  assert.equal(endedWent, false);
  // The line is not left with the ended caller in it: the next caller waits only for the window.
  let nextAt: number | null = null;
  void limiter.acquire().then(() => (nextAt = Date.now()));
  t.mock.timers.tick(1_000 + RATE_LIMIT_MARGIN_MS + 1);
  await settle();
  assert.equal(nextAt, turn + LATE_WAKE_GRACE_MS + 1 + 1_000 + RATE_LIMIT_MARGIN_MS + 1);
});

test('the line: a caller late past the grace is passed over, and takes its place back when it wakes', () => {
  const line = new WaitingLine();
  const first = line.join(0);
  first.wakeAt = 100;
  const second = line.join(0);
  second.wakeAt = 100;
  assert.deepEqual(line.ahead(second, 100 + LATE_WAKE_GRACE_MS), [first], 'within the grace, still ahead');
  assert.deepEqual(line.ahead(second, 100 + LATE_WAKE_GRACE_MS + 1), [], 'past it, counted gone');
  // It was only late (a busy event loop): it wakes, finds itself first again, and sleeps on.
  assert.deepEqual(line.ahead(first, 100 + LATE_WAKE_GRACE_MS + 2), []);
  first.wakeAt = 1_000;
  assert.deepEqual(line.ahead(second, 100 + LATE_WAKE_GRACE_MS + 3), [first]);
  line.leave(first);
  assert.deepEqual(line.ahead(second, 1_000), []);
  assert.equal(WaitingLine.nextLook([{ arrival: 0, wakeAt: 50 }], 10), 51, 'a wake-up to come: just after it');
  assert.equal(WaitingLine.nextLook([{ arrival: 0, wakeAt: 50 }], 60), 60 + DUE_POLL_MS, 'one due: soon (it goes any moment)');
});

test('perSecond must be a whole number of at least 1', () => {
  for (const perSecond of [0, -1, 1.5, Number.NaN, Infinity])
    assert.throws(
      () => inProcessRateLimiter({ perSecond }),
      (error: Error) => error.name === 'ConfigError' && /perSecond/.test(error.message),
    );
});
