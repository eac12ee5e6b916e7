/**
 * Accounts: list filters and pagination, disconnect (data stays readable,
 * on-demand updates stop, event sent), and the data endpoints per platform
 * type (paystubs only on payroll, shifts only on time_and_attendance).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AccountSchema,
  EmploymentSchema,
  IncomeSchema,
  JobSchema,
  PaystubSchema,
  ShiftSchema,
  VoeReportSchema,
  VoieReportSchema,
} from '../../sandbox/state/resources.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { api, assertError, connectAccount, startTestSandbox } from './sandbox-test-client.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('sandbox: accounts and their data', () => {
  let sandbox: Sandbox;
  let payroll: Awaited<ReturnType<typeof connectAccount>>;
  let timeTracking: Awaited<ReturnType<typeof connectAccount>>;
  let other: Awaited<ReturnType<typeof connectAccount>>;
  before(async () => {
    sandbox = await startTestSandbox();
    payroll = await connectAccount(sandbox, { endUserId: 'end-user-1' });
    timeTracking = await connectAccount(sandbox, { platformType: 'time_and_attendance', endUserId: 'end-user-2' });
    other = await connectAccount(sandbox, { username: 'user_mfa', endUserId: 'end-user-3' });
  });
  after(() => sandbox.close());

  it('lists accounts, paginated, in the order they were connected', async () => {
    const first = await api(sandbox, 'GET', '/v1/accounts?limit=2');
    assert.equal(first.status, 200);
    assert.equal(first.body.meta.count, 2);
    for (const account of first.body.data) AccountSchema.parse(account);
    const second = await api(sandbox, 'GET', `/v1/accounts?limit=2&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`);
    assert.equal(second.body.meta.next_cursor, null);
    const ids = [...first.body.data, ...second.body.data].map((account: { id: string }) => account.id);
    assert.deepEqual(ids, [payroll.accountId, timeTracking.accountId, other.accountId]);
  });

  it('gets one account, 404 for an unknown id, 400 for a malformed one', async () => {
    const one = await api(sandbox, 'GET', `/v1/accounts/${payroll.accountId}`);
    assert.equal(AccountSchema.parse(one.body.data).id, payroll.accountId);
    assertError(await api(sandbox, 'GET', `/v1/accounts/${UNKNOWN}`), 404, 'ACCOUNT_NOT_FOUND');
    assertError(await api(sandbox, 'GET', '/v1/accounts/not-a-uuid'), 400, 'INVALID_PARAMS');
  });

  it('reads employment and income for both platform types', async () => {
    for (const { accountId } of [payroll, timeTracking]) {
      const employment = await api(sandbox, 'GET', `/v1/accounts/${accountId}/employment`);
      assert.equal(EmploymentSchema.parse(employment.body.data).account_id, accountId);
      const income = await api(sandbox, 'GET', `/v1/accounts/${accountId}/income`);
      const parsed = IncomeSchema.parse(income.body.data);
      assert.equal(parsed.currency, 'USD');
      assert.ok(Number.isInteger(parsed.annual_gross_pay));
    }
  });

  it('reads paystubs on payroll accounts (paginated); refuses them on time_and_attendance with 400', async () => {
    const paystubs = await api(sandbox, 'GET', `/v1/accounts/${payroll.accountId}/paystubs?limit=5`);
    assert.equal(paystubs.body.meta.count, 5);
    for (const stub of paystubs.body.data) {
      const parsed = PaystubSchema.parse(stub);
      assert.ok(parsed.net_pay < parsed.gross_pay);
    }
    assert.equal(typeof paystubs.body.meta.next_cursor, 'string');
    assertError(await api(sandbox, 'GET', `/v1/accounts/${timeTracking.accountId}/paystubs`), 400, 'PRODUCT_NOT_SUPPORTED');
  });

  it('reads shifts only on time_and_attendance accounts', async () => {
    const shifts = await api(sandbox, 'GET', `/v1/accounts/${timeTracking.accountId}/shifts`);
    assert.ok(shifts.body.meta.count > 0);
    for (const shift of shifts.body.data) ShiftSchema.parse(shift);
    assertError(await api(sandbox, 'GET', `/v1/accounts/${payroll.accountId}/shifts`), 400, 'PRODUCT_NOT_SUPPORTED');
  });

  it('runs on-demand jobs by platform type: deposit switch and paystubs refused on time_and_attendance', async () => {
    const path = `/v1/accounts/${timeTracking.accountId}/jobs`;
    assertError(await api(sandbox, 'POST', path, { body: { name: 'paystubs' } }), 400, 'PRODUCT_NOT_SUPPORTED');
    assertError(
      await api(sandbox, 'POST', path, { body: { name: 'direct_deposit_switch', allocation: { type: 'remainder' } } }),
      400,
      'PRODUCT_NOT_SUPPORTED',
    );
    const shifts = await api(sandbox, 'POST', path, { body: { name: 'shifts' } });
    assert.equal(shifts.status, 200);
    assert.equal(JobSchema.parse(shifts.body.data).status, 'pending');
    const payrollPath = `/v1/accounts/${payroll.accountId}/jobs`;
    assertError(await api(sandbox, 'POST', payrollPath, { body: { name: 'shifts' } }), 400, 'PRODUCT_NOT_SUPPORTED');
    assertError(await api(sandbox, 'POST', payrollPath, { body: { name: 'direct_deposit_switch' } }), 400, 'MISSING_FIELDS');
    assertError(await api(sandbox, 'POST', payrollPath, { body: { name: 'payroll_magic' } }), 400, 'INVALID_PARAMS');
    const deposit = await api(sandbox, 'POST', payrollPath, {
      body: { name: 'direct_deposit_switch', allocation: { type: 'amount', value: 1000 } },
    });
    assert.deepEqual(deposit.body.data.params, { allocation_type: 'amount', allocation_value: 1000 });
    // Leave no job running into the next tests: each ends with events of its own.
    for (const job of [shifts, deposit]) assert.equal((await sandbox.store.whenJobFinished(job.body.data.id)).status, 'success');
  });

  it('lists jobs with filters and gets one job', async () => {
    const all = await api(sandbox, 'GET', '/v1/jobs?limit=100');
    assert.ok(all.body.meta.count >= 3);
    for (const job of all.body.data) JobSchema.parse(job);
    const mine = await api(sandbox, 'GET', `/v1/jobs?account_id=${payroll.accountId}`);
    assert.ok(mine.body.data.every((job: { account_id: string }) => job.account_id === payroll.accountId));
    assert.ok(mine.body.data.some((job: { id: string }) => job.id === payroll.jobId));
    const shifts = await api(sandbox, 'GET', '/v1/jobs?name=shifts');
    assert.ok(shifts.body.data.length > 0 && shifts.body.data.every((job: { name: string }) => job.name === 'shifts'));
    const succeeded = await api(sandbox, 'GET', '/v1/jobs?status=success');
    assert.ok(succeeded.body.data.some((job: { id: string }) => job.id === payroll.jobId));
    const one = await api(sandbox, 'GET', `/v1/jobs/${payroll.jobId}`);
    assert.equal(one.body.data.id, payroll.jobId);
    assert.equal(one.body.data.link_token_id, payroll.linkTokenId);
    assertError(await api(sandbox, 'GET', `/v1/jobs/${UNKNOWN}`), 404, 'JOB_NOT_FOUND');
    assertError(await api(sandbox, 'GET', '/v1/jobs?status=done'), 400, 'INVALID_PARAMS');
  });

  it('serves VOE and VOIE reports per end user; VOIE needs a payroll account', async () => {
    const voe = await api(sandbox, 'GET', '/v1/end_users/end-user-1/verification_reports/voe');
    assert.equal(voe.status, 200);
    assert.equal(VoeReportSchema.parse(voe.body.data).employments[0]!.account_id, payroll.accountId);
    const voie = await api(sandbox, 'GET', '/v1/end_users/end-user-1/verification_reports/voie');
    assert.equal(VoieReportSchema.parse(voie.body.data).incomes.length, 1);
    assert.equal(
      VoeReportSchema.parse((await api(sandbox, 'GET', '/v1/end_users/end-user-2/verification_reports/voe')).body.data).type,
      'voe',
    );
    assertError(await api(sandbox, 'GET', '/v1/end_users/end-user-2/verification_reports/voie'), 404, 'REPORT_UNAVAILABLE');
    assertError(await api(sandbox, 'GET', '/v1/end_users/nobody/verification_reports/voe'), 404, 'END_USER_NOT_FOUND');
  });

  it('disconnects: 404 for unknown ids; data stays readable; on-demand jobs refused; event sent once', async () => {
    assertError(await api(sandbox, 'POST', `/v1/accounts/${UNKNOWN}/disconnect`), 404, 'ACCOUNT_NOT_FOUND');
    assertError(await api(sandbox, 'POST', `/v1/accounts/${other.accountId}/disconnect`, { body: { reason: 'x' } }), 400, 'INVALID_PARAMS');
    // Count only this account's events: jobs of the other accounts may still finish (and emit) meanwhile.
    const eventsOfOther = () =>
      sandbox.store.events.filter((event) => 'account_id' in event.payload && event.payload.account_id === other.accountId);
    const eventsBefore = eventsOfOther().length;
    const paystubsBefore = await api(sandbox, 'GET', `/v1/accounts/${other.accountId}/paystubs?limit=100`);

    const response = await api(sandbox, 'POST', `/v1/accounts/${other.accountId}/disconnect`);
    assert.equal(response.status, 200);
    const account = AccountSchema.parse(response.body.data);
    assert.equal(account.connected, false);
    assert.equal(account.monitoring_status, 'disconnected');
    assert.ok(account.disconnected_at);

    const events = eventsOfOther().slice(eventsBefore);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.event, 'account.monitoring_status.updated');
    assert.deepEqual(
      { ...events[0]!.payload, updated_at: undefined },
      {
        account_id: other.accountId,
        end_user_id: 'end-user-3',
        connected: false,
        monitoring_status: 'disconnected',
        previous_monitoring_status: 'active',
        updated_at: undefined,
      },
    );

    const paystubsAfter = await api(sandbox, 'GET', `/v1/accounts/${other.accountId}/paystubs?limit=100`);
    assert.deepEqual(paystubsAfter.body, paystubsBefore.body);
    assert.equal((await api(sandbox, 'GET', `/v1/accounts/${other.accountId}/employment`)).status, 200);
    assertError(
      await api(sandbox, 'POST', `/v1/accounts/${other.accountId}/jobs`, { body: { name: 'paystubs' } }),
      403,
      'ACCOUNT_DISCONNECTED',
    );

    const again = await api(sandbox, 'POST', `/v1/accounts/${other.accountId}/disconnect`, { body: {} });
    assert.equal(again.status, 200);
    assert.equal(eventsOfOther().length, eventsBefore + 1);
  });

  it('filters accounts by connected and monitoring_status', async () => {
    // The previous test disconnected `other`; make this test stand alone by ensuring it.
    await api(sandbox, 'POST', `/v1/accounts/${other.accountId}/disconnect`);
    const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((account) => account.id).sort();
    const connected = await api(sandbox, 'GET', '/v1/accounts?connected=true');
    assert.deepEqual(ids(connected), [payroll.accountId, timeTracking.accountId].sort());
    const disconnected = await api(sandbox, 'GET', '/v1/accounts?connected=false');
    assert.deepEqual(ids(disconnected), [other.accountId]);
    assert.deepEqual(ids(await api(sandbox, 'GET', '/v1/accounts?monitoring_status=disconnected')), [other.accountId]);
    assert.deepEqual(ids(await api(sandbox, 'GET', '/v1/accounts?monitoring_status=active&connected=true')), ids(connected));
    assert.deepEqual(ids(await api(sandbox, 'GET', '/v1/accounts?end_user_id=end-user-2')), [timeTracking.accountId]);
    assertError(await api(sandbox, 'GET', '/v1/accounts?connected=yes'), 400, 'INVALID_PARAMS');
    assertError(await api(sandbox, 'GET', '/v1/accounts?monitoring_status=sleeping'), 400, 'INVALID_PARAMS');
    // A cursor is bound to its filters.
    const page = await api(sandbox, 'GET', '/v1/accounts?connected=true&limit=1');
    assertError(
      await api(sandbox, 'GET', `/v1/accounts?limit=1&cursor=${encodeURIComponent(page.body.meta.next_cursor)}`),
      400,
      'INVALID_PARAMS',
    );
  });
});
