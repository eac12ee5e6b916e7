/**
 * Free-form Link event payloads are small flat records (at most 50 keys). The
 * key count is checked before any entry is validated, so a huge object is
 * refused without walking it: found by the message-fuzz bench, where a
 * 100,000-key payload held the host page's main thread for ~200 ms.
 * Tested by counting reads of the entries, never by timing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EventMessageSchema } from '../../src/protocol.js';

/** An object of `keys` number entries whose values count how often they are read. */
function countingPayload(keys: number) {
  let reads = 0;
  const payload: Record<string, number> = {};
  for (let i = 0; i < keys; i++) {
    Object.defineProperty(payload, `k${i}`, {
      enumerable: true,
      get: () => {
        reads++;
        return i;
      },
    });
  }
  return { payload, reads: () => reads };
}

const openEvent = (payload: unknown) => ({ type: 'payroll-link:event', name: 'open', payload });

describe('free-form event payloads', () => {
  test('an object with too many keys is refused without reading any entry', () => {
    const { payload, reads } = countingPayload(5_000);
    const result = EventMessageSchema.safeParse(openEvent(payload));
    assert.equal(result.success, false);
    // The union of event messages reports one issue for the whole message; what matters is that no entry was read.
    assert.deepEqual(result.error?.issues.map((issue) => issue.code), ['invalid_union']);
    assert.equal(reads(), 0);
  });

  test('50 keys are accepted, 51 refused', () => {
    const entries = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    assert.equal(EventMessageSchema.safeParse(openEvent(entries(50))).success, true);
    assert.equal(EventMessageSchema.safeParse(openEvent(entries(51))).success, false);
  });

  test('entries are still validated: nested objects and non-objects are refused', () => {
    assert.equal(EventMessageSchema.safeParse(openEvent({ a: { nested: true } })).success, false);
    assert.equal(EventMessageSchema.safeParse(openEvent([1, 2])).success, false);
    assert.equal(EventMessageSchema.safeParse(openEvent(null)).success, false);
    assert.equal(EventMessageSchema.safeParse(openEvent('x')).success, false);
    assert.deepEqual(EventMessageSchema.parse(openEvent({ step: 'intro', n: 1, ok: true, none: null })).payload, {
      step: 'intro',
      n: 1,
      ok: true,
      none: null,
    });
  });
});
