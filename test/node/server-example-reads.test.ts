/**
 * The example backend's reads (#35): its one `PayrollClient`, shared with the
 * token handler, behind the demo page's `GET /api/accounts/{id}/summary` and
 * `GET /api/end-users/{id}/verification-reports`, and `GET /api/webhooks?after=N`,
 * which answers when the next webhook arrives. Against the real sandbox, its
 * rate limit on (the test's own trigger calls take their turn in the same limiter).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateSecret } from '../../sandbox/http/auth.js';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.js';
import { ErrorBodySchema } from '../../src/server/error-body.js';
import { inProcessRateLimiter, type RateLimiter } from '../../src/server/client/rate-limiter.js';
import { startExampleServer, type ExampleServer } from '../../server-example/server.js';
import { freePort } from '../free-port.js';
import { captureLog, serviceConfigFor } from './server-example-upstream.js';

const json = { 'content-type': 'application/json' };
const errorCode = async (response: Response) => ErrorBodySchema.parse(await response.json()).error.error_codes[0]!.error_code;

describe('example backend: reads with the client', () => {
  let sandbox: Sandbox;
  let server: ExampleServer;
  const captured = captureLog();
  // Every call that reaches the service, the example's and this test's, and every turn taken in the shared limiter.
  const calls = { sent: 0, acquired: 0 };
  const paced = inProcessRateLimiter({ perSecond: 10 });
  const limiter: RateLimiter = { acquire: (signal) => (calls.acquired++, paced.acquire(signal)) };

  before(async () => {
    const sandboxPort = await freePort();
    const secret = generateSecret();
    server = await startExampleServer({
      ...serviceConfigFor({ secret, url: `http://127.0.0.1:${sandboxPort}` }),
      log: captured.log,
      port: 0,
      rateLimit: limiter,
      fetch: (input, init) => (calls.sent++, fetch(input, init)),
    });
    sandbox = await startSandbox({ port: sandboxPort, secret, webhookUrl: server.webhookUrl, webhookRetryBaseMs: 50 });
  });
  after(async () => {
    await server.close();
    await sandbox.close();
  });

  /** A sandbox trigger (no client method: sandbox only), in its turn in the limiter the example uses. */
  const trigger = async (path: string, body: unknown) => {
    await limiter.acquire();
    calls.sent++;
    const response = await fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { ...json, 'x-api-secret': sandbox.secret, 'service-version': '2025-07-08' },
      body: JSON.stringify(body),
    });
    assert.ok(response.ok, `${path}: ${response.status}`);
    return ((await response.json()) as { data: any }).data;
  };
  const connect = async (body: Record<string, string>): Promise<string> => (await trigger('/sandbox/accounts', body)).account.id;
  const get = (path: string) => fetch(`${server.url}${path}`);

  test('the summary: the account, its employment, its income and its three latest paystubs, as the sandbox has them', async () => {
    const accountId = await connect({ end_user_id: 'reader-1' });
    const response = await get(`/api/accounts/${accountId}/summary`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const text = await response.text();
    assert.ok(!text.includes(sandbox.secret), 'never the secret');
    const { data } = JSON.parse(text);
    const stored = sandbox.store.account(accountId)!;
    assert.deepEqual(data.account, stored.account);
    assert.deepEqual(data.employment, stored.data.employment);
    assert.deepEqual(data.income, stored.data.income);
    const newestFirst = [...stored.data.paystubs].sort((a, b) => b.pay_date.localeCompare(a.pay_date)).slice(0, 3);
    assert.ok(stored.data.paystubs.length > 3);
    assert.deepEqual(data.paystubs, newestFirst);
  });

  test('a time-and-attendance account: no paystubs to list, and the summary still answers', async () => {
    const platform = sandbox.store.catalogue.platforms.find(({ item }) => item.type === 'time_and_attendance')!.item;
    const accountId = await connect({ end_user_id: 'reader-shifts', platform_id: platform.id });
    const response = await get(`/api/accounts/${accountId}/summary`);
    assert.equal(response.status, 200);
    const { data } = (await response.json()) as { data: { employment: { account_id: string }; paystubs: unknown[] } };
    assert.equal(data.employment.account_id, accountId);
    assert.deepEqual(data.paystubs, []);
  });

  test('bad input: not a UUID is a 400 before any call; an unknown account the service’s 404 with its code', async () => {
    const sent = calls.sent;
    for (const id of ['not-a-uuid', '%E0%A4%A', `${crypto.randomUUID()}x`]) {
      const response = await get(`/api/accounts/${id}/summary`);
      assert.equal(response.status, 400, id);
      assert.match(ErrorBodySchema.parse(await response.json()).error.message, /must be a UUID/);
    }
    assert.equal(calls.sent, sent, 'nothing was sent to the service');
    const unknown = '00000000-0000-4000-8000-000000000000';
    const response = await get(`/api/accounts/${unknown}/summary`);
    assert.equal(response.status, 404);
    const { error } = ErrorBodySchema.parse(await response.json());
    assert.equal(error.error_codes[0]!.error_code, 'ACCOUNT_NOT_FOUND');
    assert.ok(error.message.includes(unknown), error.message);
    assert.equal((await fetch(`${server.url}/api/accounts/${unknown}/summary`, { method: 'POST', headers: json, body: '{}' })).status, 405);
  });

  test('the verification reports of an end user: VOE and VOIE; VOIE null without a payroll account; an unknown user 404', async () => {
    const accountId = await connect({ end_user_id: 'reader/2?x' });
    const path = `/api/end-users/${encodeURIComponent('reader/2?x')}/verification-reports`;
    const response = await get(path);
    assert.equal(response.status, 200);
    const { data } = (await response.json()) as { data: { end_user_id: string; voe: any; voie: any } };
    assert.equal(data.end_user_id, 'reader/2?x');
    assert.equal(data.voe.type, 'voe');
    assert.deepEqual(data.voe.employments, [sandbox.store.account(accountId)!.data.employment]);
    assert.equal(data.voie.type, 'voie');
    assert.deepEqual(data.voie.incomes, [sandbox.store.account(accountId)!.data.income]);

    const platform = sandbox.store.catalogue.platforms.find(({ item }) => item.type === 'time_and_attendance')!.item;
    await connect({ end_user_id: 'reader-shifts-only', platform_id: platform.id });
    const shiftsOnly = (await (await get('/api/end-users/reader-shifts-only/verification-reports')).json()) as {
      data: { voe: any; voie: any };
    };
    assert.equal(shiftsOnly.data.voe.type, 'voe');
    assert.equal(shiftsOnly.data.voie, null);

    const unknown = await get('/api/end-users/nobody-here/verification-reports');
    assert.equal(unknown.status, 404);
    assert.equal(await errorCode(unknown), 'END_USER_NOT_FOUND');
    const badEncoding = await get('/api/end-users/%E0%A4%A/verification-reports');
    assert.equal(badEncoding.status, 400);
    assert.equal((await get('/api/end-users/x/elsewhere')).status, 404);
  });

  test('Refresh reports: the sandbox sends verification_reports.refreshed; GET /api/webhooks?after=N answers when it arrives', async () => {
    await connect({ end_user_id: 'reader-3' });
    const { meta } = (await (await get('/api/webhooks')).json()) as { meta: { last_seq: number } };
    const next = get(`/api/webhooks?after=${meta.last_seq}`);
    const refresh = (endUserId: string, headers: Record<string, string> = json) =>
      fetch(`${server.url}/api/end-users/${encodeURIComponent(endUserId)}/refresh_reports`, { method: 'POST', headers, body: '{}' });
    const refreshed = await refresh('reader-3');
    assert.equal(refreshed.status, 200);
    const [sent] = ((await refreshed.json()) as { data: { events: { event: string; event_id: string }[] } }).data.events;
    assert.equal(sent!.event, 'verification_reports.refreshed');
    // Other events (the first sync's) may come first: wait on, as the page does, until this one is there.
    let answer = (await (await next).json()) as { data: { event_id: string; seq: number }[]; meta: { last_seq: number } };
    for (;;) {
      assert.ok(answer.data.length > 0, 'it answered with an event, not at once with none');
      assert.ok(answer.data.every((event) => event.seq > meta.last_seq));
      if (answer.data.some((event) => event.event_id === sent!.event_id)) break;
      answer = (await (await get(`/api/webhooks?after=${answer.meta.last_seq}`)).json()) as typeof answer;
    }
    assert.equal((await get('/api/webhooks?after=soon')).status, 400);
    const nobody = await refresh('nobody-here');
    assert.equal(nobody.status, 404);
    assert.equal(await errorCode(nobody), 'END_USER_NOT_FOUND');
    assert.equal((await refresh('reader-3', { 'content-type': 'application/x-www-form-urlencoded' })).status, 415);
    assert.equal((await get('/api/end-users/reader-3/refresh_reports')).status, 405);
  });

  test('the token handler and the reads share one limiter: every call to the service took its turn', async () => {
    const token = await fetch(`${server.url}/api/link-token`, { method: 'POST', headers: json, body: '{"end_user_id":"reader-4"}' });
    assert.equal(token.status, 200);
    assert.ok(calls.sent > 10, `${calls.sent} calls`);
    assert.equal(calls.acquired, calls.sent);
    assert.ok(!captured.lines.some((line) => line.includes(sandbox.secret)), 'never the secret in the log');
  });
});

test('the service unreachable: the summary is a 503 with Retry-After, the log says why, never the secret', async () => {
  const { log, lines } = captureLog();
  const secret = generateSecret();
  const server = await startExampleServer({ ...serviceConfigFor({ secret, url: `http://127.0.0.1:${await freePort()}` }), log, port: 0 });
  try {
    const response = await fetch(`${server.url}/api/accounts/${crypto.randomUUID()}/summary`);
    assert.equal(response.status, 503);
    assert.ok(Number(response.headers.get('retry-after')) >= 1);
    assert.equal(await errorCode(response), 'UPSTREAM_UNAVAILABLE');
    assert.ok(
      lines.some((line) => line.startsWith('error payroll service: account ') && line.includes('"kind":"connection"')),
      lines.join('\n'),
    );
    assert.ok(!lines.some((line) => line.includes(secret)));
  } finally {
    await server.close();
  }
});
