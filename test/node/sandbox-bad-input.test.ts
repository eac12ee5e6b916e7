/**
 * A battery of bad requests against every kind of endpoint: malformed JSON,
 * wrong types, unknown fields, oversized bodies, unknown paths, wrong methods,
 * odd URLs. Each gets a clear error body; afterwards the server still answers
 * and its state is exactly what it was.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { api, assertError, connectAccount, linkApi, openSession, rawRequest, startTestSandbox } from './sandbox-test-client.js';

const MAX_BODY = 4096;

/** Everything a client can observe of the state, to compare before and after. */
const snapshot = async (sandbox: Sandbox) => ({
  accounts: (await api(sandbox, 'GET', '/v1/accounts?limit=100')).body,
  jobs: (await api(sandbox, 'GET', '/v1/jobs?limit=100')).body,
  tokens: sandbox.store.linkTokens().map((token) => ({ id: token.id, used: token.used })),
  events: sandbox.store.events.map((event) => event.event_id),
});

describe('sandbox: bad input battery', () => {
  let sandbox: Sandbox;
  let accountId: string;
  let session: string;
  let before_: Awaited<ReturnType<typeof snapshot>>;
  before(async () => {
    sandbox = await startTestSandbox({ maxBodyBytes: MAX_BODY });
    ({ accountId } = await connectAccount(sandbox));
    ({ session } = await openSession(sandbox));
    before_ = await snapshot(sandbox);
  });
  after(() => sandbox.close());

  it('answers malformed JSON with INVALID_REQUEST_BODY on every JSON endpoint', async () => {
    const bodies = ['{', '{"org_name": }', 'not json', '[1,2', '\u0000', '{"a":1}}'];
    for (const raw of bodies) {
      assertError(
        await api(sandbox, 'POST', '/link_tokens', { raw, headers: { 'content-type': 'application/json' } }),
        400,
        'INVALID_REQUEST_BODY',
      );
      assertError(await api(sandbox, 'POST', `/v1/accounts/${accountId}/jobs`, { raw }), 400, 'INVALID_REQUEST_BODY');
      assertError(await api(sandbox, 'POST', `/v1/accounts/${accountId}/disconnect`, { raw }), 400, 'INVALID_REQUEST_BODY');
      const link = await fetch(`${sandbox.url}/link/api/login`, {
        method: 'POST',
        headers: { 'x-link-session': session, 'content-type': 'application/json' },
        body: raw,
      });
      assert.equal(link.status, 400);
      assert.equal((await link.json()).error.error_codes[0].error_code, 'INVALID_REQUEST_BODY');
    }
  });

  it('refuses JSON that is not an object, an empty body, and invalid UTF-8', async () => {
    for (const raw of ['[]', '"text"', '42', 'null', 'true']) {
      assertError(await api(sandbox, 'POST', '/link_tokens', { raw }), 400, 'INVALID_REQUEST_BODY');
    }
    assertError(await api(sandbox, 'POST', '/link_tokens', { raw: '' }), 400, 'INVALID_REQUEST_BODY');
    const invalidUtf8 = await rawRequest(sandbox, {
      method: 'POST',
      path: '/link_tokens',
      headers: { 'x-api-secret': sandbox.secret, 'service-version': '2025-07-08' },
      body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    assertError(invalidUtf8, 400, 'INVALID_REQUEST_BODY');
  });

  it('refuses wrong types and unknown fields with INVALID_PARAMS, naming the field', async () => {
    const wrong = await api(sandbox, 'POST', '/link_tokens', {
      body: { org_name: { nested: true }, features: [1], solution: null, surprise: 'x' },
    });
    assertError(wrong, 400, 'INVALID_PARAMS');
    const messages = wrong.body.error.error_codes.map((entry: { message: string }) => entry.message).join('\n');
    assert.match(messages, /org_name/);
    assert.match(messages, /features\[0\]/);
    assert.match(messages, /solution/);
    assert.match(messages, /unknown field\(s\): surprise/);
    assertError(
      await linkApi(sandbox, 'POST', '/link/api/login', session, { platform_id: 5, username: [], password: {} }),
      400,
      'INVALID_PARAMS',
    );
    assertError(await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: 'x', extra: true }), 400, 'INVALID_PARAMS');
    assertError(await api(sandbox, 'GET', '/v1/accounts?connected=1&unknown=2'), 400, 'INVALID_PARAMS');
  });

  it('caps bodies: one byte over the limit is 413, on API and Link routes alike', async () => {
    const big = JSON.stringify({ org_name: 'x'.repeat(MAX_BODY), features: ['direct_deposit_switch'], solution: 's' });
    assertError(await api(sandbox, 'POST', '/link_tokens', { raw: big }), 413, 'PAYLOAD_TOO_LARGE');
    assertError(await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: 'x'.repeat(MAX_BODY) }), 413, 'PAYLOAD_TOO_LARGE');
    // Far over the cap (1 MB): still a clean 413, not a dropped connection or a memory spike.
    const huge = await rawRequest(sandbox, {
      method: 'POST',
      path: '/link_tokens',
      headers: { 'x-api-secret': sandbox.secret, 'service-version': '2025-07-08' },
      body: Buffer.alloc(1_000_000, 0x61),
    });
    assertError(huge, 413, 'PAYLOAD_TOO_LARGE');
    // Exactly at the cap is fine (it fails later, on its content).
    const atCap = `{"org_name":"${'y'.repeat(MAX_BODY - 15)}"}`;
    assert.equal(Buffer.byteLength(atCap), MAX_BODY);
    assertError(await api(sandbox, 'POST', '/link_tokens', { raw: atCap }), 400, 'MISSING_FIELDS');
  });

  it('answers unknown paths with 404 and the error body', async () => {
    for (const path of ['/', '/v2/accounts', '/v1/accounts/x/y/z', '/link_tokens/extra', '/v1/end_users/u/verification_reports/credit']) {
      assertError(await api(sandbox, 'GET', path), 404, 'ROUTE_NOT_FOUND');
    }
    assertError(await linkApi(sandbox, 'GET', '/link/api/nothing', session), 404, 'ROUTE_NOT_FOUND');
  });

  it('answers wrong methods with 405, the error body and Allow', async () => {
    const cases: [string, string, string][] = [
      ['GET', '/link_tokens', 'POST'],
      ['DELETE', '/v1/accounts', 'GET'],
      ['PUT', `/v1/accounts/${accountId}`, 'GET'],
      ['GET', `/v1/accounts/${accountId}/disconnect`, 'POST'],
      ['PATCH', '/employers', 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await api(sandbox, method, path);
      assertError(response, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(response.headers.get('allow'), allow);
    }
  });

  it('handles odd URLs: bad percent-encoding, traversal, very long paths', async () => {
    assertError(await api(sandbox, 'GET', '/v1/accounts/%E0%A4%A'), 404, 'ROUTE_NOT_FOUND');
    assertError(await api(sandbox, 'GET', '/v1/accounts/..%2F..%2Fetc%2Fpasswd'), 400, 'INVALID_PARAMS');
    assertError(await api(sandbox, 'GET', `/v1/jobs/${'a'.repeat(5000)}`), 400, 'INVALID_PARAMS');
    assertError(await api(sandbox, 'GET', `/v1/end_users/${'u'.repeat(300)}/verification_reports/voe`), 400, 'INVALID_PARAMS');
    assertError(await api(sandbox, 'GET', `/employers?cursor=${'c'.repeat(2000)}`), 400, 'INVALID_PARAMS');
  });

  it('treats ?__proto__= like any unknown query parameter', async () => {
    assertError(await api(sandbox, 'GET', '/v1/accounts?__proto__=1'), 400, 'INVALID_PARAMS');
  });

  it('survives a garbage request line and a client that hangs up mid-body', async () => {
    await new Promise<void>((resolve, reject) => {
      const url = new URL(sandbox.url);
      const socket = connect(Number(url.port), url.hostname, () => socket.end('BLAH /\r\n\r\n'));
      socket.on('data', () => {});
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await new Promise<void>((resolve, reject) => {
      const url = new URL(sandbox.url);
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write('POST /link_tokens HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"org_');
        socket.destroy();
        resolve();
      });
      socket.on('error', reject);
    });
    assert.equal((await api(sandbox, 'GET', '/v1/platforms')).status, 200);
  });

  it('still answers afterwards, with the state unchanged', async () => {
    assert.equal((await api(sandbox, 'GET', '/v1/platforms')).status, 200);
    assert.deepEqual(await snapshot(sandbox), before_);
    // And it still works end to end.
    const token = await api(sandbox, 'POST', '/link_tokens', {
      body: { org_name: 'After', features: ['direct_deposit_switch'], solution: 's' },
    });
    assert.equal(token.status, 200);
  });
});
