// The docs' backend snippets (docs/backend.md, "Your backend: payroll-link/server"), as written, in the frameworks
// they name, from the packed package: node:http, Express 4 and 5 (global express.json()), Fastify 5,
// Hono, and a Next.js route handler. Each app runs in its own process against the real sandbox:
// it mints a token, the sandbox's Link API logs in with it, and the sandbox's real webhook reaches
// the app's handler (verified by the URL secret, typed, deduplicated). Also: a forged webhook gets
// 401; a callback that throws gets a 500 and the sandbox delivers again; Express 4 survives a
// malformed body with a body parser in front. Only `saveAccount`, which the docs leave to you,
// is supplied by the test (it prints what it saved). Needs install-toolchains.ts and
// install-packed.ts first: `npm run test:packaging` runs both.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.js';
import { connectWithToken } from '../node/sandbox-test-client.js';
import { installedPackageDir } from './install-packed.js';
import { freePort } from '../free-port.js';
import { docsSnippet } from './docs-snippet.js';
import { listening, runApp } from './app-process.js';

const serversDir = fileURLToPath(new URL('./servers/', import.meta.url));
const WEBHOOK_SECRET = 'whsec_packaging_servers_test_0123';

/** Stands in for the integrator's own data layer; the first call fails when FAIL_FIRST_SAVE is set. */
const SAVE_ACCOUNT = `let saves = 0;
const saveAccount = async (endUserId: string, accountId: string): Promise<void> => {
  if (process.env.FAIL_FIRST_SAVE && saves++ === 0) throw new Error('database down (test)');
  console.log('SAVED ' + JSON.stringify({ endUserId, accountId }));
};
`;

/** docs/backend.md's `### heading` snippet under "## Your backend" ('' for payroll.ts, above the first `###`). */
const backendSnippet = (heading: string): Promise<string> =>
  docsSnippet('docs/backend.md', 'Your backend: `payroll-link/server`', 'ts', heading === '' ? undefined : heading);

/** A running app in servers/. */
const run = (file: string, env: NodeJS.ProcessEnv) => runApp(file, serversDir, env);

const apps: { stop(): void }[] = [];
const sandboxes: Sandbox[] = [];
after(async () => {
  for (const app of apps) app.stop();
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
});

/**
 * Writes payroll.ts (the docs', with `saveAccount`) and the framework's snippet into
 * servers/<name>/, linking `express` to Express 4 where asked, and returns the entry file.
 */
async function writeApp(name: string, heading: string, file = 'server.ts', express4 = false): Promise<string> {
  const dir = `${serversDir}${name}/`;
  await rm(dir, { recursive: true, force: true });
  await mkdir(`${dir}${file.split('/').slice(0, -1).join('/')}`, { recursive: true });
  if (express4) {
    await mkdir(`${dir}node_modules`, { recursive: true });
    await symlink('../../node_modules/express-4', `${dir}node_modules/express`, 'dir');
    const linked = JSON.parse(await readFile(`${dir}node_modules/express/package.json`, 'utf8')) as { version: string };
    assert.match(linked.version, /^4\./, 'the Express 4 app resolves express to Express 4');
  }
  await writeFile(`${dir}payroll.ts`, SAVE_ACCOUNT + (await backendSnippet('')));
  await writeFile(`${dir}${file}`, await backendSnippet(heading));
  return `${dir}${file}`;
}

test('the packed package and the server toolchain are installed', () => {
  assert.ok(existsSync(`${installedPackageDir}/dist/server/index.js`), 'run `npm run test:packaging` (install-packed.ts)');
  assert.ok(existsSync(`${serversDir}node_modules/fastify/package.json`), 'run `npm run test:packaging` (install-toolchains.ts)');
});

const FRAMEWORKS: [name: string, heading: string, express4?: boolean][] = [
  ['node-http', 'node:http'],
  ['express-5', 'Express 4 and 5'],
  ['express-4', 'Express 4 and 5', true],
  ['fastify', 'Fastify 5'],
  ['hono', 'Hono'],
];

for (const [name, heading, express4] of FRAMEWORKS) {
  describe(`docs/backend.md "${heading}" snippet${express4 ? ' on Express 4' : ''}`, () => {
    test('mints a token from the real sandbox, receives its webhook verified, typed, once; refuses forgeries; a throwing callback is delivered again', async () => {
      const entry = await writeApp(name, heading, 'server.ts', express4);
      const port = await freePort();
      const sandbox = await startSandbox({
        port: 0,
        rateLimitPerSecond: 0,
        webhookUrl: `http://127.0.0.1:${port}/api/webhooks?secret=${WEBHOOK_SECRET}`,
        webhookRetryBaseMs: 20,
      });
      sandboxes.push(sandbox);
      const app = run(entry, {
        PAYROLL_API_SECRET: sandbox.secret,
        PAYROLL_BASE_URL: sandbox.url,
        PAYROLL_WEBHOOK_SECRET: WEBHOOK_SECRET,
        PORT: String(port),
        FAIL_FIRST_SAVE: '1',
      });
      apps.push(app);
      await listening(port, app.child, app.output);
      const base = `http://127.0.0.1:${port}`;

      const tokenResponse = await fetch(`${base}/api/link-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"end_user_id":"user-7"}',
      });
      assert.equal(tokenResponse.status, 200, app.output());
      assert.equal(tokenResponse.headers.get('cache-control'), 'no-store');
      const { data: token } = (await tokenResponse.json()) as { data: { id: string; token: string } };

      const saved = app.line(/^SAVED /);
      const accountId = await connectWithToken(sandbox, token.token);
      // The first delivery met a throwing callback (500); the sandbox delivered again, and that one was saved.
      assert.deepEqual(JSON.parse((await saved).slice('SAVED '.length)), { endUserId: 'user-7', accountId });
      const delivery = sandbox.webhooks.deliveries.find((item) => item.event.event === 'account.added');
      assert.ok(delivery && delivery.attempts >= 2, `redelivered: ${JSON.stringify(delivery)}`);

      // The same event again (a redelivery): acknowledged as a duplicate, nothing saved twice.
      const again = await fetch(`${base}/api/webhooks?secret=${WEBHOOK_SECRET}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(delivery.event),
      });
      assert.deepEqual(await again.json(), { received: true, duplicate: true });
      // A forgery: no secret, 401.
      const forged = await fetch(`${base}/api/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...delivery.event, event_id: crypto.randomUUID() }),
      });
      assert.equal(forged.status, 401);
      // Bad browser input: a clear 400 (from the handler or the framework's parser), and the app lives on.
      const malformed = await fetch(`${base}/api/link-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"end_user_id": ',
      });
      assert.equal(malformed.status, 400);
      const unknownField = await fetch(`${base}/api/link-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"role":"admin"}',
      });
      assert.equal(unknownField.status, 400);
      assert.match(await unknownField.text(), /INVALID_PARAMS/);
      assert.equal(
        (await fetch(`${base}/api/link-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status,
        200,
      );
      assert.equal(app.child.exitCode, null, 'the app is still running');
      assert.equal(app.output().match(/^SAVED /gm)?.length, 1, app.output());
      assert.ok(!app.output().includes(sandbox.secret), 'the API secret is never printed');
    });
  });
}

test('docs/backend.md "Next.js route handlers" snippet: the route module answers a browser POST with a token from the real sandbox', async () => {
  const entry = await writeApp('next-route', 'Next.js route handlers', 'app/api/link-token/route.ts');
  // What Next.js does with the module: import it and call POST with the request.
  const caller = `${serversDir}next-route/call-route.ts`;
  await writeFile(
    caller,
    `import { POST } from './app/api/link-token/route';\n` +
      `const response = await POST(new Request('http://localhost/api/link-token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));\n` +
      `console.log('ANSWER ' + response.status + ' ' + (await response.text()));\n`,
  );
  assert.ok(existsSync(entry));
  const sandbox = await startSandbox({ port: 0, rateLimitPerSecond: 0 });
  sandboxes.push(sandbox);
  const app = run(caller, { PAYROLL_API_SECRET: sandbox.secret, PAYROLL_BASE_URL: sandbox.url, PAYROLL_WEBHOOK_SECRET: WEBHOOK_SECRET });
  apps.push(app);
  const answer = await Promise.race([
    app.line(/^ANSWER /),
    new Promise<string>((resolve) => app.child.once('exit', () => resolve(`exited: ${app.output()}`))),
  ]);
  const match = /^ANSWER (\d+) (.*)$/.exec(answer);
  assert.ok(match, answer);
  assert.equal(match[1], '200', answer);
  const { data } = JSON.parse(match[2]!) as { data: { id: string } };
  assert.ok(sandbox.store.linkTokens().some((record) => record.id === data.id));
});
