/**
 * Free-form parts of Link event messages are small: a payload (every event's, checked by the envelope
 * `LinkEventEnvelopeSchema` before any schema of a name reads it) holds at most 100 values and 3 levels; a
 * success's `params` is a flat record of at most 50 keys. Sizes are checked before any entry is read, so a
 * huge object is refused without walking it: found by the message-fuzz bench, where a 100,000-key payload held
 * the host page's main thread for ~200 ms. Tested by counting reads of the entries, never by timing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EventMessageSchema, LinkEventEnvelopeSchema, SuccessDetailSchema } from '../../src/protocol.js';

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
const entries = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

describe('free-form event payloads', () => {
  test('a payload with too many keys is refused by the envelope without reading any entry', () => {
    const { payload, reads } = countingPayload(5_000);
    assert.equal(LinkEventEnvelopeSchema.safeParse(openEvent(payload)).success, false);
    assert.equal(reads(), 0);
  });

  test('100 values are accepted, 101 refused, nested ones counted too', () => {
    assert.equal(LinkEventEnvelopeSchema.safeParse(openEvent(entries(100))).success, true);
    assert.equal(LinkEventEnvelopeSchema.safeParse(openEvent(entries(101))).success, false);
    assert.equal(LinkEventEnvelopeSchema.safeParse(openEvent({ ...entries(99), nested: { a: 1 } })).success, false);
  });

  test('entries are still validated: too deep, not JSON-like, not an object, a name outside the pattern', () => {
    const refused = [
      openEvent({ a: { b: { c: { d: 1 } } } }),
      openEvent({ at: new Date() }),
      openEvent({ n: Number.NaN }),
      openEvent({ gone: undefined }),
      openEvent({ long: 'x'.repeat(2_001) }),
      openEvent([1, 2]),
      openEvent(null),
      openEvent('x'),
      { type: 'payroll-link:event', name: 'Teleport!', payload: {} },
      { type: 'payroll-link:event', name: 'x'.repeat(65), payload: {} },
    ];
    for (const message of refused) assert.equal(LinkEventEnvelopeSchema.safeParse(message).success, false, JSON.stringify(message));
    const accepted = { type: 'payroll-link:event', name: 'teleport', payload: { a: { b: [1, 'two', null, true] } } };
    assert.deepEqual(LinkEventEnvelopeSchema.parse(accepted), accepted);
  });

  test("a typed payload keeps the fields the contract does not name (a newer Link page's)", () => {
    const linkTokenId = '0e21083b-5c3d-4b7a-9f1e-2a3b4c5d6e7f';
    assert.deepEqual(EventMessageSchema.parse(openEvent({ linkTokenId, step: 'intro' })).payload, { linkTokenId, step: 'intro' });
  });

  test("a success's params: 50 keys accepted, 51 refused without reading any entry", () => {
    const ids = {
      accountId: '3f0c2a3e-5d6b-4c8d-9e0f-1a2b3c4d5e6f',
      platformId: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      jobId: '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
    };
    const success = (params: unknown) => ({ ...ids, linkTokenId: ids.jobId, job: 'direct_deposit_switch', params });
    assert.equal(SuccessDetailSchema.safeParse(success(entries(50))).success, true);
    const { payload, reads } = countingPayload(51);
    assert.equal(SuccessDetailSchema.safeParse(success(payload)).success, false);
    assert.equal(reads(), 0);
  });

  test("a success's params: entries are still validated (flat primitives, keys of at most 64 characters)", () => {
    const ids = {
      accountId: '3f0c2a3e-5d6b-4c8d-9e0f-1a2b3c4d5e6f',
      platformId: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      jobId: '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
    };
    const success = (params: unknown) => ({ ...ids, linkTokenId: ids.jobId, job: 'direct_deposit_switch', params });
    const refused = [
      { a: { b: 1 } },
      { a: [1] },
      { at: new Date() },
      { n: Number.NaN },
      { gone: undefined },
      { long: 'x'.repeat(2_001) },
      { ['k'.repeat(65)]: 1 },
      [1, 2],
      new Map(),
      null,
      'x',
    ];
    for (const params of refused) assert.equal(SuccessDetailSchema.safeParse(success(params)).success, false, String(params));
    const accepted = [
      { a: 'two', b: 2, c: true, d: null, ['k'.repeat(64)]: 'x'.repeat(2_000) },
      {},
      Object.assign(Object.create(null), { a: 1 }),
    ];
    for (const params of accepted) assert.deepEqual({ ...SuccessDetailSchema.parse(success(params)).params }, { ...params });
  });
});
