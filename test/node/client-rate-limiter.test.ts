/** inProcessRateLimiter on a mocked clock: the window with its margin, first come first served, and abort. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inProcessRateLimiter, RATE_LIMIT_MARGIN_MS } from '../../src/server/client/rate-limiter.js';

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
