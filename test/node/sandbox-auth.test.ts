/**
 * Sandbox API rules: x-api-secret (401), Service-Version (400; echoed), the
 * request id header, the error body shape and the envelopes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { startSandbox } from '../../sandbox/start-sandbox.js';
import { KNOWN_VERSIONS } from '../../sandbox/http/versions.js';
import { api, assertError, linkTokenBody, startTestSandbox } from './sandbox-test-client.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('sandbox: authentication and versioning', () => {
  let sandbox: Sandbox;
  const lines: string[] = [];
  before(async () => {
    sandbox = await startTestSandbox({ secret: 'sandbox_auth_test_secret', log: (line) => lines.push(line) });
  });
  after(() => sandbox.close());

  it('answers a request with the right secret and a known version', async () => {
    const response = await api(sandbox, 'GET', '/v1/platforms');
    assert.equal(response.status, 200);
    assert.equal(sandbox.secret, 'sandbox_auth_test_secret');
  });

  it('refuses a missing secret with 401 MISSING_API_SECRET', async () => {
    assertError(await api(sandbox, 'GET', '/v1/platforms', { secret: null }), 401, 'MISSING_API_SECRET');
  });

  it('refuses a wrong secret with 401 INVALID_API_SECRET, without echoing it', async () => {
    const response = await api(sandbox, 'GET', '/v1/platforms', { secret: 'sandbox_not_the_secret' });
    assertError(response, 401, 'INVALID_API_SECRET');
    assert.ok(!response.text.includes('sandbox_not_the_secret'));
    assert.equal(response.body.error.type, 'AUTHENTICATION_ERROR');
  });

  it('refuses secrets of the other modes with 401 that names the mode', async () => {
    const production = await api(sandbox, 'GET', '/v1/platforms', { secret: 'prod_0123456789abcdef' });
    assertError(production, 401, 'INVALID_API_SECRET');
    assert.match(production.body.error.message, /production mode/);
    const development = await api(sandbox, 'GET', '/v1/platforms', { secret: 'dev_0123456789abcdef' });
    assertError(development, 401, 'INVALID_API_SECRET');
    assert.match(development.body.error.message, /development mode/);
  });

  it('checks the secret on every endpoint, writes included', async () => {
    assertError(await api(sandbox, 'POST', '/link_tokens', { secret: null, body: linkTokenBody() }), 401, 'MISSING_API_SECRET');
    assertError(await api(sandbox, 'GET', '/v1/accounts', { secret: 'x' }), 401, 'INVALID_API_SECRET');
    assert.equal(sandbox.store.linkTokens().length, 0);
  });

  it('refuses a missing Service-Version with 400 and the error body', async () => {
    const response = await api(sandbox, 'GET', '/v1/platforms', { version: null });
    assertError(response, 400, 'MISSING_SERVICE_VERSION');
    // The answer still names the version that processed it: the latest.
    assert.equal(response.headers.get('service-version'), KNOWN_VERSIONS.at(-1));
  });

  it('refuses an unknown or malformed Service-Version with 400', async () => {
    assertError(await api(sandbox, 'GET', '/v1/platforms', { version: '2020-01-01' }), 400, 'INVALID_SERVICE_VERSION');
    assertError(await api(sandbox, 'GET', '/v1/platforms', { version: 'latest' }), 400, 'INVALID_SERVICE_VERSION');
  });

  it('echoes each known version in the Service-Version response header', async () => {
    for (const version of KNOWN_VERSIONS) {
      const response = await api(sandbox, 'GET', '/v1/platforms', { version });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('service-version'), version);
    }
  });

  it('marks answers to deprecated versions with a Deprecation header', async () => {
    assert.equal((await api(sandbox, 'GET', '/v1/platforms', { version: '2021-04-29' })).headers.get('deprecation'), 'true');
    assert.equal((await api(sandbox, 'GET', '/v1/platforms', { version: '2025-07-08' })).headers.get('deprecation'), null);
  });

  it('gives every response, errors included, a fresh UUID x-service-request-id', async () => {
    const responses = [
      await api(sandbox, 'GET', '/v1/platforms'),
      await api(sandbox, 'GET', '/v1/platforms'),
      await api(sandbox, 'GET', '/v1/platforms', { secret: null }),
      await api(sandbox, 'GET', '/nowhere'),
    ];
    const ids = responses.map((response) => response.headers.get('x-service-request-id'));
    for (const id of ids) assert.match(id ?? '', UUID);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('uses the single-object and collection envelopes', async () => {
    const collection = await api(sandbox, 'GET', '/v1/platforms');
    assert.deepEqual(Object.keys(collection.body).sort(), ['data', 'meta']);
    assert.ok(Array.isArray(collection.body.data));
    assert.equal(collection.body.meta.count, collection.body.data.length);
    assert.ok('next_cursor' in collection.body.meta);
    const single = await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody() });
    assert.deepEqual(Object.keys(single.body), ['data']);
    assert.equal(typeof single.body.data, 'object');
    assert.ok(!Array.isArray(single.body.data));
  });

  it('never writes the secret or a Link token to its log', async () => {
    const token = await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody() });
    assert.ok(lines.length > 0);
    const log = lines.join('\n');
    assert.ok(!log.includes(sandbox.secret));
    assert.ok(!log.includes(token.body.data.token));
  });
});

describe('sandbox: secret options', () => {
  it('generates a random sandbox secret per instance by default', async () => {
    const [first, second] = await Promise.all([startTestSandbox(), startTestSandbox()]);
    try {
      assert.match(first.secret, /^sandbox_[0-9a-f]{48}$/);
      assert.notEqual(first.secret, second.secret);
      assertError(await api(first, 'GET', '/v1/platforms', { secret: second.secret }), 401, 'INVALID_API_SECRET');
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('refuses to start with a secret of another mode', async () => {
    await assert.rejects(startSandbox({ port: 0, secret: 'prod_0123456789abcdef' }), /sandbox secret/);
  });
});
