/**
 * The example backend against the real sandbox from `sandbox/` (in-process, on
 * free loopback ports), not a mock of it: token round trips for old and new
 * versions, a refused secret, the sandbox's rate limit, and a whole connection
 * (token → Link session → login) whose `account.added` webhook reaches the
 * receiver and whose account `GET /api/accounts` then lists.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { generateSecret } from '../../sandbox/http/auth.js';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.js';
import { DEFAULT_CLI_SECRET } from '../../sandbox/cli/cli-options.js';
import { createLinkTokenHandler, type LinkTokenHandlerConfig } from '../../src/server/link-token/link-token-handler.js';
import { exampleServerOptionsFromEnv, startExampleServer, type ExampleServer } from '../../server-example/server.js';
import { SERVICE_VERSIONS } from '../../src/server/client/service-version.js';
import type { WebhookEvent } from 'payroll-link/server';
import { LinkTokenEnvelopeSchema } from '../../src/protocol.js';
import { captureLog, serviceConfigFor } from './server-example-upstream.js';
import { freePort } from '../free-port.js';

const json = { 'content-type': 'application/json' };

function tokenRequest(body: unknown = {}): Request {
  return new Request('http://localhost/api/link-token', { method: 'POST', headers: json, body: JSON.stringify(body) });
}

/** Resolves with the first event `matches` accepts, or rejects after `ms` (a bound, not a sleep). */
function eventWaiter() {
  const seen: WebhookEvent[] = [];
  const waiters: { matches: (event: WebhookEvent) => boolean; resolve: (event: WebhookEvent) => void }[] = [];
  return {
    onEvent(event: WebhookEvent) {
      seen.push(event);
      // Resolve after the receiver has finished with the event (it logs and lists it once onEvent returns).
      setImmediate(() => {
        for (const waiter of waiters.filter((w) => w.matches(event))) waiter.resolve(event);
      });
    },
    next(matches: (event: WebhookEvent) => boolean, ms: number): Promise<WebhookEvent> {
      const already = seen.find(matches);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching webhook within ${ms} ms`)), ms);
        waiters.push({ matches, resolve: (event) => (clearTimeout(timer), resolve(event)) });
      });
    },
  };
}

/** The token handler's configuration for a running sandbox. */
function configFor(
  sandbox: Pick<Sandbox, 'secret' | 'url'>,
  overrides: Partial<LinkTokenHandlerConfig> = {},
): LinkTokenHandlerConfig & { apiSecret: string; baseUrl: string; version: (typeof SERVICE_VERSIONS)[number] } {
  return { ...serviceConfigFor(sandbox), ...overrides };
}

describe('Link tokens from the real sandbox', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0, rateLimitPerSecond: 0 });
  });
  after(() => sandbox.close());

  const config = (overrides: Partial<LinkTokenHandlerConfig> = {}) => configFor(sandbox, overrides);

  for (const version of SERVICE_VERSIONS) {
    test(`round trip with Service-Version ${version}`, async () => {
      const handle = createLinkTokenHandler(config({ version }));
      const response = await handle(tokenRequest({ end_user_id: 'user-42' }));
      assert.equal(response.status, 200);
      const envelope = LinkTokenEnvelopeSchema.parse(await response.json());
      assert.equal(envelope.data.mode, 'sandbox');
      assert.ok(Date.parse(envelope.data.expires) > Date.now());
      // What the sandbox understood from the body it was sent.
      const stored = sandbox.store.linkTokens().find((token) => token.id === envelope.data.id);
      assert.ok(stored, 'the sandbox created this token');
      assert.equal(stored.token, envelope.data.token);
      assert.equal(stored.version, version);
      assert.deepEqual(stored.jobs, ['direct_deposit_switch']);
      assert.equal(stored.solution, version <= '2021-07-28' ? null : 'Deposit Switch');
      assert.equal(stored.endUserId, 'user-42');
      assert.equal(stored.orgName, 'Acme Payroll');
    });
  }

  test('a wrong secret: the sandbox says 401, the log has its error codes, the browser a generic 502', async () => {
    const wrong = 'sandbox_not_the_right_secret';
    const { log, lines } = captureLog();
    const handle = createLinkTokenHandler(config({ apiSecret: wrong, log }));
    const response = await handle(tokenRequest());
    assert.equal(response.status, 502);
    const text = await response.text();
    assert.ok(!text.includes(wrong));
    const refused = lines.find((line) => line.includes('refused with HTTP 401'));
    assert.ok(refused, lines.join('\n'));
    assert.match(refused, /"errorCodes":\["[A-Z_]+"/, 'the sandbox error code is logged');
    assert.match(refused, /"requestId":"[0-9a-f-]{36}"/, 'with the sandbox request id');
    assert.ok(!lines.some((line) => line.includes(wrong)), 'never the secret');
  });

  test('the sandbox CLI default secret is the one the README and the start-up hint name', async () => {
    const readme = await readFile(new URL('../../server-example/README.md', import.meta.url), 'utf8');
    assert.ok(readme.includes(`PAYROLL_API_SECRET=${DEFAULT_CLI_SECRET} npm run server-example`));
    assert.throws(
      () => exampleServerOptionsFromEnv({}),
      (error: Error) => error.message.includes(`(${DEFAULT_CLI_SECRET} by default)`),
    );
  });
});

test("the sandbox's 429 is retried after its Retry-After", async () => {
  // The sandbox's clock stands still until it answers 429, then moves on by the limit's one-second window: the
  // second call outruns the limit however late a loaded machine sends it (on the real clock, a second call sent a
  // second after the first was simply answered), and the retry after Retry-After finds the window passed.
  let now = Date.now();
  const sandbox = await startSandbox({
    port: 0,
    rateLimitPerSecond: 1,
    now: () => new Date(now),
    log: (line) => {
      if (/^\S+ \S+ 429 /.test(line)) now += 1_000;
    },
  });
  try {
    const { log, lines } = captureLog();
    const handle = createLinkTokenHandler(configFor(sandbox, { log, timeouts: { attemptMs: 2_000, totalMs: 5_000 } }));
    assert.equal((await handle(tokenRequest())).status, 200);
    assert.equal((await handle(tokenRequest())).status, 200, 'the second call outran the limit and was retried');
    assert.ok(
      lines.some((line) => line.includes('HTTP 429')),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((line) => line.includes('"reason":"Retry-After"')),
      lines.join('\n'),
    );
  } finally {
    await sandbox.close();
  }
});

describe('a whole connection through the example server and the sandbox', () => {
  let sandbox: Sandbox;
  let server: ExampleServer;
  const events = eventWaiter();
  const captured = captureLog();
  before(async () => {
    const sandboxPort = await freePort();
    const secret = generateSecret();
    server = await startExampleServer({
      ...configFor({ secret, url: `http://127.0.0.1:${sandboxPort}` }, { log: captured.log }),
      port: 0,
      onWebhook: (event) => events.onEvent(event),
    });
    sandbox = await startSandbox({
      port: sandboxPort,
      secret,
      rateLimitPerSecond: 0,
      webhookUrl: server.webhookUrl,
      webhookRetryBaseMs: 50,
    });
  });
  after(async () => {
    await server.close();
    await sandbox.close();
  });

  test('token → Link login → account.added reaches the receiver → the account is listed', async () => {
    // The browser's part: ask our backend for a token.
    const tokenResponse = await fetch(`${server.url}/api/link-token`, { method: 'POST', headers: json, body: '{"end_user_id":"user-42"}' });
    assert.equal(tokenResponse.status, 200);
    const { data: token } = LinkTokenEnvelopeSchema.parse(await tokenResponse.json());

    // The hosted Link page's part, through the sandbox's own Link API.
    const session = await fetch(`${sandbox.url}/link/api/sessions`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ token: token.token }),
    });
    assert.equal(session.status, 201);
    const { session_id } = ((await session.json()) as { data: { session_id: string } }).data;
    const linkHeaders = { ...json, 'x-link-session': session_id };
    const search = await fetch(`${sandbox.url}/link/api/search?limit=50`, { headers: linkHeaders });
    const hits = ((await search.json()) as { data: { kind: string; platform_id: string; platform_type: string }[] }).data;
    const platform = hits.find((hit) => hit.kind === 'platform' && hit.platform_type === 'payroll');
    assert.ok(platform, 'the catalogue has a payroll platform');
    const login = await fetch(`${sandbox.url}/link/api/login`, {
      method: 'POST',
      headers: linkHeaders,
      body: JSON.stringify({ platform_id: platform.platform_id, username: 'user_good', password: 'pass_good' }),
    });
    assert.equal(login.status, 200);
    const { account_id } = ((await login.json()) as { data: { account_id: string } }).data;

    // The sandbox's webhook arrives at our receiver.
    const added = await events.next((event) => event.event === 'account.added' && event.payload.account_id === account_id, 60_000);
    assert.equal(added.payload.link_token_id, token.id);
    assert.equal(added.payload.end_user_id, 'user-42');
    const logged = captured.lines.find((line) => line.startsWith('info webhook account.added'));
    assert.ok(logged?.includes(account_id) && logged.includes(token.id), captured.lines.join('\n'));

    // The demo page's lists.
    const webhooks = (await (await fetch(`${server.url}/api/webhooks`)).json()) as { data: WebhookEvent[] };
    assert.ok(webhooks.data.some((event) => event.event_id === added.event_id));
    const accounts = await fetch(`${server.url}/api/accounts`);
    assert.equal(accounts.status, 200);
    const listed = ((await accounts.json()) as { data: { id: string }[] }).data.map((account) => account.id);
    assert.ok(listed.includes(account_id), `${account_id} in ${listed.join(', ')}`);

    // The secret never reached the browser's answers or the log.
    assert.ok(!captured.lines.some((line) => line.includes(sandbox.secret)));
    assert.ok(!captured.lines.some((line) => line.includes(token.token)), 'nor the token');
  });
});
