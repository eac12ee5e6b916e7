/**
 * The verdict of a reported success (#47) as a pure function of what the service sent: what the sandbox's full
 * answers confirm, what answers holding only the spec's fields leave unconfirmed, what the `account.added` webhook
 * adds, and each contradiction that refuses the report, including the forgeries an attacker holding a launch URL
 * would try (another user's account, a job that failed or is still running, an earlier switch of a reconnected
 * account). The end-to-end paths are server-launch-results.test.ts's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { verdictOf, type VerdictInput } from '../../src/server/launches/launch-verdict.js';

const [token, otherToken, account, job] = Array.from({ length: 4 }, () => crypto.randomUUID());

/** A new connection's report, with the sandbox's full answers for it; `change` replaces parts. */
function input(change: Partial<VerdictInput> = {}): VerdictInput {
  return {
    launch: { endUserId: 'alice', accountId: null },
    report: { linkTokenId: token, accountId: account, jobId: job },
    account: { id: account, end_user_id: 'alice', link_token_id: token },
    job: { id: job, name: 'direct_deposit_switch', status: 'success', account_id: account, link_token_id: token },
    heard: null,
    mintedHere: (id) => id === token,
    flowJobs: ['direct_deposit_switch'],
    ...change,
  };
}

const specOnly = { account: { id: account }, job: { id: job } };
const heard = { accountId: account, jobId: job, endUserId: 'alice' };

test('the full answers confirm every fact; answers with only the spec’s fields confirm none; the webhook adds the account’s two', async () => {
  assert.deepEqual(await verdictOf(input()), { unconfirmed: [], jobPending: false });
  assert.deepEqual(await verdictOf(input(specOnly)), { unconfirmed: ['end_user_id', 'link_token_id', 'job_status'], jobPending: false });
  assert.deepEqual(await verdictOf(input({ ...specOnly, heard })), { unconfirmed: ['job_status'], jobPending: false });
  // The webhook ties the job to the token: its status, where sent, then settles it.
  const withStatus = { ...specOnly, job: { id: job, status: 'success' } };
  assert.deepEqual(await verdictOf(input({ ...withStatus, heard })), { unconfirmed: [], jobPending: false });
  assert.deepEqual(await verdictOf(input(withStatus)), { unconfirmed: ['end_user_id', 'link_token_id', 'job_status'], jobPending: false });
});

test('a job still running is worth waiting for; one that failed, or of another kind, is refused', async () => {
  const pending = await verdictOf(input({ job: { ...input().job, status: 'pending' } }));
  assert.deepEqual(pending, { unconfirmed: ['job_status'], jobPending: true });
  assert.deepEqual(await verdictOf(input({ job: { ...input().job, status: 'error' } })), { refused: 'the job ended with error' });
  assert.deepEqual(await verdictOf(input({ job: { ...input().job, name: 'paystubs' } })), {
    refused: "the job is a paystubs, not the flow's",
  });
  assert.deepEqual(await verdictOf(input({ job: { ...input().job, status: 'queued' } })), {
    unconfirmed: ['job_status'],
    jobPending: false,
  });
});

test('contradictions refuse: another end user, another launch’s token, another account’s job, another token’s job, the webhook’s account', async () => {
  const refusals: [Partial<VerdictInput>, RegExp][] = [
    [{ account: { id: account, end_user_id: 'bob', link_token_id: token } }, /another end user/],
    [{ account: { id: account, end_user_id: 'alice', link_token_id: otherToken } }, /Link token of another launch/],
    [{ job: { ...input().job, account_id: crypto.randomUUID() } }, /another account's/],
    [{ job: { ...input().job, link_token_id: otherToken } }, /another Link token/],
    [{ ...specOnly, heard: { ...heard, accountId: crypto.randomUUID() } }, /connected another account/],
    [{ ...specOnly, heard: { ...heard, jobId: crypto.randomUUID() } }, /ran another job/],
    [{ ...specOnly, heard: { ...heard, endUserId: 'bob' } }, /another end user/],
  ];
  for (const [change, why] of refusals) {
    const verdict = await verdictOf(input(change));
    assert.ok('refused' in verdict && why.test(verdict.refused), `${JSON.stringify(change)}: ${JSON.stringify(verdict)}`);
  }
  // Another token of this same launch is still this launch's.
  const mintedTwice = input({ account: { id: account, end_user_id: 'alice', link_token_id: otherToken }, mintedHere: () => true });
  assert.deepEqual(await verdictOf(mintedTwice), { unconfirmed: [], jobPending: false });
});

test('a reconnect: only its own account; an on-demand job or an earlier flow’s switch of that account is not this flow’s', async () => {
  const reconnect = { launch: { endUserId: 'alice', accountId: account } };
  // The reconnected account was created by an earlier token: its link_token_id is not this one's, and that is fine.
  const older = { id: account, end_user_id: 'alice', link_token_id: otherToken };
  assert.deepEqual(await verdictOf(input({ ...reconnect, account: older })), { unconfirmed: [], jobPending: false });
  const elsewhere = await verdictOf(input({ ...reconnect, report: { linkTokenId: token, accountId: crypto.randomUUID(), jobId: job } }));
  assert.deepEqual(elsewhere, { refused: 'a reconnect launch connected another account' });
  const onDemand = { ...input().job, link_token_id: null };
  assert.deepEqual(await verdictOf(input({ ...reconnect, account: older, job: onDemand })), { refused: 'the job was not started by Link' });
  // A job that names its account but not its token: for a reconnected account that ties nothing.
  const untied = { id: job, name: 'direct_deposit_switch', status: 'success', account_id: account };
  assert.deepEqual(await verdictOf(input({ ...reconnect, account: older, job: untied })), {
    unconfirmed: ['job_status'],
    jobPending: false,
  });
});
