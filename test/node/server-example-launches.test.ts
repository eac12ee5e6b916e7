/**
 * The example backend's launches (#42, the demo's "Send a link" panel) against the real sandbox: `POST /api/launches`
 * creates a launch for the `demo_user` cookie's user whose URL, under the public origin it was given, the launches'
 * handle serves with 200 (minting nothing); the built page script takes the stand-in's place; a result the page
 * reports reaches `GET /api/launch-results`. Before `serveLaunches`, the routes are not there.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.js';
import { ErrorBodySchema } from '../../src/server/error-body.js';
import { startExampleServer, type ExampleServer } from '../../server-example/server.js';
import { serviceConfigFor } from './server-example-upstream.js';

const json = { 'content-type': 'application/json' };
const BUILT = 'window.builtLaunchScript = "$& $1";';

describe('example backend: launches', () => {
  let sandbox: Sandbox;
  let server: ExampleServer;
  before(async () => {
    sandbox = await startSandbox({ port: 0, rateLimitPerSecond: 0 });
    server = await startExampleServer(serviceConfigFor(sandbox));
  });
  after(async () => {
    await server.close();
    await sandbox.close();
  });

  const createLaunch = (user?: string) =>
    fetch(`${server.url}/api/launches`, {
      method: 'POST',
      headers: { ...json, ...(user && { cookie: `demo_user=${encodeURIComponent(user)}` }) },
      body: '{}',
    });

  test('before serveLaunches, creating a launch and the results list are not there', async () => {
    assert.equal((await createLaunch('demo-ana')).status, 404);
    assert.equal((await fetch(`${server.url}/api/launch-results`)).status, 404);
  });

  test('a launch for the demo user: its URL is under the public origin, and the launches serve it with 200, minting nothing', async () => {
    server.serveLaunches({ linkUrl: `${sandbox.url}/link`, publicOrigin: server.url, pageScript: async () => BUILT });
    assert.throws(() => server.serveLaunches({ linkUrl: `${sandbox.url}/link`, publicOrigin: server.url }), /called once/);

    const unsigned = await createLaunch();
    assert.equal(unsigned.status, 401);
    assert.equal(ErrorBodySchema.parse(await unsigned.json()).error.error_codes[0]!.error_code, 'NOT_SIGNED_IN');

    const created = await createLaunch('demo-ana');
    assert.equal(created.status, 200);
    const { data } = (await created.json()) as { data: { id: string; url: string; expiresAt: string } };
    assert.ok(data.url.startsWith(`${server.url}/api/launches/`), data.url);
    assert.ok(Date.parse(data.expiresAt) > Date.now());

    const minted = sandbox.store.linkTokens().length;
    const page = await fetch(data.url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const html = await page.text();
    assert.match(html, /<payroll-link /);
    // The built script in the stand-in's place, under the page's nonce, `$` patterns left as they are.
    const nonce = /script-src 'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    assert.ok(html.includes(`<script nonce="${nonce}">${BUILT}</script>`), 'the built script, under the nonce');
    assert.ok(!html.includes('"unbuilt"'), 'no stand-in left');
    assert.equal(sandbox.store.linkTokens().length, minted, 'opening the page mints nothing');
  });

  test("a result the launch page reports reaches onResult, and GET /api/launch-results lists it with the launch's id", async () => {
    const { data } = (await (await createLaunch('demo-ben')).json()) as { data: { id: string; url: string } };
    // What the page does after the tap and a Link flow the user left: a token, then the exit's report with its receipt.
    const token = await fetch(`${data.url}/token`, { method: 'POST', headers: json, body: '{}' });
    assert.equal(token.status, 200);
    const { data: linkToken, receipt } = (await token.json()) as { data: { id: string }; receipt: string };
    const report = await fetch(`${data.url}/result`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ status: 'exit', linkTokenId: linkToken.id, exitReason: 'user_closed', receipt }),
    });
    assert.equal(report.status, 200);
    const listed = await fetch(`${server.url}/api/launch-results`);
    assert.equal(listed.status, 200);
    const { data: results } = (await listed.json()) as { data: Array<Record<string, unknown>> };
    assert.deepEqual(
      results.map(({ launchId, endUserId, status, linkTokenId, exitReason }) => ({ launchId, endUserId, status, linkTokenId, exitReason })),
      [{ launchId: data.id, endUserId: 'demo-ben', status: 'exit', linkTokenId: linkToken.id, exitReason: 'user_closed' }],
    );
  });
});
