/**
 * Reconnect through Link (#16): a Link token with `account_id` opens a session
 * pinned to that account's platform; only that account's credentials log in;
 * the same account comes back to `active` with the webhook of the sandbox's
 * version, and its on-demand updates work again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LinkPageSessionSchema } from '../../sandbox/api/link-api-schemas.js';
import type { Sandbox, SandboxOptions } from '../../sandbox/start-sandbox.js';
import {
  api,
  assertError,
  connectAccount,
  createLinkToken,
  linkApi,
  openSession,
  platformOfType,
  startTestSandbox,
  waitForLinkJob,
} from './sandbox-test-client.js';

/** Opens a reconnect session for `accountId`; returns the session id and what the page is told. */
const openReconnect = async (sandbox: Sandbox, accountId: string) => {
  const { session, linkTokenId } = await openSession(sandbox, { account_id: accountId, end_user_id: 'user-1', skip_intro_screen: true });
  return { session, linkTokenId };
};

const logIn = (sandbox: Sandbox, session: string, platformId: string, username: string, extra: Record<string, unknown> = {}) =>
  linkApi(sandbox, 'POST', '/link/api/login', session, { platform_id: platformId, username, password: 'pass_good', ...extra });

const eventsSince = (sandbox: Sandbox, count: number) => sandbox.store.events.slice(count).map((event) => event.event);

const withSandbox = (options: SandboxOptions) => {
  const holder: { sandbox?: Sandbox } = {};
  before(async () => {
    holder.sandbox = await startTestSandbox(options);
  });
  after(() => holder.sandbox?.close());
  return () => holder.sandbox!;
};

describe('sandbox: reconnect through Link', () => {
  const sandbox = withSandbox({});

  it('a token with account_id opens a session at that account’s platform and employer', async () => {
    const { accountId, platformId } = await connectAccount(sandbox(), { endUserId: 'user-1' });
    const token = await createLinkToken(sandbox(), { account_id: accountId });
    const session = LinkPageSessionSchema.parse(
      (await linkApi(sandbox(), 'POST', '/link/api/sessions', null, { token: token.token })).body.data,
    );
    assert.equal(session.account_id, accountId);
    assert.equal(session.platform_id, platformId);
    const plain = await createLinkToken(sandbox());
    assert.equal((await linkApi(sandbox(), 'POST', '/link/api/sessions', null, { token: plain.token })).body.data.account_id, null);
  });

  it('after a disconnect: the same account comes back active, with account.monitoring_status.updated and the token’s job', async () => {
    const { accountId, platformId } = await connectAccount(sandbox(), { endUserId: 'user-1' });
    assert.equal((await api(sandbox(), 'POST', `/v1/accounts/${accountId}/disconnect`)).status, 200);
    const accountsBefore = sandbox().store.accounts().length;
    const { session } = await openReconnect(sandbox(), accountId);
    const eventCount = sandbox().store.events.length;
    const login = await logIn(sandbox(), session, platformId, 'user_good');
    assert.equal(login.status, 200, login.text);
    assert.equal(login.body.data.account_id, accountId);
    assert.equal(sandbox().store.accounts().length, accountsBefore, 'no new account');
    const account = (await api(sandbox(), 'GET', `/v1/accounts/${accountId}`)).body.data;
    assert.equal(account.connected, true);
    assert.equal(account.monitoring_status, 'active');
    assert.deepEqual(eventsSince(sandbox(), eventCount), ['account.monitoring_status.updated']);
    const { payload } = sandbox().store.events.at(-1)!;
    assert.ok('previous_monitoring_status' in payload);
    assert.equal(payload.account_id, accountId);
    assert.equal(payload.previous_monitoring_status, 'disconnected');
    const jobId = login.body.data.job_id;
    const run = await linkApi(sandbox(), 'POST', `/link/api/jobs/${jobId}/run`, session, { allocation: { type: 'remainder' } });
    assert.equal(run.status, 202, run.text);
    assert.equal((await waitForLinkJob(sandbox(), session, jobId)).body.data.status, 'success');
  });

  it('after require_reauth: on-demand updates fail with ACCOUNT_REAUTH_REQUIRED until the reconnect, then work', async () => {
    const { accountId, platformId } = await connectAccount(sandbox(), { endUserId: 'user-1', username: 'user_mfa' });
    assert.equal((await api(sandbox(), 'POST', `/sandbox/accounts/${accountId}/require_reauth`)).status, 200);
    assertError(
      await api(sandbox(), 'POST', `/v1/accounts/${accountId}/jobs`, { body: { name: 'paystubs' } }),
      403,
      'ACCOUNT_REAUTH_REQUIRED',
    );
    const { session } = await openReconnect(sandbox(), accountId);
    const first = await logIn(sandbox(), session, platformId, 'user_mfa');
    assert.equal(first.body.data.status, 'mfa_required');
    const login = await logIn(sandbox(), session, platformId, 'user_mfa', { mfa_code: 'mfa_code' });
    assert.equal(login.body.data.account_id, accountId);
    assert.equal((await api(sandbox(), 'GET', `/v1/accounts/${accountId}`)).body.data.monitoring_status, 'active');
    assert.equal((await api(sandbox(), 'POST', `/v1/accounts/${accountId}/jobs`, { body: { name: 'paystubs' } })).status, 200);
  });

  it('refuses another account’s credentials (ACCOUNT_MISMATCH) and another platform, and changes nothing', async () => {
    const { accountId, platformId } = await connectAccount(sandbox(), { endUserId: 'user-1' });
    await api(sandbox(), 'POST', `/v1/accounts/${accountId}/disconnect`);
    const accountsBefore = sandbox().store.accounts().length;
    const eventCount = sandbox().store.events.length;
    const { session } = await openReconnect(sandbox(), accountId);
    assertError(await logIn(sandbox(), session, platformId, 'user_error'), 403, 'ACCOUNT_MISMATCH');
    const other = platformOfType(sandbox(), 'time_and_attendance');
    assertError(await logIn(sandbox(), session, other.id, 'user_good'), 400, 'INVALID_PARAMS');
    assertError(await logIn(sandbox(), session, platformId, 'user_good', { password: 'wrong' }), 401, 'INVALID_CREDENTIALS');
    assert.equal(sandbox().store.accounts().length, accountsBefore);
    assert.deepEqual(eventsSince(sandbox(), eventCount), []);
    assert.equal((await api(sandbox(), 'GET', `/v1/accounts/${accountId}`)).body.data.monitoring_status, 'disconnected');
  });
});

describe('sandbox: reconnect with webhook version 2021-07-28', () => {
  const sandbox = withSandbox({ webhookVersion: '2021-07-28' });

  it('sends the deprecated account.reconnected instead', async () => {
    const { accountId, platformId } = await connectAccount(sandbox(), { endUserId: 'user-1' });
    await api(sandbox(), 'POST', `/v1/accounts/${accountId}/disconnect`);
    const { session } = await openReconnect(sandbox(), accountId);
    const eventCount = sandbox().store.events.length;
    assert.equal((await logIn(sandbox(), session, platformId, 'user_good')).status, 200);
    assert.deepEqual(eventsSince(sandbox(), eventCount), ['account.reconnected']);
  });
});
