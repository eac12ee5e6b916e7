/**
 * Disconnecting an account ends the jobs it still had pending (started or
 * waiting for their allocation) at once, as failed with ACCOUNT_DISCONNECTED:
 * without access to the platform they could never finish. Finished jobs keep
 * their outcome, and a failed job sends no sync event, later or now.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { api, assertError, connectAccount, linkApi, openSession, platformOfType, startTestSandbox } from './sandbox-test-client.js';

/**
 * How long a job runs here. No test relies on a request landing within it: the one that disconnects
 * while a job runs mocks the job's timer.
 */
const JOB_DELAY_MS = 1000;

describe('sandbox: disconnecting an account with pending jobs', () => {
  let sandbox: Sandbox;
  /** A connected account that stays connected: it runs the marker jobs of {@link pastTheJobsEnd}. */
  let bystander: string;
  before(async () => {
    // user_pending's jobs would stay pending for the whole test.
    sandbox = await startTestSandbox({ jobDelayMs: JOB_DELAY_MS, pendingJobDelayMs: 60_000 });
    bystander = (await connectAccount(sandbox)).accountId;
  });
  after(() => sandbox.close());

  const disconnect = async (accountId: string) => {
    const response = await api(sandbox, 'POST', `/v1/accounts/${accountId}/disconnect`);
    assert.equal(response.status, 200, response.text);
  };
  const jobOf = async (jobId: string) => (await api(sandbox, 'GET', `/v1/jobs/${jobId}`)).body.data;
  /**
   * Returns once the timer of every job started before this call would have fired: it starts a
   * marker job with the same delay and waits for it to finish. Node fires timers of one duration in
   * the order they were set, so a disconnected job's timer, had it survived, fires first.
   */
  const pastTheJobsEnd = async () => {
    const marker = await api(sandbox, 'POST', `/v1/accounts/${bystander}/jobs`, { body: { name: 'paystubs' } });
    assert.equal(marker.status, 200, marker.text);
    assert.equal((await sandbox.store.whenJobFinished(marker.body.data.id)).status, 'success');
  };
  const syncEventsOf = (jobId: string) =>
    sandbox.store.events.filter(
      (event) => (event.event === 'paystubs.added' || event.event === 'shifts.added') && event.payload.job_id === jobId,
    );

  /** Opens a session and logs in as `username` on a payroll platform; the Link job waits for its allocation. */
  const logIn = async (username: string) => {
    const { session } = await openSession(sandbox);
    const response = await linkApi(sandbox, 'POST', '/link/api/login', session, {
      platform_id: platformOfType(sandbox, 'payroll').id,
      username,
      password: 'pass_good',
    });
    assert.equal(response.status, 200, response.text);
    return { session, accountId: response.body.data.account_id as string, jobId: response.body.data.job_id as string };
  };

  it('fails a running Link job with ACCOUNT_DISCONNECTED, seen by the service API and the Link page', async () => {
    const { session, accountId, jobId } = await logIn('user_pending');
    assert.equal(
      (await linkApi(sandbox, 'POST', `/link/api/jobs/${jobId}/run`, session, { allocation: { type: 'remainder' } })).status,
      202,
    );
    await disconnect(accountId);
    const job = await jobOf(jobId);
    assert.equal(job.status, 'error');
    assert.equal(job.error.code, 'ACCOUNT_DISCONNECTED');
    assert.equal(typeof job.completed_at, 'string');
    const viaLink = await linkApi(sandbox, 'GET', `/link/api/jobs/${jobId}`, session);
    assert.deepEqual(
      { status: viaLink.body.data.status, code: viaLink.body.data.error?.code },
      { status: 'error', code: 'ACCOUNT_DISCONNECTED' },
    );
    assert.ok(
      sandbox.store.events.some((event) => event.event === 'account.monitoring_status.updated' && event.payload.account_id === accountId),
    );
  });

  it('fails a running on-demand job for good: its timer does not bring a success later', async (t) => {
    const { accountId, jobId: linkJobId } = await connectAccount(sandbox);
    // The sandbox runs in this process: from here its job timers are mocked. The job's timer cannot fire before the
    // disconnect lands, however slow a loaded machine serves the two requests, and tick() fires it afterwards, had
    // it survived. (Real timers here raced: a disconnect served a second late found the job already succeeded.)
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const started = await api(sandbox, 'POST', `/v1/accounts/${accountId}/jobs`, { body: { name: 'paystubs' } });
    assert.equal(started.status, 200, started.text);
    const jobId: string = started.body.data.id;
    assert.equal((await jobOf(jobId)).status, 'pending', 'the job runs when the account is disconnected');
    await disconnect(accountId);
    t.mock.timers.tick(JOB_DELAY_MS);
    t.mock.timers.reset();
    const job = await jobOf(jobId);
    assert.deepEqual({ status: job.status, code: job.error?.code }, { status: 'error', code: 'ACCOUNT_DISCONNECTED' });
    assert.deepEqual(syncEventsOf(jobId), []);
    // The Link job had already finished: it keeps its outcome.
    assert.equal((await jobOf(linkJobId)).status, 'success');
  });

  it('fails a Link job still waiting for its allocation; running it then is 403 ACCOUNT_DISCONNECTED', async () => {
    const { session, accountId, jobId } = await logIn('user_good');
    await disconnect(accountId);
    assert.equal((await jobOf(jobId)).error?.code, 'ACCOUNT_DISCONNECTED');
    assertError(
      await linkApi(sandbox, 'POST', `/link/api/jobs/${jobId}/run`, session, { allocation: { type: 'remainder' } }),
      403,
      'ACCOUNT_DISCONNECTED',
    );
    await pastTheJobsEnd();
    assert.equal((await jobOf(jobId)).status, 'error');
    assert.deepEqual(syncEventsOf(jobId), []);
  });
});
