/**
 * The Link API's POST routes take `Content-Type: application/json` only, so a
 * cross-site form post (urlencoded, multipart, or text/plain carrying JSON)
 * cannot drive them: it gets 415 and changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { assertError, createLinkToken, openSession, platformOfType, rawRequest, startTestSandbox } from './sandbox-test-client.js';

/** What a page on another site can post without asking the server first. */
const FORM_TYPES = ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'];

describe('sandbox: Link API POSTs take JSON only', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(() => sandbox.close());

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    rawRequest(sandbox, { method: 'POST', path, headers, body: JSON.stringify(body) });

  it('refuses a session request that is not labelled JSON with 415, and leaves the token unspent', async () => {
    const { token } = await createLinkToken(sandbox);
    for (const type of FORM_TYPES) {
      assertError(await post('/link/api/sessions', { token }, { 'content-type': type }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    assertError(await post('/link/api/sessions', { token }, {}), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assert.equal(sandbox.store.linkTokens().find((record) => record.token === token)?.used, false);
    const accepted = await post('/link/api/sessions', { token }, { 'content-type': 'Application/JSON; charset="UTF-8"' });
    assert.equal(accepted.status, 201, accepted.text);
  });

  it('refuses login and run requests that are not labelled JSON, before anything happens', async () => {
    const { session } = await openSession(sandbox);
    const login = { platform_id: platformOfType(sandbox, 'payroll').id, username: 'user_good', password: 'pass_good' };
    const accounts = sandbox.store.accounts().length;
    assertError(
      await post('/link/api/login', login, { 'x-link-session': session, 'content-type': 'text/plain' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    assert.equal(sandbox.store.accounts().length, accounts, 'no account was created');

    const connected = await post('/link/api/login', login, {
      'x-link-session': session,
      'content-type': 'application/json; charset=utf-8',
    });
    assert.equal(connected.status, 200, connected.text);
    const runPath = `/link/api/jobs/${connected.body.data.job_id}/run`;
    const run = { allocation: { type: 'remainder' } };
    assertError(
      await post(runPath, run, { 'x-link-session': session, 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    assertError(
      await post(runPath, run, { 'x-link-session': session, 'content-type': 'application/json; charset=latin1' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    assert.equal(sandbox.store.job(connected.body.data.job_id)?.started, false, 'the job did not start');
    assert.equal((await post(runPath, run, { 'x-link-session': session, 'content-type': 'application/json' })).status, 202);
  });
});
