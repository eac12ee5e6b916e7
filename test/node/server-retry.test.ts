/**
 * The retry pieces on their own: backoff, Retry-After parsing, untilAborted. The retry policy itself (what is
 * retried, how often, within which bounds) is the client's: test/node/client-faults.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { backoffDelay, parseRetryAfter } from '../../src/shared/backoff.js';
import { untilAborted } from '../../src/shared/until-aborted.js';

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
      assert.equal(
        backoffDelay(attempt, 100, 1_000, () => 0),
        low,
        `attempt ${attempt}, low`,
      );
      assert.equal(
        backoffDelay(attempt, 100, 1_000, () => 1),
        high,
        `attempt ${attempt}, high`,
      );
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
