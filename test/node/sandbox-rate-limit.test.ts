/** Sandbox rate limit: N requests per second per secret, then 429 with Retry-After. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../sandbox/http/errors.js';
import { RateLimiter } from '../../sandbox/http/rate-limit.js';
import { api, assertError, startTestSandbox } from './sandbox-test-client.js';

/** A clock that does not move: the window of the rate limit never slides during a test. */
const stoppedClock = () => new Date('2025-07-08T12:00:00Z');

describe('sandbox: rate limit', () => {
  it('answers 429 with Retry-After and the error body past the configured limit', async () => {
    // A stopped clock: however slowly a loaded machine serves them, all requests fall within one second.
    const sandbox = await startTestSandbox({ rateLimitPerSecond: 3, now: stoppedClock });
    try {
      const responses = await Promise.all(Array.from({ length: 5 }, () => api(sandbox, 'GET', '/v1/platforms')));
      const statuses = responses.map((response) => response.status).sort();
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
      const limited = responses.find((response) => response.status === 429)!;
      assertError(limited, 429, 'RATE_LIMIT_EXCEEDED');
      assert.match(limited.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      assert.ok(limited.headers.get('x-service-request-id'));
    } finally {
      await sandbox.close();
    }
  });

  it('defaults to 10 requests per second, as the spec says for sandbox mode', async () => {
    const sandbox = await startTestSandbox({ rateLimitPerSecond: undefined, now: stoppedClock });
    try {
      const responses = await Promise.all(Array.from({ length: 12 }, () => api(sandbox, 'GET', '/v1/platforms')));
      assert.equal(responses.filter((response) => response.status === 200).length, 10);
      assert.equal(responses.filter((response) => response.status === 429).length, 2);
    } finally {
      await sandbox.close();
    }
  });

  it('does not count requests refused for a bad secret against the secret', async () => {
    const sandbox = await startTestSandbox({ rateLimitPerSecond: 2, now: stoppedClock });
    try {
      await Promise.all(Array.from({ length: 5 }, () => api(sandbox, 'GET', '/v1/platforms', { secret: 'sandbox_wrong_secret' })));
      const responses = await Promise.all([api(sandbox, 'GET', '/v1/platforms'), api(sandbox, 'GET', '/v1/platforms')]);
      assert.deepEqual(
        responses.map((response) => response.status),
        [200, 200],
      );
    } finally {
      await sandbox.close();
    }
  });

  it('slides: a second later the same key may send again (clock injected)', () => {
    let now = 10_000;
    const limiter = new RateLimiter(2, () => now);
    limiter.hit('a');
    limiter.hit('a');
    assert.throws(
      () => limiter.hit('a'),
      (error: unknown) => error instanceof ApiError && error.status === 429 && error.headers['retry-after'] === '1',
    );
    limiter.hit('b'); // another key has its own budget
    now += 999;
    assert.throws(() => limiter.hit('a'), ApiError);
    now += 2;
    limiter.hit('a');
  });

  it('turns off with 0', () => {
    const limiter = new RateLimiter(0);
    assert.doesNotThrow(() => {
      for (let index = 0; index < 100; index += 1) limiter.hit('a');
    });
  });
});
