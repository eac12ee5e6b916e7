/**
 * The hosted Link page's API (/link/api/*), driven over HTTP as the page
 * drives it: session → search → login → run job → result, for each sandbox
 * test user, plus refusals (tokens, sessions, credentials, jobs).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LinkJobSchema, LinkPageSessionSchema, LoginResultSchema, SearchResultSchema } from '../../sandbox/api/link-api-schemas.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import {
  api,
  assertError,
  createLinkToken,
  linkApi,
  openSession,
  platformOfType,
  startTestSandbox,
  waitForLinkJob,
} from './sandbox-test-client.js';

describe('sandbox: Link API', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startTestSandbox({ pendingJobDelayMs: 150 });
  });
  after(() => sandbox.close());

  const login = (session: string, body: Record<string, unknown>) => linkApi(sandbox, 'POST', '/link/api/login', session, body);
  const payroll = () => platformOfType(sandbox, 'payroll');

  it('opens a session from a token, with the contract shape', async () => {
    const token = await createLinkToken(sandbox);
    const response = await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: token.token });
    assert.equal(response.status, 201);
    const session = LinkPageSessionSchema.parse(response.body.data);
    assert.equal(session.link_token_id, token.id);
    assert.equal(session.mode, 'sandbox');
    assert.deepEqual(session.jobs, ['direct_deposit_switch']);
    assert.equal(session.skip_intro_screen, false);
  });

  it('refuses unknown, used and expired tokens with INVALID_LINK_TOKEN', async () => {
    assertError(await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: 'link-sandbox-nope' }), 401, 'INVALID_LINK_TOKEN');
    const token = await createLinkToken(sandbox);
    await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: token.token });
    assertError(await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: token.token }), 401, 'INVALID_LINK_TOKEN');
    assertError(await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: '' }), 400, 'INVALID_PARAMS');
    assertError(await linkApi(sandbox, 'POST', '/link/api/sessions', null, {}), 400, 'MISSING_FIELDS');
  });

  it('answers a long but unknown Link token (up to the 2000 characters of the frame protocol) as an invalid token', async () => {
    assertError(await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: 'x'.repeat(1500) }), 401, 'INVALID_LINK_TOKEN');
  });

  it('needs no API secret, and a valid x-link-session on every later call', async () => {
    const platform = payroll();
    const body = { platform_id: platform.id, username: 'user_good', password: 'pass_good' };
    assertError(await linkApi(sandbox, 'GET', '/link/api/search?q=pay', null), 401, 'INVALID_LINK_SESSION');
    assertError(await linkApi(sandbox, 'GET', '/link/api/search?q=pay', 'made-up-session'), 401, 'INVALID_LINK_SESSION');
    assertError(await linkApi(sandbox, 'POST', '/link/api/login', null, body), 401, 'INVALID_LINK_SESSION');
    assertError(
      await linkApi(sandbox, 'GET', '/link/api/jobs/00000000-0000-4000-8000-000000000000', 'made-up'),
      401,
      'INVALID_LINK_SESSION',
    );
    assert.equal(sandbox.store.accounts().length, 0);
  });

  it('searches employers and platforms, case-insensitively, paginated', async () => {
    const { session } = await openSession(sandbox);
    const response = await linkApi(sandbox, 'GET', '/link/api/search?q=HEALTH&limit=5', session);
    assert.equal(response.status, 200);
    assert.equal(response.body.meta.count, 5);
    for (const hit of response.body.data) {
      SearchResultSchema.parse(hit);
      assert.match(hit.name, /health/i);
    }
    const next = await linkApi(
      sandbox,
      'GET',
      `/link/api/search?q=HEALTH&limit=5&cursor=${encodeURIComponent(response.body.meta.next_cursor)}`,
      session,
    );
    assert.equal(next.status, 200);
    const firstIds = new Set(response.body.data.map((hit: { id: string }) => hit.id));
    assert.ok(next.body.data.every((hit: { id: string }) => !firstIds.has(hit.id)));
    // A cursor belongs to its search: reused for another text it is refused.
    assertError(
      await linkApi(sandbox, 'GET', `/link/api/search?q=pay&cursor=${encodeURIComponent(response.body.meta.next_cursor)}`, session),
      400,
      'INVALID_PARAMS',
    );
  });

  it('lists popular employers and platforms for an empty search, both kinds, and finds platforms with their type', async () => {
    const { session } = await openSession(sandbox);
    const popular = await linkApi(sandbox, 'GET', '/link/api/search?limit=10', session);
    const kinds = new Set(popular.body.data.map((hit: { kind: string }) => hit.kind));
    assert.deepEqual([...kinds].sort(), ['employer', 'platform']);
    const timeTracking = platformOfType(sandbox, 'time_and_attendance');
    const found = await linkApi(sandbox, 'GET', `/link/api/search?q=${encodeURIComponent(timeTracking.name)}`, session);
    const hit = found.body.data.find((entry: { id: string }) => entry.id === timeTracking.id);
    assert.deepEqual(hit, {
      kind: 'platform',
      id: timeTracking.id,
      name: timeTracking.name,
      platform_id: timeTracking.id,
      platform_type: 'time_and_attendance',
    });
    const none = await linkApi(sandbox, 'GET', '/link/api/search?q=zzzzqqq', session);
    assert.deepEqual(none.body, { data: [], meta: { count: 0, next_cursor: null } });
  });

  it('user_good: login → connected; run → pending; then success with the allocation in params', async () => {
    const { session, linkTokenId } = await openSession(sandbox, { end_user_id: 'good-user' });
    // An employer that takes the percentage allocation below.
    const employer = sandbox.store.catalogue.employers.find(({ item }) => item.supports_percentage_allocation)!.item;
    const platform = sandbox.store.catalogue.platformById.get(employer.platform_id)!;
    const response = await login(session, {
      platform_id: platform.id,
      employer_id: employer.id,
      username: 'user_good',
      password: 'pass_good',
    });
    assert.equal(response.status, 200);
    const result = LoginResultSchema.parse(response.body.data);
    assert.ok(result.status === 'connected');
    assert.equal(result.platform_id, platform.id);
    assert.equal(result.job, 'direct_deposit_switch');
    const account = sandbox.store.account(result.account_id)!.account;
    assert.equal(account.connected, true);
    assert.equal(account.monitoring_status, 'active');
    assert.equal(account.employer_name, employer.name);
    assert.equal(account.link_token_id, linkTokenId);

    const pending = await linkApi(sandbox, 'GET', `/link/api/jobs/${result.job_id}`, session);
    assert.equal(pending.body.data.status, 'pending');
    const run = await linkApi(sandbox, 'POST', `/link/api/jobs/${result.job_id}/run`, session, {
      allocation: { type: 'percentage', value: 40 },
    });
    assert.equal(run.status, 202);
    assert.deepEqual(run.body, { data: { job_id: result.job_id, status: 'pending' } });
    const done = await waitForLinkJob(sandbox, session, result.job_id);
    const job = LinkJobSchema.parse(done.body.data);
    assert.deepEqual(job, {
      job_id: result.job_id,
      status: 'success',
      job: 'direct_deposit_switch',
      params: { allocation_type: 'percentage', allocation_value: 40 },
      error: null,
    });
    // The service API sees the same account and job.
    const viaApi = await api(sandbox, 'GET', `/v1/jobs/${result.job_id}`);
    assert.equal(viaApi.body.data.status, 'success');
  });

  it('user_mfa: asks for a code; a wrong code is INVALID_MFA_CODE; mfa_code connects', async () => {
    const { session } = await openSession(sandbox);
    const body = { platform_id: payroll().id, username: 'user_mfa', password: 'pass_good' };
    const first = await login(session, body);
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, { data: { status: 'mfa_required' } });
    assertError(await login(session, { ...body, mfa_code: '000000' }), 401, 'INVALID_MFA_CODE');
    const connected = await login(session, { ...body, mfa_code: 'mfa_code' });
    assert.equal(connected.body.data.status, 'connected');
    await linkApi(sandbox, 'POST', `/link/api/jobs/${connected.body.data.job_id}/run`, session, { allocation: { type: 'remainder' } });
    const done = await waitForLinkJob(sandbox, session, connected.body.data.job_id);
    assert.equal(done.body.data.status, 'success');
    assert.deepEqual(done.body.data.params, { allocation_type: 'remainder', allocation_value: null });
  });

  it('user_error: logs in, then the job fails with JOB_FAILED', async () => {
    const { session } = await openSession(sandbox);
    const connected = await login(session, { platform_id: payroll().id, username: 'user_error', password: 'pass_good' });
    assert.equal(connected.body.data.status, 'connected');
    await linkApi(sandbox, 'POST', `/link/api/jobs/${connected.body.data.job_id}/run`, session, {
      allocation: { type: 'amount', value: 2500 },
    });
    const done = await waitForLinkJob(sandbox, session, connected.body.data.job_id);
    assert.equal(done.body.data.status, 'error');
    assert.equal(done.body.data.error.code, 'JOB_FAILED');
  });

  it('user_pending: the job stays pending for pendingJobDelayMs, then fails with JOB_TIMEOUT', async () => {
    const { session } = await openSession(sandbox);
    const connected = await login(session, { platform_id: payroll().id, username: 'user_pending', password: 'pass_good' });
    const jobId = connected.body.data.job_id;
    // Read the clock before the run request: the job's timer starts while the request is served, so the
    // time until the job ends, counted from here, is never shorter than the delay, however slow the reply.
    const started = Date.now();
    await linkApi(sandbox, 'POST', `/link/api/jobs/${jobId}/run`, session, { allocation: { type: 'amount', value: 2500 } });
    const done = await waitForLinkJob(sandbox, session, jobId);
    assert.ok(Date.now() - started >= 140, 'finished before the configured delay');
    assert.equal(done.body.data.status, 'error');
    assert.equal(done.body.data.error.code, 'JOB_TIMEOUT');
  });

  it('wrong credentials are INVALID_CREDENTIALS and non-terminal: the same session can log in after', async () => {
    const { session } = await openSession(sandbox);
    const platform_id = payroll().id;
    assertError(await login(session, { platform_id, username: 'user_good', password: 'wrong' }), 401, 'INVALID_CREDENTIALS');
    assertError(await login(session, { platform_id, username: 'nobody', password: 'pass_good' }), 401, 'INVALID_CREDENTIALS');
    // The names an object inherits are no test users: each is refused, and no account is made.
    for (const username of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      assertError(await login(session, { platform_id, username, password: 'pass_good' }), 401, 'INVALID_CREDENTIALS');
    }
    const before = sandbox.store.accounts().length;
    const ok = await login(session, { platform_id, username: 'user_good', password: 'pass_good' });
    assert.equal(ok.body.data.status, 'connected');
    assert.equal(sandbox.store.accounts().length, before + 1);
    // One account per session: a second login is refused.
    assertError(await login(session, { platform_id, username: 'user_good', password: 'pass_good' }), 409, 'ALREADY_CONNECTED');
  });

  it('a time_and_attendance platform gives a shifts sync job, run without allocation', async () => {
    const { session } = await openSession(sandbox);
    const platform = platformOfType(sandbox, 'time_and_attendance');
    const connected = await login(session, { platform_id: platform.id, username: 'user_good', password: 'pass_good' });
    assert.equal(connected.body.data.job, 'shifts');
    const run = await linkApi(sandbox, 'POST', `/link/api/jobs/${connected.body.data.job_id}/run`, session, {});
    assert.equal(run.status, 202);
    const done = await waitForLinkJob(sandbox, session, connected.body.data.job_id);
    assert.equal(done.body.data.status, 'success');
    assert.equal(done.body.data.job, 'shifts');
  });

  it('validates login and run bodies, refuses a second run and hides other sessions’ jobs', async () => {
    const { session } = await openSession(sandbox);
    const platform_id = payroll().id;
    assertError(await login(session, { platform_id, username: 'user_good' }), 400, 'MISSING_FIELDS');
    assertError(await login(session, { platform_id: 'nope', username: 'user_good', password: 'pass_good' }), 400, 'INVALID_PARAMS');
    assertError(
      await login(session, { platform_id: '00000000-0000-4000-8000-000000000000', username: 'user_good', password: 'pass_good' }),
      400,
      'INVALID_PARAMS',
    );
    assertError(await login(session, { platform_id, username: 'user_good', password: 'pass_good', extra: 1 }), 400, 'INVALID_PARAMS');
    const connected = await login(session, { platform_id, username: 'user_good', password: 'pass_good' });
    const jobId = connected.body.data.job_id;
    const runPath = `/link/api/jobs/${jobId}/run`;
    assertError(await linkApi(sandbox, 'POST', runPath, session, {}), 400, 'MISSING_FIELDS');
    assertError(await linkApi(sandbox, 'POST', runPath, session, { allocation: { type: 'percentage', value: 0 } }), 400, 'INVALID_PARAMS');
    assertError(await linkApi(sandbox, 'POST', runPath, session, { allocation: { type: 'amount', value: 10.5 } }), 400, 'INVALID_PARAMS');
    assertError(await linkApi(sandbox, 'POST', runPath, session, { allocation: { type: 'all' } }), 400, 'INVALID_PARAMS');
    const other = await openSession(sandbox);
    assertError(await linkApi(sandbox, 'GET', `/link/api/jobs/${jobId}`, other.session), 404, 'JOB_NOT_FOUND');
    assertError(await linkApi(sandbox, 'POST', runPath, other.session, { allocation: { type: 'remainder' } }), 404, 'JOB_NOT_FOUND');
    assert.equal((await linkApi(sandbox, 'POST', runPath, session, { allocation: { type: 'remainder' } })).status, 202);
    assertError(await linkApi(sandbox, 'POST', runPath, session, { allocation: { type: 'remainder' } }), 409, 'JOB_ALREADY_STARTED');
  });
});
