/**
 * Sandbox triggers (`/sandbox/*`): an account without the Link UI, every
 * webhook event of the spec on demand, and the re-authentication scenario;
 * each answer lists the events it sent, and those are the events recorded.
 * Delivery to a receiver is proven on the packed package (test/packaging/sandbox-package.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountSchema, JobSchema, SandboxWebhookEventSchema, type SandboxWebhookEvent } from '../../sandbox/state/resources.js';
import type { Sandbox, SandboxOptions } from '../../sandbox/start-sandbox.js';
import { api, assertError, platformOfType, startTestSandbox, type TestResponse } from './sandbox-test-client.js';

const withSandbox = async (options: SandboxOptions, body: (sandbox: Sandbox) => Promise<void>): Promise<void> => {
  const sandbox = await startTestSandbox(options);
  try {
    await body(sandbox);
  } finally {
    await sandbox.close();
  }
};

const createAccount = async (sandbox: Sandbox, body: Record<string, unknown> = {}) => {
  const response = await api(sandbox, 'POST', '/sandbox/accounts', { body });
  assert.equal(response.status, 201, response.text);
  return {
    account: AccountSchema.parse(response.body.data.account),
    job: JobSchema.parse(response.body.data.job),
    events: response.body.data.events as SandboxWebhookEvent[],
  };
};

const trigger = (sandbox: Sandbox, body: Record<string, unknown>, version?: string): Promise<TestResponse> =>
  api(sandbox, 'POST', '/sandbox/events', { body, ...(version && { version }) });

/**
 * The events of a trigger's answer: valid by the schema, and each one exactly as the sandbox recorded it. Found
 * by id, not as the last ones recorded: an account's first sync finishes on its own timer and records events of
 * its own, which may come after the trigger's.
 */
const sentEvents = (sandbox: Sandbox, response: TestResponse): SandboxWebhookEvent[] => {
  assert.equal(response.status, 200, response.text);
  const events = (response.body.data.events as unknown[]).map((event) => SandboxWebhookEventSchema.parse(event));
  assert.ok(events.length > 0, 'the trigger sent an event');
  for (const event of events)
    assert.deepEqual(
      sandbox.store.events.find((recorded) => recorded.event_id === event.event_id),
      event,
    );
  return events;
};

describe('sandbox triggers', () => {
  it('POST /sandbox/accounts connects an account for an end user as Link would: account.added, then its first sync', async () => {
    await withSandbox({}, async (sandbox) => {
      const { account, job, events } = await createAccount(sandbox, { end_user_id: 'user-42' });
      assert.equal(account.end_user_id, 'user-42');
      assert.equal(account.platform_type, 'payroll');
      assert.equal(account.monitoring_status, 'active');
      assert.equal(job.name, 'paystubs');
      assert.equal(job.link_token_id, account.link_token_id);
      assert.deepEqual(
        events.map((event) => event.event),
        ['account.added'],
      );
      assert.deepEqual(events[0]!.payload, {
        account_id: account.id,
        platform_id: account.platform_id,
        platform_name: account.platform_name,
        link_token_id: account.link_token_id,
        end_user_id: 'user-42',
        job_id: job.id,
      });
      const listed = await api(sandbox, 'GET', `/v1/accounts/${account.id}`);
      assert.deepEqual(listed.body.data, account);
    });
  });

  it('POST /sandbox/accounts takes a platform or an employer, and refuses unknown or mismatched ones with the error body', async () => {
    await withSandbox({}, async (sandbox) => {
      const clock = platformOfType(sandbox, 'time_and_attendance');
      const { account, job } = await createAccount(sandbox, { platform_id: clock.id, username: 'user_error' });
      assert.equal(account.platform_id, clock.id);
      assert.equal(job.name, 'shifts');
      const employer = sandbox.store.catalogue.employers[0]!.item;
      const byEmployer = await createAccount(sandbox, { employer_id: employer.id });
      assert.equal(byEmployer.account.employer_id, employer.id);
      assert.equal(byEmployer.account.platform_id, employer.platform_id);

      assertError(
        await api(sandbox, 'POST', '/sandbox/accounts', { body: { platform_id: '00000000-0000-4000-8000-000000000000' } }),
        404,
        'PLATFORM_NOT_FOUND',
      );
      assertError(
        await api(sandbox, 'POST', '/sandbox/accounts', { body: { employer_id: '00000000-0000-4000-8000-000000000000' } }),
        404,
        'EMPLOYER_NOT_FOUND',
      );
      const other = sandbox.store.catalogue.platforms.find(({ item }) => item.id !== employer.platform_id)!.item;
      assertError(
        await api(sandbox, 'POST', '/sandbox/accounts', { body: { employer_id: employer.id, platform_id: other.id } }),
        400,
        'INVALID_PARAMS',
      );
      assertError(await api(sandbox, 'POST', '/sandbox/accounts', { body: { username: 'user_nobody' } }), 400, 'INVALID_PARAMS');
      assertError(await api(sandbox, 'POST', '/sandbox/accounts', { body: { surprise: true } }), 400, 'INVALID_PARAMS');
    });
  });

  it('paystubs.added and shifts.added run a real sync: sync fields, then verification_reports.refreshed for the end user', async () => {
    await withSandbox({ jobDelayMs: 3_600_000 }, async (sandbox) => {
      const { account } = await createAccount(sandbox, { end_user_id: 'user-7' });
      const first = sentEvents(sandbox, await trigger(sandbox, { event: 'paystubs.added', account_id: account.id }));
      assert.deepEqual(
        first.map((event) => event.event),
        ['paystubs.added', 'verification_reports.refreshed'],
      );
      const payload = first[0]!.payload as Record<string, unknown>;
      assert.equal(payload['account_id'], account.id);
      assert.equal(payload['sync_status'], 'synced');
      assert.equal(payload['added_count'], 12);
      assert.equal(payload['deleted_count'], 0);
      assert.equal(payload['link_token_id'], null);
      const job = await api(sandbox, 'GET', `/v1/jobs/${payload['job_id'] as string}`);
      assert.equal(job.body.data.status, 'success');
      const again = sentEvents(sandbox, await trigger(sandbox, { event: 'paystubs.added', account_id: account.id }));
      assert.equal((again[0]!.payload as Record<string, unknown>)['added_count'], 0);

      assertError(await trigger(sandbox, { event: 'shifts.added', account_id: account.id }), 400, 'PRODUCT_NOT_SUPPORTED');
      const clock = await createAccount(sandbox, { platform_id: platformOfType(sandbox, 'time_and_attendance').id });
      const shifts = sentEvents(sandbox, await trigger(sandbox, { event: 'shifts.added', account_id: clock.account.id }));
      assert.deepEqual(
        shifts.map((event) => event.event),
        ['shifts.added'],
      );
    });
  });

  it('verification_reports.refreshed and account.added fire for an end user or an account', async () => {
    await withSandbox({}, async (sandbox) => {
      const { account, job } = await createAccount(sandbox, { end_user_id: 'user-9' });
      const [refreshed] = sentEvents(sandbox, await trigger(sandbox, { event: 'verification_reports.refreshed', end_user_id: 'user-9' }));
      assert.equal(refreshed!.event, 'verification_reports.refreshed');
      const availability = (refreshed!.payload as { availability: { voe: { status: string }; voie: { status: string } } }).availability;
      assert.equal(availability.voe.status, 'available');
      assert.equal(availability.voie.status, 'available');
      const [viaAccount] = sentEvents(sandbox, await trigger(sandbox, { event: 'verification_reports.refreshed', account_id: account.id }));
      assert.equal((viaAccount!.payload as { end_user_id: string }).end_user_id, 'user-9');
      const [added] = sentEvents(sandbox, await trigger(sandbox, { event: 'account.added', account_id: account.id }));
      assert.equal((added!.payload as { job_id: string }).job_id, job.id);

      assertError(await trigger(sandbox, { event: 'verification_reports.refreshed', end_user_id: 'nobody' }), 404, 'END_USER_NOT_FOUND');
      assertError(await trigger(sandbox, { event: 'verification_reports.refreshed' }), 400, 'INVALID_PARAMS');
      const anonymous = await createAccount(sandbox);
      assertError(
        await trigger(sandbox, { event: 'verification_reports.refreshed', account_id: anonymous.account.id }),
        400,
        'INVALID_PARAMS',
      );
    });
  });

  it('bad input to /sandbox/events gets the spec error body and sends nothing', async () => {
    await withSandbox({ jobDelayMs: 3_600_000 }, async (sandbox) => {
      const { account } = await createAccount(sandbox);
      assertError(await trigger(sandbox, { event: 'paystubs.deleted', account_id: account.id }), 400, 'INVALID_PARAMS');
      assertError(await trigger(sandbox, { event: 'paystubs.added' }), 400, 'MISSING_FIELDS');
      assertError(
        await trigger(sandbox, { event: 'paystubs.added', account_id: '00000000-0000-4000-8000-000000000000' }),
        404,
        'ACCOUNT_NOT_FOUND',
      );
      assertError(await trigger(sandbox, { event: 'paystubs.added', account_id: 'nope' }), 400, 'INVALID_PARAMS');
      assertError(
        await trigger(sandbox, { event: 'paystubs.added', account_id: account.id, monitoring_status: 'active' }),
        400,
        'INVALID_PARAMS',
      );
      assertError(await trigger(sandbox, { event: 'account.monitoring_status.updated', account_id: account.id }), 400, 'MISSING_FIELDS');
      assertError(
        await api(sandbox, 'POST', '/sandbox/events', { raw: '{not json', headers: { 'content-type': 'application/json' } }),
        400,
        'INVALID_REQUEST_BODY',
      );
      assertError(await trigger(sandbox, { event: 'account.disconnected', account_id: account.id }), 400, 'EVENT_NOT_IN_VERSION');
      // Triggers are behind the same checks as the API: the sandbox secret, then Service-Version.
      assertError(
        await api(sandbox, 'POST', '/sandbox/events', {
          body: { event: 'paystubs.added', account_id: account.id },
          secret: 'prod_live_secret',
        }),
        401,
        'INVALID_API_SECRET',
      );
      assertError(
        await api(sandbox, 'POST', '/sandbox/events', { body: { event: 'paystubs.added', account_id: account.id }, secret: null }),
        401,
        'MISSING_API_SECRET',
      );
      assertError(
        await api(sandbox, 'POST', '/sandbox/events', { body: { event: 'paystubs.added', account_id: account.id }, version: null }),
        400,
        'MISSING_SERVICE_VERSION',
      );
      assert.equal(sandbox.store.events.length, 1, 'only the account.added of the created account');
    });
  });

  it('require_reauth: monitoring_status user_action_required, on-demand jobs 403 ACCOUNT_REAUTH_REQUIRED, pending jobs fail, one event', async () => {
    await withSandbox({ jobDelayMs: 3_600_000 }, async (sandbox) => {
      const { account, job } = await createAccount(sandbox, { end_user_id: 'user-3' });
      const response = await api(sandbox, 'POST', `/sandbox/accounts/${account.id}/require_reauth`);
      assert.equal(response.status, 200, response.text);
      const moved = AccountSchema.parse(response.body.data.account);
      assert.equal(moved.monitoring_status, 'user_action_required');
      assert.equal(moved.connected, true);
      const [event] = sentEvents(sandbox, response);
      assert.deepEqual(event!.payload, {
        account_id: account.id,
        end_user_id: 'user-3',
        connected: true,
        monitoring_status: 'user_action_required',
        previous_monitoring_status: 'active',
        updated_at: moved.updated_at,
      });
      const pending = await api(sandbox, 'GET', `/v1/jobs/${job.id}`);
      assert.deepEqual(pending.body.data.error?.code, 'ACCOUNT_REAUTH_REQUIRED');
      assertError(
        await api(sandbox, 'POST', `/v1/accounts/${account.id}/jobs`, { body: { name: 'paystubs' } }),
        403,
        'ACCOUNT_REAUTH_REQUIRED',
      );
      assertError(await trigger(sandbox, { event: 'paystubs.added', account_id: account.id }), 403, 'ACCOUNT_REAUTH_REQUIRED');
      const listed = await api(sandbox, 'GET', '/v1/accounts?monitoring_status=user_action_required');
      assert.deepEqual(
        listed.body.data.map((item: { id: string }) => item.id),
        [account.id],
      );
      // A second call changes nothing and sends nothing.
      const again = await api(sandbox, 'POST', `/sandbox/accounts/${account.id}/require_reauth`);
      assert.deepEqual(again.body.data.events, []);
      // Back to active by the monitoring trigger; then on-demand updates run again.
      const [active] = sentEvents(
        sandbox,
        await trigger(sandbox, { event: 'account.monitoring_status.updated', account_id: account.id, monitoring_status: 'active' }),
      );
      assert.equal((active!.payload as { previous_monitoring_status: string }).previous_monitoring_status, 'user_action_required');
      assert.equal((await api(sandbox, 'POST', `/v1/accounts/${account.id}/jobs`, { body: { name: 'paystubs' } })).status, 200);
      assertError(
        await trigger(sandbox, { event: 'account.monitoring_status.updated', account_id: account.id, monitoring_status: 'active' }),
        409,
        'MONITORING_STATUS_UNCHANGED',
      );

      await api(sandbox, 'POST', `/v1/accounts/${account.id}/disconnect`);
      assertError(await api(sandbox, 'POST', `/sandbox/accounts/${account.id}/require_reauth`), 403, 'ACCOUNT_DISCONNECTED');
      assertError(
        await api(sandbox, 'POST', '/sandbox/accounts/00000000-0000-4000-8000-000000000000/require_reauth'),
        404,
        'ACCOUNT_NOT_FOUND',
      );
    });
  });

  it('webhookVersion 2021-07-28 sends the deprecated account.disconnected / account.reconnected instead of account.monitoring_status.updated', async () => {
    // The first sync never finishes here: its events would race the last-event check below.
    await withSandbox({ webhookVersion: '2021-07-28', jobDelayMs: 3_600_000 }, async (sandbox) => {
      const { account } = await createAccount(sandbox, { end_user_id: 'user-5' });
      assertError(
        await trigger(sandbox, { event: 'account.monitoring_status.updated', account_id: account.id, monitoring_status: 'disconnected' }),
        400,
        'EVENT_NOT_IN_VERSION',
      );
      const [disconnected] = sentEvents(sandbox, await trigger(sandbox, { event: 'account.disconnected', account_id: account.id }));
      assert.equal(disconnected!.event, 'account.disconnected');
      assert.equal((await api(sandbox, 'GET', `/v1/accounts/${account.id}`)).body.data.connected, false);
      const [reconnected] = sentEvents(sandbox, await trigger(sandbox, { event: 'account.reconnected', account_id: account.id }));
      assert.equal(reconnected!.event, 'account.reconnected');
      assert.deepEqual(Object.keys(reconnected!.payload).sort(), ['account_id', 'end_user_id', 'updated_at']);
      // The service API's own disconnect speaks the same version.
      await api(sandbox, 'POST', `/v1/accounts/${account.id}/disconnect`);
      assert.equal(sandbox.store.events.at(-1)!.event, 'account.disconnected');
      assert.ok(!sandbox.store.events.some((event) => event.event === 'account.monitoring_status.updated'));
    });
  });
});
