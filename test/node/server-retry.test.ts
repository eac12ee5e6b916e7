/** The retry module on its own: backoff, Retry-After parsing, and the bounds of withRetries. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { backoffDelay, parseRetryAfter } from '../../src/shared/backoff.js';
import { untilAborted, withRetries, type AttemptResult, type RetryPolicy } from '../../src/server/link-token/retry.js';

const policy: RetryPolicy = { maxAttempts: 3, baseDelayMs: 4, maxDelayMs: 16, attemptTimeoutMs: 200, totalTimeoutMs: 2_000 };

describe('backoffDelay', () => {
  test('doubles per retry, with half of each step random, and stops at the ceiling', () => {
    // random() = 0 gives the fixed half, random() = 1 the whole step.
    const table: [number, number, number][] = [
      [1, 50, 100],
      [2, 100, 200],
      [3, 200, 400],
      [6, 500, 1_000], // 100 · 2^5 = 3200, capped at 1000
    ];
    for (const [attempt, low, high] of table) {
      assert.equal(backoffDelay(attempt, 100, 1_000, () => 0), low, `attempt ${attempt}, low`);
      assert.equal(backoffDelay(attempt, 100, 1_000, () => 1), high, `attempt ${attempt}, high`);
    }
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const table: [string | null, number | null][] = [
    ['3', 3_000],
    [' 0 ', 0],
    ['Thu, 01 Jan 2026 00:00:05 GMT', 5_000],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0], // in the past: no wait
    ['-1', null],
    ['1.5', null],
    ['5.5', null], // a "date" to V8's lenient parser, not to HTTP
    ['soon', null],
    ['', null],
    [null, null],
  ];
  for (const [header, expected] of table) {
    test(`${JSON.stringify(header)} → ${expected}`, () => assert.equal(parseRetryAfter(header, now), expected));
  }
});

describe('withRetries', () => {
  test('stops at the first try that needs no retry', async () => {
    let calls = 0;
    const outcome = await withRetries(async (_signal, n) => {
      calls++;
      return n < 2 ? { retry: true, value: `try ${n}`, retryAfterMs: null } : { retry: false, value: `try ${n}` };
    }, policy);
    assert.deepEqual(outcome, { exhausted: false, value: 'try 2', attempts: 2 });
    assert.equal(calls, 2);
  });

  test('gives up after maxAttempts and suggests a wait', async () => {
    const waits: number[] = [];
    const outcome = await withRetries(
      async (_signal, n) => ({ retry: true, value: n, retryAfterMs: null }),
      policy,
      ({ delayMs }) => waits.push(delayMs),
      () => 0,
    );
    assert.deepEqual(outcome, { exhausted: true, value: 3, attempts: 3, retryAfterMs: 8 });
    assert.deepEqual(waits, [2, 4]);
  });

  test('a Retry-After replaces the backoff', async () => {
    const seen: { delayMs: number; fromRetryAfter: boolean }[] = [];
    await withRetries(
      async (_signal, n) => (n === 1 ? { retry: true, value: n, retryAfterMs: 30 } : { retry: false, value: n }),
      policy,
      ({ delayMs, fromRetryAfter }) => seen.push({ delayMs, fromRetryAfter }),
    );
    assert.deepEqual(seen, [{ delayMs: 30, fromRetryAfter: true }]);
  });

  test('a wait that would pass the deadline ends it at once', async () => {
    let calls = 0;
    const outcome = await withRetries(async () => {
      calls++;
      return { retry: true, value: 'busy', retryAfterMs: 60_000 };
    }, policy);
    assert.equal(calls, 1);
    assert.deepEqual(outcome, { exhausted: true, value: 'busy', attempts: 1, retryAfterMs: 60_000 });
  });

  test('each try gets a signal that aborts at the per-try timeout', async () => {
    const reasons: string[] = [];
    const outcome = await withRetries(
      (signal) =>
        new Promise<AttemptResult<string>>((resolve) => {
          signal.addEventListener('abort', () => {
            reasons.push((signal.reason as DOMException).name);
            resolve({ retry: true, value: 'timeout', retryAfterMs: null });
          });
        }),
      { ...policy, attemptTimeoutMs: 20 },
    );
    assert.equal(outcome.exhausted, true);
    assert.deepEqual(reasons, ['TimeoutError', 'TimeoutError', 'TimeoutError']);
  });
});

describe('untilAborted', () => {
  test('rejects with the reason when the signal aborts first, even if the work never settles', async () => {
    const controller = new AbortController();
    const pending = untilAborted(new Promise(() => {}), controller.signal);
    controller.abort(new Error('gone'));
    await assert.rejects(pending, /gone/);
  });

  test('passes the result through otherwise', async () => {
    assert.equal(await untilAborted(Promise.resolve(7), new AbortController().signal), 7);
  });
});
