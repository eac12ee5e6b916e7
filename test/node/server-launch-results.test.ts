/**
 * A launch's result a lender can act on (#47), against the real sandbox in both of its modes: `full` (its kind
 * answers) and `spec` (only the fields the spec shows, as a service that sends no more would). A `success` only
 * when the service confirms the account's end user, its Link token and the job's success; a job still running is
 * waited for, a failed one refused with the launch left open; what the service does not send is `unconfirmed`, and
 * `confirm(account.added)` or `recheck()` still make one `success`. Final on a shared store across four instances
 * and after a restart; the token cap and the check bound counted there; a flood of reports from one URL costs the
 * service a handful of reads. Where a test stands a service in front of the sandbox (a fetch that leaves fields
 * out, or counts), that is outside the system under test, and the test says so.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createClient } from 'redis';
import { createPayrollClient, type PayrollClient } from '../../src/server/index.js';
import {
  createLinkLaunches,
  memoryLaunchStore,
  type LaunchResult,
  type LaunchStore,
  type LinkLaunches,
  type LinkLaunchesOptions,
} from '../../src/server/launches.js';
import { postgresEventStore } from '../../src/server/postgres.js';
import { redisEventStore } from '../../src/server/redis.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { connectAccount, linkApi, platformOfType, sessionOf, startTestSandbox, waitForLinkJob } from './sandbox-test-client.js';
import { captureLog } from './server-example-upstream.js';
import { startPostgres, startRedis, type PrivatePostgres, type PrivateRedis } from '../private-servers.js';

const PUBLIC_URL = 'https://app.example.com/link';
const SECRET = 'launch-secret-0123456789abcdef-0123456789';
const MODES = ['full', 'spec'] as const;
type Mode = (typeof MODES)[number];

const sandboxes = {} as Record<Mode, Sandbox>;
const clients = {} as Record<Mode, PayrollClient>;
let redis: PrivateRedis;
let postgres: PrivatePostgres;
const closers: (() => Promise<void> | void)[] = [];

before(async () => {
  // The sandbox's default limit (10/s) on, and the client paced under it, as an integrator's would be.
  for (const fields of MODES) {
    sandboxes[fields] = await startTestSandbox({ rateLimitPerSecond: 10, fields });
    clients[fields] = clientOf(sandboxes[fields]);
  }
  [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
});
after(async () => {
  for (const close of closers) await close();
  await Promise.all([...Object.values(sandboxes).map((sandbox) => sandbox.close()), redis?.stop(), postgres?.stop()]);
});

function clientOf(
  sandbox: Sandbox,
  fetch?: typeof globalThis.fetch,
  shareLimitWith?: PayrollClient,
  maxRetries = fetch ? 0 : undefined,
): PayrollClient {
  return createPayrollClient({
    apiSecret: sandbox.secret,
    baseUrl: sandbox.url,
    version: '2025-07-08',
    mode: 'sandbox',
    ...(fetch && { fetch }),
    ...(maxRetries !== undefined && { maxRetries }),
    // The same secret: one limit with the other client.
    ...(shareLimitWith && { rateLimit: shareLimitWith.rateLimiter!, mode: undefined }),
  });
}

const shared = {
  Redis: async (options: Parameters<typeof redisEventStore>[1] = {}) => {
    const connection = createClient({ socket: { path: redis.socketPath, reconnectStrategy: () => 50 } });
    await connection.connect();
    closers.push(() => connection.destroy());
    return { store: redisEventStore(connection, options), connection };
  },
  PostgreSQL: async () => {
    const pool = new pg.Pool({ ...postgres.connection, connectionTimeoutMillis: 2_000 });
    closers.push(() => pool.end());
    return { store: postgresEventStore(pool), connection: null };
  },
};

/** Launches on the sandbox of `fields`, recording each onResult; `overrides` replace the defaults. */
function launchesOn(fields: Mode, overrides: Partial<LinkLaunchesOptions> = {}) {
  const results: LaunchResult[] = [];
  const { log, lines } = captureLog();
  const launches = createLinkLaunches({
    client: clients[fields],
    orgName: 'Acme Lending',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    linkUrl: `${sandboxes[fields].url}/link`,
    publicUrl: PUBLIC_URL,
    redirectUris: ['com.acme.app:/payroll-done', 'https://app.example.com/payroll-done'],
    secret: SECRET,
    log,
    onResult: (result) => void results.push(result),
    ...overrides,
  });
  return { launches, results, lines, sandbox: sandboxes[fields] };
}

const at = (url: string) => new Request(url);
const post = (url: string, body: unknown = {}) =>
  new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(PUBLIC_URL).origin },
    body: JSON.stringify(body),
  });

type Minted = { data: { id: string; token: string; expires: string; mode: string }; receipt: string };

/** Mints a token through the launch's token route, as the page does on the user's tap. */
async function mintAt(launches: LinkLaunches, url: string): Promise<Minted> {
  const response = await launches.handle(post(`${url}/token`));
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as Minted;
}

/** A launch of `endUserId`, a token minted on its page, and an account connected with that token (its job run). */
async function connectedLaunch(fields: Mode, launches: LinkLaunches, endUserId: string) {
  const { id, url } = await launches.create({ endUserId });
  const minted = await mintAt(launches, url);
  const ids = await connectAccount(sandboxes[fields], { token: minted.data });
  return { id, url, minted, ids };
}

/** Logs in through the Link API with a launch's token, starting no job: the account and its job, still pending. */
async function loginOnly(sandbox: Sandbox, token: Minted['data'], username = 'user_good') {
  const session = await sessionOf(sandbox, token.token);
  const login = await linkApi(sandbox, 'POST', '/link/api/login', session, {
    platform_id: platformOfType(sandbox, 'payroll').id,
    username,
    password: 'pass_good',
  });
  assert.equal(login.status, 200, login.text);
  return { session, accountId: login.body.data.account_id as string, jobId: login.body.data.job_id as string };
}

/** Runs the job of a Link session to its end, as the Link page does after the allocation. */
async function runJob(sandbox: Sandbox, session: string, jobId: string) {
  const run = await linkApi(sandbox, 'POST', `/link/api/jobs/${jobId}/run`, session, { allocation: { type: 'amount', value: 5000 } });
  assert.equal(run.status, 202, run.text);
  await waitForLinkJob(sandbox, session, jobId);
}

const successOf = (minted: Minted, ids: { accountId: string; jobId: string }) => ({
  status: 'success',
  linkTokenId: minted.data.id,
  accountId: ids.accountId,
  jobId: ids.jobId,
  receipt: minted.receipt,
});

/** The `account.added` the sandbox sent for a Link token, as the webhook receiver hands it to `onEvent`. */
function accountAddedOf(sandbox: Sandbox, linkTokenId: string) {
  const event = sandbox.store.events.find(
    (sent) => sent.event === 'account.added' && (sent.payload as { link_token_id?: string }).link_token_id === linkTokenId,
  );
  assert.ok(event, `no account.added for ${linkTokenId}`);
  return structuredClone(event);
}

const statuses = (results: LaunchResult[]) =>
  results.map((result) => (result.status === 'unconfirmed' ? [result.status, result.unconfirmed] : [result.status]));

describe('results in full mode: a success is the service’s word', () => {
  test('a success confirmed by the service runs onResult once and redirects with the launch id, status and state; then the link is final', async () => {
    const { launches, results } = launchesOn('full');
    const { id, url } = await launches.create({ endUserId: 'user-ok', state: 'app-state', redirectUri: 'com.acme.app:/payroll-done' });
    const minted = await mintAt(launches, url);
    const { accountId, jobId } = await connectAccount(sandboxes.full, { token: minted.data });
    const answer = await launches.handle(post(`${url}/result`, successOf(minted, { accountId, jobId })));
    assert.equal(answer.status, 200, await answer.clone().text());
    const redirect = new URL(((await answer.json()) as { data: { redirect: string } }).data.redirect);
    assert.equal(`${redirect.protocol}${redirect.pathname}`, 'com.acme.app:/payroll-done');
    assert.deepEqual(Object.fromEntries(redirect.searchParams), { launch_id: id, status: 'success', state: 'app-state' });
    assert.deepEqual(results, [
      { launchId: id, endUserId: 'user-ok', state: 'app-state', status: 'success', accountId, jobId, linkTokenId: minted.data.id },
    ]);
    assert.equal((await launches.handle(post(`${url}/result`, successOf(minted, { accountId, jobId })))).status, 200);
    assert.equal(results.length, 1, 'sent again: nothing run');
    const page = await (await launches.handle(at(url))).text();
    assert.match(page, /already connected/);
    assert.equal((await launches.handle(post(`${url}/token`))).status, 409);
  });

  test('a forged success for a job still pending gets 202 and runs nothing; once the job has succeeded, one success', async () => {
    const { launches, results } = launchesOn('full');
    const { url } = await launches.create({ endUserId: 'user-pending' });
    const minted = await mintAt(launches, url);
    const { session, accountId, jobId } = await loginOnly(sandboxes.full, minted.data);
    const early = await launches.handle(post(`${url}/result`, successOf(minted, { accountId, jobId })));
    assert.equal(early.status, 202, await early.clone().text());
    assert.deepEqual(await early.json(), { data: { status: 'waiting' } });
    assert.equal(early.headers.get('retry-after'), '5');
    assert.deepEqual(results, [], 'nothing for a job that has not run');
    assert.equal((await launches.handle(at(url))).status, 200, 'still open');
    await runJob(sandboxes.full, session, jobId);
    assert.equal((await launches.handle(post(`${url}/result`, successOf(minted, { accountId, jobId })))).status, 200);
    assert.deepEqual(statuses(results), [['success']]);
  });

  test('a forged success for a job that failed is refused (403, the spec’s error body) and leaves the launch open', async () => {
    const { launches, results, lines } = launchesOn('full');
    const { url } = await launches.create({ endUserId: 'user-failed' });
    const minted = await mintAt(launches, url);
    const ids = await connectAccount(sandboxes.full, { token: minted.data, username: 'user_error' });
    const refused = await launches.handle(post(`${url}/result`, successOf(minted, ids)));
    assert.equal(refused.status, 403);
    assert.match(await refused.text(), /"error_code":"RESULT_NOT_VERIFIED"/);
    assert.ok(
      lines.some((line) => /a success was refused: the job ended with error/.test(line)),
      lines.join('\n'),
    );
    assert.deepEqual(results, []);
    assert.match(await (await launches.handle(at(url))).text(), /<payroll-link/, 'the flow page, not a notice');
    await mintAt(launches, url);
  });

  test("refused, changing nothing: a forged receipt, another launch's receipt, another end user's account, another account's job", async () => {
    const { launches, results } = launchesOn('full');
    const { url, minted, ids: mine } = await connectedLaunch('full', launches, 'user-a');
    const { minted: other, ids: theirs } = await connectedLaunch('full', launches, 'user-b');
    const refusals = [
      { ...successOf(minted, mine), receipt: `${minted.receipt.slice(0, -2)}AA` },
      successOf(other, theirs),
      successOf(minted, theirs),
      successOf(minted, { accountId: mine.accountId, jobId: theirs.jobId }),
      successOf(minted, { accountId: crypto.randomUUID(), jobId: crypto.randomUUID() }),
    ];
    for (const report of refusals) {
      const answer = await launches.handle(post(`${url}/result`, report));
      assert.equal(answer.status, 403, JSON.stringify(report));
    }
    assert.equal(
      (await launches.handle(post(`${url}/result`, { status: 'won', linkTokenId: minted.data.id, receipt: minted.receipt }))).status,
      400,
    );
    assert.deepEqual(results, []);
    assert.equal((await launches.handle(post(`${url}/result`, successOf(minted, mine)))).status, 200);
    assert.deepEqual(statuses(results), [['success']]);
  });

  test('an exit runs onResult once per token and ends nothing; without a redirect the answer says so', async () => {
    const { launches, results } = launchesOn('full');
    const { id, url } = await launches.create({ endUserId: 'user-exit' });
    const first = await mintAt(launches, url);
    const exit = { status: 'exit', linkTokenId: first.data.id, exitReason: 'user_closed', receipt: first.receipt };
    assert.deepEqual(await (await launches.handle(post(`${url}/result`, exit))).json(), { data: { status: 'exit', redirect: null } });
    await launches.handle(post(`${url}/result`, exit));
    const second = await mintAt(launches, url);
    await launches.handle(post(`${url}/result`, { ...exit, linkTokenId: second.data.id, receipt: second.receipt }));
    assert.deepEqual(results, [
      { launchId: id, endUserId: 'user-exit', state: null, status: 'exit', linkTokenId: first.data.id, exitReason: 'user_closed' },
      { launchId: id, endUserId: 'user-exit', state: null, status: 'exit', linkTokenId: second.data.id, exitReason: 'user_closed' },
    ]);
    assert.equal((await launches.handle(at(url))).status, 200, 'the link stays usable');
  });

  test('a result reported after its Link token could be in use is refused (410), though its receipt opens', async (t) => {
    const { launches, results } = launchesOn('full');
    const { url } = await launches.create({ endUserId: 'user-late-report' });
    const minted = await mintAt(launches, url);
    const exit = { status: 'exit', linkTokenId: minted.data.id, exitReason: 'user_closed', receipt: minted.receipt };
    // Past the token's own expiry (the sandbox's tokens live an hour): nothing but the clock read on this path.
    t.mock.timers.enable({ apis: ['Date'], now: Date.parse(minted.data.expires) + 1_000 });
    const late = await launches.handle(post(`${url}/result`, exit));
    t.mock.timers.reset();
    assert.equal(late.status, 410);
    assert.match(await late.text(), /LAUNCH_EXPIRED/);
    assert.deepEqual(results, []);
  });

  test('a store that fails while a result is reported answers 503 STORE_UNAVAILABLE, which the page retries: the result is not lost', async () => {
    // Outside the system under test: a shared store that is down for a while (a memory store behind it).
    const memory = memoryLaunchStore();
    let down = false;
    const guard =
      <A extends unknown[], R>(call: (...args: A) => R) =>
      (...args: A): R => {
        if (down) throw new Error('connection refused');
        return call(...args);
      };
    const store: LaunchStore = {
      get: guard((key) => memory.get(key)),
      add: guard((key, value, until) => memory.add(key, value, until)),
      set: guard((key, value, until) => memory.set(key, value, until)),
      remove: guard((key, value) => memory.remove(key, value)),
      increment: guard((key, until) => memory.increment(key, until)),
    };
    const { launches, results, lines } = launchesOn('full', { store });
    const { url } = await launches.create({ endUserId: 'user-store-down' });
    const minted = await mintAt(launches, url);
    const ids = await connectAccount(sandboxes.full, { token: minted.data });
    down = true;
    const refused = await launches.handle(post(`${url}/result`, successOf(minted, ids)));
    assert.equal(refused.status, 503);
    assert.match(await refused.text(), /STORE_UNAVAILABLE/);
    assert.ok(
      lines.some((line) => /link launch: the store failed: .*connection refused; answering 503/.test(line)),
      lines.join('\n'),
    );
    down = false;
    assert.equal((await launches.handle(post(`${url}/result`, successOf(minted, ids)))).status, 200);
    assert.deepEqual(statuses(results), [['success']]);
  });

  test('150 success reports from one URL cost the service a handful of reads, and another launch mints meanwhile', async () => {
    // Outside the system under test: a fetch that counts the reads the checks make.
    let reads = 0;
    const counting: typeof fetch = (input, init) => {
      if (/\/v1\/(accounts|jobs)\//.test(new URL(String(input)).pathname)) reads++;
      return fetch(input, init);
    };
    // Retries as a client has them by default: the reads are paced under the sandbox's 10/s, but a loaded machine
    // may deliver two of them closer than that (a 429, seen in 2 of 7 runs at load 11), which must not be a 503 here.
    // A retried read counts twice; the bound below leaves room for it.
    const { launches, results } = launchesOn('full', { client: clientOf(sandboxes.full, counting, clients.full, 2) });
    const { url } = await launches.create({ endUserId: 'user-flood' });
    const minted = await mintAt(launches, url);
    const { url: otherUrl } = await launches.create({ endUserId: 'user-bystander' });
    const bogus = () => successOf(minted, { accountId: crypto.randomUUID(), jobId: crypto.randomUUID() });
    const [answers, bystander] = await Promise.all([
      Promise.all(Array.from({ length: 150 }, () => launches.handle(post(`${url}/result`, bogus())))),
      launches.handle(post(`${otherUrl}/token`)),
    ]);
    assert.equal(bystander.status, 200, await bystander.text());
    const counts = new Map<number, Response[]>();
    for (const answer of answers) counts.set(answer.status, [...(counts.get(answer.status) ?? []), answer]);
    // 12 checks a minute, 2 reads each; the run may straddle two minutes.
    assert.ok(reads <= 2 * 2 * 12, `${reads} reads`);
    assert.ok((counts.get(429)?.length ?? 0) >= 150 - 2 * 12, JSON.stringify([...counts].map(([status, list]) => [status, list.length])));
    assert.deepEqual([...counts.keys()].sort(), [403, 429]);
    assert.deepEqual(results, []);
  });
});

describe('results when the service sends only what the spec shows', () => {
  test('spec mode: a success is unconfirmed (end_user_id, link_token_id, job_status), once per Link token, and the launch stays open', async () => {
    const { launches, results } = launchesOn('spec');
    const { id, url } = await launches.create({ endUserId: 'user-spec' });
    const minted = await mintAt(launches, url);
    const ids = await connectAccount(sandboxes.spec, { token: minted.data });
    const answer = await launches.handle(post(`${url}/result`, successOf(minted, ids)));
    assert.equal(answer.status, 200, await answer.clone().text());
    assert.deepEqual(await answer.json(), { data: { status: 'success', redirect: null } }, 'the flow ended in success for the user');
    await launches.handle(post(`${url}/result`, successOf(minted, ids)));
    assert.deepEqual(results, [
      {
        launchId: id,
        endUserId: 'user-spec',
        state: null,
        status: 'unconfirmed',
        accountId: ids.accountId,
        jobId: ids.jobId,
        linkTokenId: minted.data.id,
        unconfirmed: ['end_user_id', 'link_token_id', 'job_status'],
      },
    ]);
    assert.match(await (await launches.handle(at(url))).text(), /<payroll-link/, 'not final: the link still opens');
  });

  test("spec mode: Alice's receipt with Bob's account and job is never a success", async () => {
    const { launches, results } = launchesOn('spec');
    const { url, minted: alice } = await connectedLaunch('spec', launches, 'alice');
    const { minted: bob, ids: bobIds } = await connectedLaunch('spec', launches, 'bob');
    await launches.handle(post(`${url}/result`, successOf(alice, bobIds)));
    assert.deepEqual(statuses(results), [['unconfirmed', ['end_user_id', 'link_token_id', 'job_status']]]);
    // Alice's token's account.added names her own account: the report naming Bob's is now refused.
    assert.equal(await launches.confirm(accountAddedOf(sandboxes.spec, alice.data.id)), 'refused');
    assert.equal(await launches.confirm(accountAddedOf(sandboxes.spec, bob.data.id)), 'recorded');
    assert.equal((await launches.handle(post(`${url}/result`, successOf(alice, bobIds)))).status, 403);
    assert.ok(!results.some((result) => result.status === 'success'));
  });

  test('spec mode: the sandbox’s account.added through confirm() leaves only job_status unconfirmed, before the report or after it', async () => {
    const { launches, results } = launchesOn('spec');
    // After: the report's onResult lists three facts; confirm() settles the account's two.
    const { url } = await launches.create({ endUserId: 'user-after' });
    const minted = await mintAt(launches, url);
    const ids = await connectAccount(sandboxes.spec, { token: minted.data });
    await launches.handle(post(`${url}/result`, successOf(minted, ids)));
    assert.equal(await launches.confirm(accountAddedOf(sandboxes.spec, minted.data.id)), 'unconfirmed');
    // Before: kept until the report, whose onResult then lists only the job's status.
    const { url: beforeUrl } = await launches.create({ endUserId: 'user-before' });
    const early = await mintAt(launches, beforeUrl);
    const earlyIds = await connectAccount(sandboxes.spec, { token: early.data });
    assert.equal(await launches.confirm(accountAddedOf(sandboxes.spec, early.data.id)), 'recorded');
    await launches.handle(post(`${beforeUrl}/result`, successOf(early, earlyIds)));
    assert.deepEqual(statuses(results), [
      ['unconfirmed', ['end_user_id', 'link_token_id', 'job_status']],
      ['unconfirmed', ['job_status']],
    ]);
    assert.equal(await launches.confirm({ event: 'paystubs.added', event_id: crypto.randomUUID(), payload: {} }), 'not-a-launch');
    assert.equal(await launches.confirm({ nonsense: true }), 'not-a-launch');
  });

  test('a service that leaves out the account’s end_user_id and link_token_id: unconfirmed, then confirm(account.added) gives one success', async () => {
    // Outside the system under test: a service in front of the full sandbox that sends no account field the spec
    // does not show, but its jobs whole.
    const trimming: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (!/\/v1\/accounts\/[^/]+$/.test(new URL(String(input)).pathname)) return answer;
      const body = (await answer.json()) as { data: Record<string, unknown> };
      delete body.data.end_user_id;
      delete body.data.link_token_id;
      return Response.json(body, { status: answer.status, headers: answer.headers });
    };
    const { launches, results } = launchesOn('full', { client: clientOf(sandboxes.full, trimming, clients.full) });
    const { url } = await launches.create({ endUserId: 'user-trimmed' });
    const minted = await mintAt(launches, url);
    const ids = await connectAccount(sandboxes.full, { token: minted.data });
    await launches.handle(post(`${url}/result`, successOf(minted, ids)));
    const event = accountAddedOf(sandboxes.full, minted.data.id);
    assert.equal(await launches.confirm(event), 'success');
    assert.equal(await launches.confirm(event), 'success', 'a redelivery runs nothing');
    assert.deepEqual(statuses(results), [['unconfirmed', ['end_user_id', 'link_token_id']], ['success']]);
    assert.equal((await launches.handle(post(`${url}/token`))).status, 409, 'final');
  });

  test('recheck(): a job whose status the service did not send at first is read again: one success', async () => {
    // Outside the system under test: a service whose job answers carry no status until `complete` (then whole).
    let complete = false;
    const statusless: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (complete || !/\/v1\/jobs\/[^/]+$/.test(new URL(String(input)).pathname)) return answer;
      const body = (await answer.json()) as { data: Record<string, unknown> };
      delete body.data.status;
      return Response.json(body, { status: answer.status, headers: answer.headers });
    };
    const { launches, results } = launchesOn('full', { client: clientOf(sandboxes.full, statusless, clients.full) });
    const { id, url } = await launches.create({ endUserId: 'user-recheck' });
    const minted = await mintAt(launches, url);
    const ids = await connectAccount(sandboxes.full, { token: minted.data });
    await launches.handle(post(`${url}/result`, successOf(minted, ids)));
    assert.equal(await launches.recheck(id), 'unconfirmed');
    complete = true;
    assert.equal(await launches.recheck(id), 'success');
    assert.equal(await launches.recheck(id), 'success');
    assert.deepEqual(statuses(results), [['unconfirmed', ['job_status']], ['success']]);
    assert.equal(await launches.recheck(crypto.randomUUID()), 'not-reported');
    await assert.rejects(launches.recheck('nope'), { name: 'ConfigError' });
  });
});

describe('results on a shared store: final everywhere, limits counted across instances', () => {
  for (const [name, makeStore] of Object.entries(shared)) {
    for (const fields of MODES) {
      test(`${name}, ${fields} mode: 4 instances mint 5 tokens in all; a success runs once and stays final after a restart`, async () => {
        const { store } = await makeStore();
        const instances = Array.from({ length: 4 }, () => launchesOn(fields, { store }));
        const { url } = await instances[0]!.launches.create({ endUserId: `user-${name}-${fields}` });
        const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => instances[i % 4]!.launches.handle(post(`${url}/token`))));
        assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 200, 200, 200, 200, 429, 429, 429]);
        const minted = (await answers.find((answer) => answer.status === 200)!.json()) as Minted;
        const ids = await connectAccount(sandboxes[fields], { token: minted.data });
        if (fields === 'spec') {
          // The spec's path to a success: the webhook ties the account to the token, and the job's status is read
          // where the service sends it; in spec mode it sends none, so the success stays unconfirmed.
          await instances[1]!.launches.confirm(accountAddedOf(sandboxes.spec, minted.data.id));
        }
        const reports = await Promise.all(instances.map(({ launches }) => launches.handle(post(`${url}/result`, successOf(minted, ids)))));
        for (const answer of reports) assert.ok([200, 503].includes(answer.status), String(answer.status));
        const all = instances.flatMap(({ results }) => results);
        if (fields === 'spec') {
          assert.deepEqual(statuses(all), [['unconfirmed', ['job_status']]]);
          return;
        }
        assert.deepEqual(statuses(all), [['success']]);
        // A restart: a new instance on the same store.
        const restarted = launchesOn(fields, { store });
        assert.match(await (await restarted.launches.handle(at(url))).text(), /already connected/);
        assert.equal((await restarted.launches.handle(post(`${url}/token`))).status, 409);
        assert.equal((await restarted.launches.handle(post(`${url}/result`, successOf(minted, ids)))).status, 200);
        assert.deepEqual(restarted.results, []);
      });
    }

    test(`${name}: a revoke holds on every instance and after a restart; the check bound counts across instances`, async () => {
      const { store } = await makeStore();
      const instances = Array.from({ length: 4 }, () => launchesOn('full', { store }));
      const { id, url } = await instances[0]!.launches.create({ endUserId: `user-revoked-${name}` });
      const minted = await mintAt(instances[1]!.launches, url);
      const bogus = () => successOf(minted, { accountId: crypto.randomUUID(), jobId: crypto.randomUUID() });
      const checks = await Promise.all(
        Array.from({ length: 30 }, (_, i) => instances[i % 4]!.launches.handle(post(`${url}/result`, bogus()))),
      );
      // 12 a minute in all, not per instance (the run may straddle two minutes).
      assert.ok(checks.filter((answer) => answer.status === 429).length >= 30 - 2 * 12);
      await instances[2]!.launches.revoke(id);
      for (const { launches } of [...instances, launchesOn('full', { store })]) {
        assert.equal((await launches.handle(at(url))).status, 410);
        assert.equal((await launches.handle(post(`${url}/token`))).status, 410);
      }
      const exit = { status: 'exit', linkTokenId: minted.data.id, exitReason: 'user_closed', receipt: minted.receipt };
      assert.equal((await instances[3]!.launches.handle(post(`${url}/result`, exit))).status, 410);
    });
  }

  test('Redis: a doneTtlSeconds shorter than ttlSeconds does not shorten a launch’s records', async () => {
    const { store, connection } = await shared.Redis({ doneTtlSeconds: 1 });
    const { launches } = launchesOn('full', { store, ttlSeconds: 86_400 });
    const { id } = await launches.create({ endUserId: 'user-ttl' });
    await launches.revoke(id);
    const keys = await connection!.keys(`*${id}*`);
    assert.equal(keys.length, 1, keys.join());
    assert.ok((await connection!.pTTL(keys[0]!)) > 86_400_000, 'kept past the launch’s life');
  });

  test('an exit after the success runs nothing; the redirect is found by value on an instance whose list is reordered', async () => {
    const { store } = await shared.Redis();
    const { launches, results } = launchesOn('full', { store });
    const reordered = launchesOn('full', { store, redirectUris: ['https://app.example.com/payroll-done', 'com.acme.app:/payroll-done'] });
    const { url } = await launches.create({ endUserId: 'user-order', redirectUri: 'com.acme.app:/payroll-done' });
    const first = await mintAt(launches, url);
    const ids = await connectAccount(sandboxes.full, { token: first.data });
    const answer = await reordered.launches.handle(post(`${url}/result`, successOf(first, ids)));
    assert.equal(answer.status, 200);
    assert.match(((await answer.json()) as { data: { redirect: string } }).data.redirect, /^com\.acme\.app:\/payroll-done\?/);
    const exit = {
      status: 'exit',
      linkTokenId: first.data.id,
      exitReason: 'completed',
      accountId: crypto.randomUUID(),
      receipt: first.receipt,
    };
    const late = await launches.handle(post(`${url}/result`, exit));
    assert.equal(((await late.json()) as { data: { status: string } }).data.status, 'success');
    assert.equal(results.length + reordered.results.length, 1);
  });
});
