import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backoffDelay, parseRetryAfter } from '../../src/shared/backoff.js';
import { isExpired, isStale, toSessionToken } from '../../src/core/fetch-link-token.js';

test('backoff doubles per retry and jitters within the upper half', () => {
  assert.equal(
    backoffDelay(1, 400, undefined, () => 0),
    200,
  );
  assert.equal(
    backoffDelay(1, 400, undefined, () => 1),
    400,
  );
  assert.equal(
    backoffDelay(3, 400, undefined, () => 0),
    800,
  );
  assert.equal(
    backoffDelay(3, 400, undefined, () => 1),
    1600,
  );
});

test('Retry-After is read as seconds or an HTTP date, and ignored when unreadable', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  assert.equal(parseRetryAfter('2', now), 2000);
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 12:00:05 GMT', now), 5000);
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter(null, now), null);
  assert.equal(parseRetryAfter('soon', now), null);
  assert.equal(parseRetryAfter('-3', now), null);
});

test('a token kept for later goes stale 30 s before expiry, or at half-life when it is short-lived', () => {
  const id = '3f0c2a3e-5d6b-4c8d-9e0f-1a2b3c4d5e6f';
  const hour = toSessionToken({ id, token: 't', expires: new Date(Date.now() + 3_600_000).toISOString(), mode: 'sandbox' });
  assert.equal(isStale(hour), false);
  assert.equal(isStale(hour, hour.expires! - 31_000), false);
  assert.equal(isStale(hour, hour.expires! - 29_000), true);
  const short = toSessionToken({ id, token: 't', expires: new Date(Date.now() + 10_000).toISOString(), mode: 'sandbox' });
  assert.equal(isStale(short, short.receivedAt + 4_000), false);
  assert.equal(isStale(short, short.receivedAt + 6_000), true);
  assert.equal(isExpired(short, short.expires! - 1), false);
  assert.equal(isExpired(short, short.expires!), true);
  const bare = toSessionToken('opaque');
  assert.equal(isStale(bare), false);
  assert.equal(isExpired(bare), false);
  // A bare string says nothing of its expiry: kept for later, it is trusted for five minutes.
  assert.equal(isStale(bare, bare.receivedAt + 4 * 60_000), false);
  assert.equal(isStale(bare, bare.receivedAt + 5 * 60_000), true);
  assert.throws(() => toSessionToken({ data: {} }), /did not give a Link token/);
  assert.throws(() => toSessionToken(''), /did not give a Link token/);
});
