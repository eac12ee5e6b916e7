// The sandbox as an integrator gets it: the packed tarball installed with production dependencies
// only (`npm install --omit=dev payroll-link-*.tgz`) in a scratch folder, as `npx payroll-link-sandbox`
// and as `startSandbox()` from `payroll-link/sandbox`. The "Test your integration" files of docs/testing.md
// run there as written. Needs build:package first (`npm run test:packaging` runs it); installing the
// package's dependencies (lit, zod, @lit/react) uses the npm registry.
//
// Webhooks go to the guide's app (`app.js` from docs/testing.md), a real HTTP receiver on loopback.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { pageSection } from './docs-snippet.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = { 'Service-Version': '2025-07-08' };

/** The guide's app (docs/testing.md, `app.js`). */
interface GuideApp {
  url: string;
  /** The URL to register with the sandbox: it carries the webhook secret. */
  webhookUrl: string;
  webhook(matches: (event: WebhookEvent) => boolean): Promise<WebhookEvent>;
  close(): Promise<void>;
}
interface WebhookEvent {
  event: string;
  event_id: string;
  payload: Record<string, unknown>;
}
/** What `payroll-link/sandbox` exports, as far as these tests use it. */
interface SandboxModule {
  startSandbox(options?: Record<string, unknown>): Promise<{ url: string; secret: string; close(): Promise<void> }>;
}

let scratch: string;
let tarballBytes: number;

/** The `// <file>` js blocks of docs/testing.md's "Test your integration" section, by file name. */
async function guideFiles(): Promise<Map<string, string>> {
  const section = await pageSection('docs/testing.md', 'Test your integration');
  const files = new Map<string, string>();
  for (const [, name, code] of section.matchAll(/^```js\n\/\/ (\S+)\n([\s\S]*?)^```/gm)) files.set(name!, `// ${name}\n${code}`);
  assert.deepEqual([...files.keys()], ['app.js', 'payroll.test.js']);
  return files;
}

/**
 * Runs the installed bin through npx in the scratch folder (installed: npx runs it, it downloads
 * nothing). In a process group of its own: npm does not pass SIGTERM on to the command, so a stop
 * signals the whole group.
 */
function npx(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn('npx', ['payroll-link-sandbox', ...args], {
    cwd: scratch,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
}

/** Runs a command of the bin to its end; its exit code and output. */
async function npxRun(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = npx(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  return { code, stdout, stderr };
}

/** Starts `npx payroll-link-sandbox` and waits for the lines with its URL and secret. */
async function startBin(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; secret: string; output: () => string }> {
  const child = npx(['--port', '0', '--quiet', ...args], env);
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const started = new Promise<{ url: string; secret: string }>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      const secret = /Secret: +(\S+)/.exec(output)?.[1];
      if (url && secret) resolve({ url, secret });
    });
    child.once('exit', (code) => reject(new Error(`payroll-link-sandbox exited (${code}) before it started:\n${output}`)));
  });
  return { child, ...(await started), output: () => output };
}

before(async () => {
  assert.ok(existsSync(`${root}dist/sandbox/cli.js`), 'run `npm run build:package` first (`npm run test:packaging` does)');
  scratch = await mkdtemp(join(tmpdir(), 'payroll-link-integrator-'));
  // --ignore-scripts: the package is already built; `prepack` would build it again.
  const packed = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [{ filename }] = JSON.parse(packed) as Array<{ filename: string }>;
  tarballBytes = (await stat(join(scratch, filename))).size;
  await writeFile(join(scratch, 'package.json'), JSON.stringify({ name: 'integrator-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error', `./${filename}`], {
    cwd: scratch,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // The integrator's own test tool, not a dependency of the package.
  await symlink(`${root}node_modules/playwright-core`, join(scratch, 'node_modules/playwright-core'), 'dir');
  for (const [name, code] of await guideFiles()) await writeFile(join(scratch, name), code);
});

after(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the sandbox from the packed package', () => {
  it('installs with production dependencies only: no esbuild, tsx or typescript', async (t) => {
    t.diagnostic(`tarball: ${tarballBytes} bytes`);
    for (const tool of ['esbuild', 'tsx', 'typescript'])
      assert.equal(existsSync(join(scratch, 'node_modules', tool)), false, `${tool} was installed`);
    assert.ok(existsSync(join(scratch, 'node_modules/payroll-link/dist/sandbox/link/app.js')), 'the Link page is built into the package');
  });

  it('`npx payroll-link-sandbox --help` lists the flags and the commands', async () => {
    const help = await npxRun(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: npx payroll-link-sandbox \[options\]/);
    assert.match(help.stdout, /--webhook-version/);
    assert.match(help.stdout, /trigger <event>/);
    assert.match(help.stdout, /resend <event_id>/);
    // It points an installed user at the reference that ships beside it.
    const reference = /node_modules\/payroll-link\/(docs\/sandbox\.md)/.exec(help.stdout)?.[1];
    assert.ok(reference, help.stdout);
    assert.ok(existsSync(join(scratch, 'node_modules/payroll-link', reference)), `${reference} is in the installed package`);
  });

  it('`npx payroll-link-sandbox --port 0` starts, serves the Link page, mints tokens, runs a Link session in Chromium, and fires every trigger from the CLI', async () => {
    const { startApp } = (await import(pathToFileURL(join(scratch, 'app.js')).href)) as { startApp(): Promise<GuideApp> };
    const app = await startApp();
    // As the docs say to: the URL carries the receiver's secret, so not as a flag, which `ps` shows.
    const bin = await startBin([], { SANDBOX_WEBHOOK_URL: app.webhookUrl });
    const browser: Browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    try {
      const page = await fetch(`${bin.url}/link`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<link-app><\/link-app>/);
      const script = await fetch(`${bin.url}/link/app.js`);
      assert.equal(script.status, 200);
      assert.ok((await script.text()).length > 10_000);
      const token = await fetch(`${bin.url}/link_tokens`, {
        method: 'POST',
        headers: { 'x-api-secret': bin.secret, ...VERSION, 'content-type': 'application/json' },
        body: JSON.stringify({ org_name: 'Acme', features: ['direct_deposit_switch'], solution: 'deposit_switch' }),
      });
      assert.equal(token.status, 200);
      assert.match(((await token.json()) as { data: { token: string } }).data.token, /^link-sandbox-/);

      // A full Link session in Chromium, from the guide's page, against the bin's sandbox.
      process.env['PAYROLL_BASE_URL'] = bin.url;
      process.env['PAYROLL_API_SECRET'] = bin.secret;
      process.env['PAYROLL_LINK_URL'] = `${bin.url}/link`;
      const tab = await browser.newPage();
      await tab.goto(app.url);
      await tab.getByRole('button', { name: 'Connect payroll' }).click();
      const link = tab.getByTitle('Connect your payroll account').contentFrame();
      await link.getByRole('button', { name: 'Continue' }).click();
      await link.getByLabel('Employer or payroll provider').fill('PayPoint');
      await link.getByRole('button', { name: /^PayPoint/ }).click();
      await link.getByLabel('Username').fill('user_mfa');
      await link.getByLabel('Password').fill('pass_good');
      await link.getByRole('button', { name: 'Log in' }).click();
      await link.getByLabel('One-time code').fill('mfa_code');
      await link.getByRole('button', { name: 'Verify' }).click();
      await link.getByRole('button', { name: 'Switch my deposit' }).click();
      await link.getByRole('heading', { name: 'Your direct deposit is switched' }).waitFor();
      const synced = await app.webhook((event) => event.event === 'paystubs.added');
      assert.equal(synced.payload['added_count'], 12);

      // Every trigger, as a CLI command against the running sandbox; each event reaches the receiver.
      const env = { SANDBOX_URL: bin.url, SANDBOX_SECRET: bin.secret };
      const run = async (args: string[]) => {
        const result = await npxRun(args, env);
        assert.equal(result.code, 0, result.stderr);
        return JSON.parse(result.stdout) as { account?: { id: string }; events: WebhookEvent[] };
      };
      const delivered = async (answer: { events: WebhookEvent[] }, name: string) => {
        const event = answer.events.find((candidate) => candidate.event === name);
        assert.ok(event, `the answer lists ${name}`);
        const received = await app.webhook((candidate) => candidate.event_id === event.event_id);
        assert.deepEqual(received, event);
        return received;
      };
      const created = await run(['create-account', '--end-user', 'user-789']);
      const accountId = created.account!.id;
      const added = await delivered(created, 'account.added');
      // A resend answers with the very event it delivers again (its delivery is proven by the guide's third test).
      assert.deepEqual((await run(['resend', added.event_id])).events, [added]);
      await delivered(await run(['trigger', 'account.added', '--account', accountId]), 'account.added');
      const paystubs = await run(['trigger', 'paystubs.added', '--account', accountId]);
      assert.equal((await delivered(paystubs, 'paystubs.added')).payload['sync_status'], 'synced');
      await delivered(paystubs, 'verification_reports.refreshed');
      await delivered(await run(['trigger', 'verification_reports.refreshed', '--end-user', 'user-789']), 'verification_reports.refreshed');
      const platforms = await fetch(`${bin.url}/v1/platforms?type=time_and_attendance&limit=1`, {
        headers: { 'x-api-secret': bin.secret, ...VERSION },
      });
      const clockId = ((await platforms.json()) as { data: Array<{ id: string }> }).data[0]!.id;
      const clock = await run(['create-account', '--platform', clockId]);
      await delivered(await run(['trigger', 'shifts.added', '--account', clock.account!.id]), 'shifts.added');
      const reauth = await run(['require-reauth', '--account', accountId]);
      assert.equal((await delivered(reauth, 'account.monitoring_status.updated')).payload['monitoring_status'], 'user_action_required');
      const back = await run(['trigger', 'account.monitoring_status.updated', '--account', accountId, '--status', 'active']);
      assert.equal((await delivered(back, 'account.monitoring_status.updated')).payload['monitoring_status'], 'active');

      // Bad input gets the spec's error body on stderr and exit code 1.
      const refused = await npxRun(['trigger', 'account.disconnected', '--account', accountId], env);
      assert.equal(refused.code, 1);
      // npm may print its own warnings first; the error body follows them.
      assert.equal(
        (JSON.parse(refused.stderr.slice(refused.stderr.indexOf('{'))) as { error: { error_codes: Array<{ error_code: string }> } }).error
          .error_codes[0]!.error_code,
        'EVENT_NOT_IN_VERSION',
      );
    } finally {
      await browser.close();
      // The pipe closes once npm and the sandbox have both ended.
      const ended = once(bin.child.stdout!, 'close');
      process.kill(-bin.child.pid!, 'SIGTERM');
      await ended;
      await app.close();
    }
    assert.match(bin.output(), /SIGTERM: stopping the sandbox/);
    await assert.rejects(fetch(`${bin.url}/link`));
  });

  it('`startSandbox()` from `payroll-link/sandbox` sends the deprecated account events for webhook version 2021-07-28', async () => {
    const { startApp } = (await import(pathToFileURL(join(scratch, 'app.js')).href)) as { startApp(): Promise<GuideApp> };
    const app = await startApp();
    const module = (await import(pathToFileURL(join(scratch, 'node_modules/payroll-link/dist/sandbox/index.js')).href)) as SandboxModule;
    const sandbox = await module.startSandbox({ webhookUrl: app.webhookUrl, webhookVersion: '2021-07-28' });
    try {
      const call = async (path: string, body: unknown) => {
        const response = await fetch(`${sandbox.url}${path}`, {
          method: 'POST',
          headers: { 'x-api-secret': sandbox.secret, ...VERSION, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        assert.equal(response.status < 300, true);
        return ((await response.json()) as { data: { account?: { id: string }; events: WebhookEvent[] } }).data;
      };
      const { account } = await call('/sandbox/accounts', { end_user_id: 'user-old' });
      for (const name of ['account.disconnected', 'account.reconnected']) {
        const { events } = await call('/sandbox/events', { event: name, account_id: account!.id });
        const received = await app.webhook((event) => event.event_id === events[0]!.event_id);
        assert.equal(received.event, name);
        assert.equal(received.payload['account_id'], account!.id);
      }
    } finally {
      await sandbox.close();
      await app.close();
    }
  });

  it("the docs' guide runs as written: `node --test payroll.test.js` passes in the scratch folder", async () => {
    // Without NODE_TEST_CONTEXT, which would make the child report to this runner instead of running its tests.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const child = spawn(process.execPath, ['--test', 'payroll.test.js'], {
      cwd: scratch,
      env: { ...env, CHROME_PATH: chromiumPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    assert.equal(code, 0, output);
    assert.match(output, /^# pass 3$/m);
    assert.match(output, /^# fail 0$/m);
  });

  it('`payroll-link/sandbox` resolves to the packed files, with declarations', async () => {
    await mkdir(join(scratch, 'check'), { recursive: true });
    const resolved = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', "console.log(import.meta.resolve('payroll-link/sandbox'))"],
      { cwd: scratch, encoding: 'utf8' },
    );
    assert.equal(resolved.trim(), pathToFileURL(join(scratch, 'node_modules/payroll-link/dist/sandbox/index.js')).href);
    const types = await readFile(join(scratch, 'node_modules/payroll-link/dist/sandbox/index.d.ts'), 'utf8');
    assert.match(types, /startSandbox/);
  });
});
