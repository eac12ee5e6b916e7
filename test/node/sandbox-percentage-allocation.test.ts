/**
 * `supports_percentage_allocation` (on Employer and Platform) is enforced: a
 * percentage allocation for an employer or platform without it is 400
 * PERCENTAGE_ALLOCATION_NOT_SUPPORTED, wherever the allocation comes from
 * (Link, an on-demand job, a Link token's preset), and the Link login answer
 * tells the page whether to offer a percentage at all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { api, assertError, linkApi, linkTokenBody, openSession, startTestSandbox, waitForLinkJob } from './sandbox-test-client.js';

const PERCENTAGE = { type: 'percentage', value: 40 } as const;

describe('sandbox: percentage allocations only where supported', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(() => sandbox.close());

  /** Catalogue picks: payroll platforms with and without percentage, and an employer without it on a platform with it. */
  const picks = () => {
    const { platforms, employers } = sandbox.store.catalogue;
    const payroll = platforms.map(({ item }) => item).filter((platform) => platform.type === 'payroll');
    const withPercentage = payroll.find((platform) => platform.supports_percentage_allocation)!;
    const withoutPercentage = payroll.find((platform) => !platform.supports_percentage_allocation)!;
    const narrowingEmployer = employers
      .map(({ item }) => item)
      .find(
        (employer) =>
          !employer.supports_percentage_allocation &&
          payroll.some((p) => p.id === employer.platform_id && p.supports_percentage_allocation),
      )!;
    assert.ok(withPercentage && withoutPercentage && narrowingEmployer, 'the catalogue has every case');
    return { withPercentage, withoutPercentage, narrowingEmployer };
  };

  /** Logs in through the Link API; returns the session and the login answer's data. */
  const logIn = async (target: { platform_id: string; employer_id?: string }) => {
    const { session } = await openSession(sandbox);
    const response = await linkApi(sandbox, 'POST', '/link/api/login', session, {
      ...target,
      username: 'user_good',
      password: 'pass_good',
    });
    assert.equal(response.status, 200, response.text);
    return { session, login: response.body.data };
  };

  it('says in the login answer whether the employer and platform take a percentage', async () => {
    const { withPercentage, withoutPercentage, narrowingEmployer } = picks();
    assert.equal((await logIn({ platform_id: withPercentage.id })).login.supports_percentage_allocation, true);
    assert.equal((await logIn({ platform_id: withoutPercentage.id })).login.supports_percentage_allocation, false);
    const narrowed = await logIn({ platform_id: narrowingEmployer.platform_id, employer_id: narrowingEmployer.id });
    assert.equal(narrowed.login.supports_percentage_allocation, false);
  });

  it('refuses a percentage in Link where it is not supported; the job waits for another allocation', async () => {
    const { withPercentage, withoutPercentage, narrowingEmployer } = picks();
    for (const target of [
      { platform_id: withoutPercentage.id },
      { platform_id: narrowingEmployer.platform_id, employer_id: narrowingEmployer.id },
    ]) {
      const { session, login } = await logIn(target);
      const runPath = `/link/api/jobs/${login.job_id}/run`;
      assertError(await linkApi(sandbox, 'POST', runPath, session, { allocation: PERCENTAGE }), 400, 'PERCENTAGE_ALLOCATION_NOT_SUPPORTED');
      assert.equal(sandbox.store.job(login.job_id)?.started, false);
      assert.equal((await linkApi(sandbox, 'POST', runPath, session, { allocation: { type: 'amount', value: 5000 } })).status, 202);
    }
    const { session, login } = await logIn({ platform_id: withPercentage.id });
    assert.equal((await linkApi(sandbox, 'POST', `/link/api/jobs/${login.job_id}/run`, session, { allocation: PERCENTAGE })).status, 202);
    const done = await waitForLinkJob(sandbox, session, login.job_id);
    assert.deepEqual(done.body.data.params, { allocation_type: 'percentage', allocation_value: 40 });
  });

  it('refuses an on-demand percentage deposit switch where it is not supported', async () => {
    const { withPercentage, withoutPercentage } = picks();
    const without = (await logIn({ platform_id: withoutPercentage.id })).login.account_id;
    const jobs = `/v1/accounts/${without}/jobs`;
    assertError(
      await api(sandbox, 'POST', jobs, { body: { name: 'direct_deposit_switch', allocation: PERCENTAGE } }),
      400,
      'PERCENTAGE_ALLOCATION_NOT_SUPPORTED',
    );
    assert.equal(
      (await api(sandbox, 'POST', jobs, { body: { name: 'direct_deposit_switch', allocation: { type: 'remainder' } } })).status,
      200,
    );
    const withIt = (await logIn({ platform_id: withPercentage.id })).login.account_id;
    const allowed = await api(sandbox, 'POST', `/v1/accounts/${withIt}/jobs`, {
      body: { name: 'direct_deposit_switch', allocation: PERCENTAGE },
    });
    assert.equal(allowed.status, 200, allowed.text);
  });

  it('refuses a Link token presetting a percentage for an employer or platform without it', async () => {
    const { withPercentage, withoutPercentage, narrowingEmployer } = picks();
    const create = (extra: Record<string, unknown>) =>
      api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody({ allocation: PERCENTAGE, ...extra }) });
    assertError(await create({ platform_id: withoutPercentage.id }), 400, 'PERCENTAGE_ALLOCATION_NOT_SUPPORTED');
    assertError(await create({ employer_id: narrowingEmployer.id }), 400, 'PERCENTAGE_ALLOCATION_NOT_SUPPORTED');
    assert.equal((await create({ platform_id: withPercentage.id })).status, 200);
    // Nothing pinned: the user picks in Link, where the page asks again if the pick cannot take the percentage.
    assert.equal((await create({})).status, 200);
  });
});
