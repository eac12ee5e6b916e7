/**
 * createLinkLaunches (#42) against the real sandbox: the options' checks, what create() gives, the page's headers,
 * nothing minted without the user's tap (the sandbox's own count of tokens), the token route's end user and
 * limit, and results: checked against the service, a success once (also across two instances on Redis and
 * PostgreSQL), an exit once per token, a forged or foreign one refused. The page's script is the sources'
 * stand-in here (see launch-page-script.ts): the page's behaviour in browsers is the e2e test's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createClient } from 'redis';
import { createPayrollClient, type PayrollClient } from '../../src/server/index.js';
import { createLinkLaunches, type LaunchResult, type LinkLaunchesOptions } from '../../src/server/launches.js';
import { postgresEventStore } from '../../src/server/postgres.js';
import { memoryEventIdStore } from '../../src/server/webhooks/event-id-store.js';
import { redisEventStore } from '../../src/server/redis.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { connectAccount, startTestSandbox } from './sandbox-test-client.js';
import { captureLog } from './server-example-upstream.js';
import { startPostgres, startRedis, type PrivatePostgres, type PrivateRedis } from '../private-servers.js';

const PUBLIC_URL = 'https://app.example.com/link';
const SECRET = 'launch-secret-0123456789abcdef-0123456789';
let sandbox: Sandbox;
let client: PayrollClient;

before(async () => {
  // The sandbox's default limit (10/s) on, and the client paced under it, as an integrator's would be.
  sandbox = await startTestSandbox({ rateLimitPerSecond: 10 });
  client = createPayrollClient({ apiSecret: sandbox.secret, baseUrl: sandbox.url, version: '2025-07-08', mode: 'sandbox' });
});
after(() => sandbox.close());

/** Launches on the sandbox, recording each onResult; `overrides` replace the defaults. */
function launchesWith(overrides: Partial<LinkLaunchesOptions> = {}) {
  const results: LaunchResult[] = [];
  const { log, lines } = captureLog();
  const launches = createLinkLaunches({
    client,
    orgName: 'Acme Lending',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    linkUrl: `${sandbox.url}/link`,
    publicUrl: PUBLIC_URL,
    redirectUris: ['com.acme.app:/payroll-done', 'https://app.example.com/payroll-done'],
    secret: SECRET,
    log,
    onResult: (result) => void results.push(result),
    ...overrides,
  });
  return { launches, results, lines };
}

const at = (url: string, init: RequestInit = {}) => new Request(url, init);
const post = (url: string, body: unknown = {}) =>
  at(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(PUBLIC_URL).origin },
    body: JSON.stringify(body),
  });
const tokensAtTheSandbox = () => sandbox.store.linkTokens().length;

/** Mints a token through the launch's token route, as the page does on the user's tap. */
async function mintAt(launches: ReturnType<typeof launchesWith>['launches'], url: string) {
  const response = await launches.handle(post(`${url}/token`));
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as { data: { id: string; token: string; expires: string; mode: string }; receipt: string };
}

describe('createLinkLaunches: options and create()', () => {
  test('bad options are ConfigErrors naming the field', () => {
    const refused: [Partial<LinkLaunchesOptions> | Record<string, unknown>, RegExp][] = [
      [{ secret: 'short' }, /secret/],
      [{ publicUrl: 'http://app.example.com/link' }, /publicUrl/],
      [{ publicUrl: 'https://app.example.com/link?x=1' }, /publicUrl/],
      [{ redirectUris: ['javascript:alert(1)'] }, /redirectUris/],
      [{ redirectUris: ['chrome-extension://abc/x'] }, /redirectUris/],
      [{ redirectUris: ['http://app.example.com/done'] }, /redirectUris/],
      [{ redirectUris: ['https://user:pw@app.example.com/done'] }, /redirectUris/],
      [{ redirectUris: ['com.acme.app:/done#x'] }, /redirectUris/],
      [{ client: undefined }, /client/],
      [{ apiSecret: 'sk' }, /apiSecret/],
      [{ ttlSeconds: 604_801 }, /ttlSeconds/],
    ];
    for (const [overrides, field] of refused)
      assert.throws(
        () => launchesWith(overrides as Partial<LinkLaunchesOptions>),
        (error: Error) => error.name === 'ConfigError' && field.test(error.message),
        JSON.stringify(overrides),
      );
    // Accepted: an app's own scheme, http on loopback, a rotation pair.
    launchesWith({ redirectUris: ['acmeapp://done', 'http://127.0.0.1:3000/done'], secret: [SECRET, `${SECRET}-old`] });
  });

  test('create(): a URL under publicUrl of at most 200 characters, a public id, an ISO expiry; bad input rejected', async () => {
    const { launches } = launchesWith();
    const { id, url, expiresAt } = await launches.create({
      endUserId: 'e'.repeat(36),
      state: 's'.repeat(32),
      redirectUri: 'com.acme.app:/payroll-done',
    });
    assert.ok(url.startsWith(`${PUBLIC_URL}/`));
    assert.ok(url.length <= 200, String(url.length));
    assert.ok(!url.includes(id) && !url.includes('e'.repeat(36)));
    assert.ok(Math.abs(Date.parse(expiresAt) - (Date.now() + 900_000)) < 5_000);
    await assert.rejects(launches.create({ endUserId: 'u', redirectUri: 'com.acme.app:/other' }), { name: 'ConfigError' });
    await assert.rejects(launches.create({ endUserId: '' }), { name: 'ConfigError' });
    await assert.rejects(launches.create({ endUserId: 'u', state: 'ñ'.repeat(200) }), /state/);
    await assert.rejects(launches.create({ endUserId: 'u', extra: 1 } as never), { name: 'ConfigError' });
  });
});

describe('createLinkLaunches: the page', () => {
  test('the page mints nothing, with headers that keep it to itself; a forged URL 404, an expired one 410', async (t) => {
    const { launches } = launchesWith();
    const { url } = await launches.create({ endUserId: 'user-page' });
    const before = tokensAtTheSandbox();
    const page = await launches.handle(at(url, { headers: { 'accept-language': 'es-MX,es;q=0.9' } }));
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.equal(tokensAtTheSandbox(), before, 'no token without the tap');
    const csp = page.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!;
    assert.match(html, new RegExp(`<script nonce="${nonce.replace(/[+/=]/g, '\\$&')}">`));
    assert.equal([...html.matchAll(/<script(?![^>]*type="application\/json")/g)].length, 1, 'one executable script');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, new RegExp(`frame-src ${new URL(sandbox.url).origin}`));
    assert.match(csp, /base-uri 'none'/);
    assert.match(csp, /connect-src 'self'/);
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal(page.headers.get('x-robots-tag'), 'noindex');
    assert.match(html, /<html lang="es">/);
    assert.ok(!html.includes('user-page'), 'the page does not show the end user id');
    // A second page has a nonce of its own.
    const again = await launches.handle(at(url));
    assert.notEqual(/nonce-([^']+)/.exec(again.headers.get('content-security-policy')!)![1], nonce);

    const forged = `${url.slice(0, -3)}${url.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    assert.equal((await launches.handle(at(forged))).status, 404);
    assert.equal((await launches.handle(post(`${forged}/token`))).status, 404);
    assert.equal((await launches.handle(at('https://app.example.com/elsewhere'))).status, 404);

    t.mock.timers.enable({ apis: ['Date'], now: Date.now() - 3_600_000 });
    const { url: old } = await launches.create({ endUserId: 'user-late' });
    t.mock.timers.reset();
    const expired = await launches.handle(at(old));
    assert.equal(expired.status, 410);
    assert.match(await expired.text(), /expired/);
    assert.equal((await launches.handle(post(`${old}/token`))).status, 410);
    assert.equal(tokensAtTheSandbox(), before, 'still no token');
  });

  test('routes on the path below publicUrl, never on the host the request names', async () => {
    const { launches } = launchesWith();
    const { url } = await launches.create({ endUserId: 'user-host' });
    const elsewhere = url.replace('https://app.example.com', 'https://evil.example.net');
    assert.equal((await launches.handle(at(elsewhere))).status, 200);
  });
});

describe('createLinkLaunches: tokens', () => {
  test("each token is the launch's end user's (and account's, for a reconnect), with a receipt; the sixth is refused", async () => {
    const { launches } = launchesWith();
    const { accountId } = await connectAccount(sandbox, { endUserId: 'user-tokens' });
    const { url } = await launches.create({ endUserId: 'user-tokens', accountId });
    // The browser claims another user and account: neither counts.
    const response = await launches.handle(post(`${url}/token`, { end_user_id: 'someone-else' }));
    assert.equal(response.status, 200);
    const { data, receipt } = (await response.json()) as { data: { id: string }; receipt: string };
    assert.equal(typeof receipt, 'string');
    const record = sandbox.store.linkTokens().find((token) => token.id === data.id)!;
    assert.equal(record.endUserId, 'user-tokens');
    assert.equal(record.accountId, accountId);
    for (let i = 2; i <= 5; i++) await mintAt(launches, url);
    const sixth = await launches.handle(post(`${url}/token`));
    assert.equal(sixth.status, 429);
    assert.match(await sixth.text(), /LAUNCH_TOKEN_LIMIT/);
  });
});

describe('createLinkLaunches: results', () => {
  test('a success is checked against the service, runs onResult once, and redirects with the launch id, status and state', async () => {
    const { launches, results } = launchesWith();
    const { id, url } = await launches.create({ endUserId: 'user-ok', state: 'app-state', redirectUri: 'com.acme.app:/payroll-done' });
    const { data, receipt } = await mintAt(launches, url);
    const { accountId, jobId } = await connectAccount(sandbox, { token: data });
    const report = { status: 'success', linkTokenId: data.id, accountId, jobId, receipt };
    const answer = await launches.handle(post(`${url}/result`, report));
    assert.equal(answer.status, 200, await answer.clone().text());
    const { data: done } = (await answer.json()) as { data: { redirect: string } };
    const redirect = new URL(done.redirect);
    assert.equal(`${redirect.protocol}${redirect.pathname}`, 'com.acme.app:/payroll-done');
    assert.deepEqual(Object.fromEntries(redirect.searchParams), { launch_id: id, status: 'success', state: 'app-state' });
    assert.deepEqual(results, [
      { launchId: id, endUserId: 'user-ok', state: 'app-state', status: 'success', accountId, jobId, linkTokenId: data.id, verified: true },
    ]);
    // Sent again: answered as before, nothing run.
    assert.equal((await launches.handle(post(`${url}/result`, report))).status, 200);
    assert.equal(results.length, 1);
    // The page now says connected, with no Link frame, and mints nothing.
    const before = tokensAtTheSandbox();
    const page = await launches.handle(at(url));
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /already connected/);
    assert.ok(!html.includes('<payroll-link'));
    assert.equal((await launches.handle(post(`${url}/token`))).status, 409);
    assert.equal(tokensAtTheSandbox(), before);
  });

  test("refused, changing nothing: a forged receipt, another launch's receipt, another end user's account", async () => {
    const { launches, results, lines } = launchesWith();
    const { url } = await launches.create({ endUserId: 'user-a' });
    const { data, receipt } = await mintAt(launches, url);
    const mine = await connectAccount(sandbox, { token: data });
    const { url: otherUrl } = await launches.create({ endUserId: 'user-b' });
    const other = await mintAt(launches, otherUrl);
    const theirs = await connectAccount(sandbox, { token: other.data });

    const refusals = [
      { status: 'success', linkTokenId: data.id, accountId: mine.accountId, jobId: mine.jobId, receipt: `${receipt.slice(0, -2)}AA` },
      { status: 'success', linkTokenId: other.data.id, accountId: theirs.accountId, jobId: theirs.jobId, receipt: other.receipt },
      { status: 'success', linkTokenId: data.id, accountId: theirs.accountId, jobId: theirs.jobId, receipt },
      { status: 'success', linkTokenId: data.id, accountId: mine.accountId, jobId: theirs.jobId, receipt },
    ];
    for (const report of refusals) {
      const answer = await launches.handle(post(`${url}/result`, report));
      assert.equal(answer.status, 403, JSON.stringify(report));
      assert.match(await answer.text(), /RESULT_NOT_VERIFIED/);
    }
    assert.deepEqual(results, []);
    assert.ok(lines.some((line) => line.startsWith('warn') && line.includes('refused')));
    // Malformed: a 400 naming the field.
    const malformed = await launches.handle(post(`${url}/result`, { status: 'won', linkTokenId: data.id, receipt }));
    assert.equal(malformed.status, 400);
    // The genuine one still succeeds after all that.
    const genuine = { status: 'success', linkTokenId: data.id, accountId: mine.accountId, jobId: mine.jobId, receipt };
    assert.equal((await launches.handle(post(`${url}/result`, genuine))).status, 200);
    assert.equal(results.length, 1);
  });

  test('an exit runs onResult once per token and ends nothing; without a redirect the answer says so', async () => {
    const { launches, results } = launchesWith();
    const { id, url } = await launches.create({ endUserId: 'user-exit' });
    const first = await mintAt(launches, url);
    const exit = { status: 'exit', linkTokenId: first.data.id, exitReason: 'user_closed', receipt: first.receipt };
    const answer = await launches.handle(post(`${url}/result`, exit));
    assert.deepEqual(await answer.json(), { data: { status: 'exit', redirect: null } });
    await launches.handle(post(`${url}/result`, exit));
    const second = await mintAt(launches, url);
    await launches.handle(post(`${url}/result`, { ...exit, linkTokenId: second.data.id, receipt: second.receipt }));
    assert.deepEqual(
      results.map((result) => [result.launchId, result.status, result.linkTokenId, result.exitReason, result.verified]),
      [
        [id, 'exit', first.data.id, 'user_closed', false],
        [id, 'exit', second.data.id, 'user_closed', false],
      ],
    );
    assert.equal((await launches.handle(at(url))).status, 200, 'the link stays usable');
  });

  test('revoke(): the URL answers 410, mints nothing, and a flow under way reports nothing; it needs a store', async () => {
    const { launches, results } = launchesWith({ store: memoryEventIdStore() });
    const { id, url } = await launches.create({ endUserId: 'user-revoked' });
    const { data, receipt } = await mintAt(launches, url);
    await launches.revoke(id);
    const exit = { status: 'exit', linkTokenId: data.id, exitReason: 'user_closed', receipt };
    assert.equal((await launches.handle(post(`${url}/result`, exit))).status, 410);
    assert.deepEqual(results, []);
    const page = await launches.handle(at(url));
    assert.equal(page.status, 410);
    assert.match(await page.text(), /no longer valid/);
    assert.equal((await launches.handle(post(`${url}/token`))).status, 410);
    await assert.rejects(launches.revoke('not-a-uuid'), { name: 'ConfigError' });
    // The default store is one instance's memory, which forgets: a revocation there would not hold.
    await assert.rejects(launchesWith().launches.revoke(id), /needs a store/);
  });

  test('fields the service does not send are not checked (verified: false); its failure is a 503 the page retries', async () => {
    // Outside the system under test: a service that leaves the account's end_user_id and link_token_id out, and
    // then one that is unavailable (a fetch in front of the real sandbox).
    let unavailable = false;
    const trimming: typeof fetch = async (input, init) => {
      const url = String(input);
      if (unavailable && url.includes('/v1/accounts/')) return new Response('{}', { status: 503 });
      const answer = await fetch(input, init);
      if (!/\/v1\/accounts\/[^/]+$/.test(new URL(url).pathname)) return answer;
      const body = (await answer.json()) as { data: Record<string, unknown> };
      delete body.data.end_user_id;
      delete body.data.link_token_id;
      return Response.json(body, { status: answer.status, headers: answer.headers });
    };
    const quiet = createPayrollClient({
      apiSecret: sandbox.secret,
      baseUrl: sandbox.url,
      version: '2025-07-08',
      rateLimit: client.rateLimiter!, // the same secret: one limit with the other client
      fetch: trimming,
      maxRetries: 0,
    });
    const { launches, results } = launchesWith({ client: quiet });
    const { url } = await launches.create({ endUserId: 'user-unsent' });
    const { data, receipt } = await mintAt(launches, url);
    const { accountId, jobId } = await connectAccount(sandbox, { token: data });
    const report = { status: 'success', linkTokenId: data.id, accountId, jobId, receipt };
    unavailable = true;
    const later = await launches.handle(post(`${url}/result`, report));
    assert.equal(later.status, 503);
    assert.match(await later.text(), /RESULT_UNCONFIRMED/);
    assert.equal(results.length, 0);
    unavailable = false;
    assert.equal((await launches.handle(post(`${url}/result`, report))).status, 200);
    assert.deepEqual(
      results.map((result) => [result.status, result.accountId, result.verified]),
      [['success', accountId, false]],
    );
  });

  test('a store that fails while a result is reported answers 503 STORE_UNAVAILABLE, which the page retries: the result is not lost', async () => {
    // Outside the system under test: a store that is down for a while (the memory store behind it).
    const memory = memoryEventIdStore();
    let down = false;
    const store: typeof memory = {
      ...memory,
      isDone: async (eventId) => {
        if (down) throw new Error('connection refused');
        return await memory.isDone!(eventId);
      },
    };
    const { launches, results, lines } = launchesWith({ store });
    const { url } = await launches.create({ endUserId: 'user-store-down' });
    const { data, receipt } = await mintAt(launches, url);
    const { accountId, jobId } = await connectAccount(sandbox, { token: data });
    const report = { status: 'success', linkTokenId: data.id, accountId, jobId, receipt };
    down = true;
    const refused = await launches.handle(post(`${url}/result`, report));
    assert.equal(refused.status, 503);
    assert.match(await refused.text(), /STORE_UNAVAILABLE/);
    assert.ok(
      lines.some((line) => /link launch: the store failed: .*connection refused; answering 503/.test(line)),
      lines.join('\n'),
    );
    assert.equal(results.length, 0);
    down = false;
    assert.equal((await launches.handle(post(`${url}/result`, report))).status, 200);
    assert.deepEqual(
      results.map((result) => [result.status, result.accountId]),
      [['success', accountId]],
    );
  });

  test('an exit names no account, and after the success it runs nothing; the redirect is found by value on an instance whose list is reordered', async () => {
    const store = memoryEventIdStore();
    const { launches, results } = launchesWith({ store });
    const reordered = launchesWith({ store, redirectUris: ['https://app.example.com/payroll-done', 'com.acme.app:/payroll-done'] });
    const { url } = await launches.create({ endUserId: 'user-order', redirectUri: 'com.acme.app:/payroll-done' });
    const first = await mintAt(launches, url);
    const mine = await connectAccount(sandbox, { token: first.data });
    const success = { status: 'success', linkTokenId: first.data.id, accountId: mine.accountId, jobId: mine.jobId, receipt: first.receipt };
    const answer = await reordered.launches.handle(post(`${url}/result`, success));
    assert.equal(answer.status, 200);
    assert.match(((await answer.json()) as { data: { redirect: string } }).data.redirect, /^com\.acme\.app:\/payroll-done\?/);
    const second = await mintAt(launches, url).catch(() => null);
    assert.equal(second, null, 'no token after the success');
    // A stale exit of the first token, naming some account: answered as the success was, nothing run.
    const exit = {
      status: 'exit',
      linkTokenId: first.data.id,
      exitReason: 'completed',
      accountId: crypto.randomUUID(),
      receipt: first.receipt,
    };
    const late = await launches.handle(post(`${url}/result`, exit));
    assert.equal(late.status, 200);
    assert.equal(((await late.json()) as { data: { status: string } }).data.status, 'success');
    assert.equal(results.length + reordered.results.length, 1);
  });
});

describe('createLinkLaunches: several instances', () => {
  let redis: PrivateRedis;
  let postgres: PrivatePostgres;
  const closers: (() => Promise<void> | void)[] = [];
  before(async () => {
    [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  });
  after(async () => {
    for (const close of closers) await close();
    await Promise.all([redis.stop(), postgres.stop()]);
  });

  const stores = {
    Redis: async () => {
      const connection = createClient({ socket: { path: redis.socketPath, reconnectStrategy: () => 50 } });
      await connection.connect();
      closers.push(() => connection.destroy());
      return redisEventStore(connection);
    },
    PostgreSQL: async () => {
      const pool = new pg.Pool({ ...postgres.connection, connectionTimeoutMillis: 2_000 });
      closers.push(() => pool.end());
      return postgresEventStore(pool);
    },
  };

  for (const [name, makeStore] of Object.entries(stores)) {
    test(`${name}: a launch made on one instance opens on the other, and its success runs once across both`, async () => {
      const store = await makeStore();
      const one = launchesWith({ store });
      const two = launchesWith({ store });
      const { url } = await one.launches.create({ endUserId: `user-${name}` });
      const { data, receipt } = await mintAt(two.launches, url);
      const { accountId, jobId } = await connectAccount(sandbox, { token: data });
      const report = { status: 'success', linkTokenId: data.id, accountId, jobId, receipt };
      const answers = await Promise.all([one, two, one, two].map(({ launches }) => launches.handle(post(`${url}/result`, report))));
      for (const answer of answers) assert.ok([200, 503].includes(answer.status), String(answer.status));
      assert.equal(one.results.length + two.results.length, 1);
      // Both now say connected.
      for (const { launches } of [one, two]) assert.match(await (await launches.handle(at(url))).text(), /already connected/);
    });
  }
});
