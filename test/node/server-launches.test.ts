/**
 * createLinkLaunches (#42, #47) against the real sandbox: the options' checks, what create() gives, the page's
 * headers, nothing minted without the user's tap (the sandbox's own count of tokens), the token route's end user
 * and limit. Results are in server-launch-results.test.ts. The page's script is the sources' stand-in here (see
 * launch-page-script.ts): the page's behaviour in browsers is the e2e test's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPayrollClient, type PayrollClient } from '../../src/server/index.js';
import { createLinkLaunches, memoryLaunchStore, type LinkLaunchesOptions } from '../../src/server/launches.js';
import { memoryEventIdStore } from '../../src/server/webhooks/event-id-store.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { connectAccount, startTestSandbox } from './sandbox-test-client.js';
import { captureLog } from './server-example-upstream.js';

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
  const results: unknown[] = [];
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
      // Without a shared store a completion lives in one process: a link that outlives a deploy would open again.
      [{ ttlSeconds: 901 }, /ttlSeconds: is at most 900 without a shared store/],
    ];
    for (const [overrides, field] of refused)
      assert.throws(
        () => launchesWith(overrides as Partial<LinkLaunchesOptions>),
        (error: Error) => error.name === 'ConfigError' && field.test(error.message),
        JSON.stringify(overrides),
      );
    // Accepted: an app's own scheme (reverse-DNS, or listed in allowCustomSchemes), http on loopback, a rotation pair.
    launchesWith({
      redirectUris: ['com.acme.app:/done', 'acmeapp://done', 'http://127.0.0.1:3000/done'],
      allowCustomSchemes: ['acmeapp'],
      secret: [SECRET, `${SECRET}-old`],
    });
  });

  test('without a shared store (none, or a memory store passed explicitly) it warns once at start-up, naming the fix; revoke() needs one', async () => {
    for (const store of [undefined, memoryEventIdStore(), memoryLaunchStore()]) {
      const { launches, lines } = launchesWith({ store });
      const warnings = lines.filter((line) => line.startsWith('warn'));
      assert.equal(warnings.length, 1, lines.join('\n'));
      assert.match(warnings[0]!, /no shared store.*A texted link needs a shared store: createLinkLaunches\(\{ store: redisEventStore/);
      // A revocation held by one process would not hold on the others, nor after a restart.
      await assert.rejects(launches.revoke(crypto.randomUUID()), /needs a store shared by your instances/);
    }
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
