/**
 * The transport's one retry decision (shouldRetry in src/server/client/transport.ts), on its own: how many times a
 * call is sent for each way an attempt can fail, by method and by the call's `retryAfterPossibleSend`. Against a
 * fake fetch, no sandbox: the client's whole behaviour under faults is test/node/client-faults.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTransport, type TransportCall } from '../../src/server/client/transport.js';

const quiet = { info() {}, warn() {}, error() {} };

/** Sends one call whose every attempt fails as `failure` says; resolves with how many attempts reached fetch. */
async function sendsFor(failure: number | 'refused' | 'reset', call: Partial<TransportCall>): Promise<number> {
  let sends = 0;
  const transport = createTransport({
    apiSecret: 'secret',
    baseUrl: 'http://127.0.0.1:9',
    version: '2025-07-08',
    log: quiet,
    limiter: null,
    timeoutMs: 1_000,
    maxRetries: 2,
    onRequest: undefined,
    onResponse: undefined,
    backoff: { baseMs: 1, maxMs: 1 },
    longRetryAfter: 'wait',
    fetch: async () => {
      sends++;
      if (failure === 'refused') throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
      if (failure === 'reset') throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      return new Response(null, { status: failure });
    },
  });
  await assert.rejects(transport.send({ method: 'GET', path: '/v1/x', ...call }));
  return sends;
}

describe('the retry decision', () => {
  const cases: [string, number | 'refused' | 'reset', get: number, post: number, postAllowed: number][] = [
    ['429, 502, 503: the service did nothing', 503, 3, 3, 3],
    ['a connection never made', 'refused', 3, 3, 3],
    ['500, 504: the service may have acted', 500, 3, 1, 3],
    ['a connection lost', 'reset', 3, 1, 3],
    ['any other status stands', 404, 1, 1, 1],
  ];
  for (const [what, failure, get, post, postAllowed] of cases) {
    test(`${what}: GET sent ${get} times, POST ${post}, POST with retryAfterPossibleSend ${postAllowed}`, async () => {
      assert.equal(await sendsFor(failure, { method: 'GET' }), get);
      assert.equal(await sendsFor(failure, { method: 'POST', body: {} }), post);
      assert.equal(await sendsFor(failure, { method: 'POST', body: {}, retryAfterPossibleSend: true }), postAllowed);
      assert.equal(
        await sendsFor(failure, { method: 'GET', retryAfterPossibleSend: false }),
        failure === 'refused' || failure === 503 ? 3 : 1,
      );
    });
  }
});
