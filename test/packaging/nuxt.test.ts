// docs/nuxt.md, as written, in a scratch Nuxt 4 app (nuxt/site) from the packed package, on Node 22: Nuxt 4.5
// needs it, the repository runs on Node 20, so the toolchain brings it as npm's `node` package (nuxt/package.json),
// as angular/ does. The app's own files are app.vue, the test's `saveAccount` (server/utils/save-account.ts) and
// the test's type checks (app/json-types.ts); every other file is a snippet of the page (NUXT_SNIPPETS), with only
// the Link URL swapped for the sandbox's hosted Link page. Checked here:
// - `nuxi typecheck` (vue-tsc) passes over the snippets, and the data `useFetch` gets from the page's server route
//   keeps the resources' field types through Nuxt's real `SerializeObject`, a misspelt field an error
//   (app/json-types.ts, `@ts-expect-error`);
// - `nuxt build`, with the secrets in its environment, leaves none of them in `.output/public`, nor does the
//   server send one in its pages;
// - `.output/server/index.mjs` against the real sandbox (installed from the package): the global stylesheet holds
//   the inline rule, a session in Chromium through the docs' token route, the Link page's Done screen shown before
//   the page moves on `link-exit` to the account's page, which shows the data the docs' server route read through
//   the app's one client; the sandbox's `account.added` reaches the docs' webhook route, verified, and its
//   `saveAccount`; an unknown account is a 404.
// Needs install-toolchains.ts and install-packed.ts first: `npm run test:packaging` runs both.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { freePort } from '../free-port.js';
import { listening } from './app-process.js';
import { codeBlocks, NUXT_SNIPPETS } from './docs-snippet.js';
import { nuxtPackageDir } from './install-packed.js';
import { startInstalledSandbox, type InstalledSandbox } from './installed-sandbox.js';
import { pressDone, switchDeposit } from '../sandbox-link-flow.js';

const toolchainDir = fileURLToPath(new URL('./nuxt/', import.meta.url));
const siteDir = `${toolchainDir}site/`;
/** Node 22, from the npm registry as the package `node`: Nuxt 4.5's build fails on Node 20. */
const node22 = `${toolchainDir}node_modules/node/bin/node`;
const nuxt = `${toolchainDir}node_modules/nuxt/bin/nuxt.mjs`;

/** The Link URL the docs' page uses. */
const DOCS_LINK_URL = 'https://link.example.com/link';
const WEBHOOK_SECRET = `whsec_nuxt_${randomUUID()}`;
/** Bound on each wait in the browser: the machine is small and shared. */
const WAIT_MS = 60_000;

let browser: Browser | undefined;
let sandbox: InstalledSandbox | undefined;
const sandboxLog: string[] = [];
let port: number;

before(async () => {
  assert.ok(
    existsSync(`${nuxtPackageDir}/package.json`) && existsSync(node22),
    'run `npm run test:packaging` (it installs the Nuxt toolchain and the packed package first)',
  );
  port = await freePort();
  sandbox = await startInstalledSandbox(`http://127.0.0.1:${port}/api/webhooks?secret=${WEBHOOK_SECRET}`, (line) => sandboxLog.push(line));
  // The snippets, as the page shows them, with the sandbox's Link page for the service's.
  const blocks = await codeBlocks('docs/nuxt.md');
  for (const [section, language, block, file] of NUXT_SNIPPETS) {
    const code = blocks.get(section)?.filter((candidate) => candidate.language === language)[block]?.code;
    assert.ok(code !== undefined, `docs/nuxt.md has ${language} block ${block} of "${section}"`);
    assert.ok(code.split('\n')[0]!.includes(file), `the snippet for ${file} names it on its first line`);
    await mkdir(dirname(`${siteDir}${file}`), { recursive: true });
    await writeFile(`${siteDir}${file}`, code.replaceAll(DOCS_LINK_URL, `${sandbox.url}/link`));
  }
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
});

after(async () => {
  await browser?.close();
  await sandbox?.close();
});

/** The secrets, under the names the docs' runtime config reads and the names the other docs use. */
const secretsEnv = () => ({
  NUXT_PAYROLL_API_SECRET: sandbox!.secret,
  NUXT_PAYROLL_BASE_URL: sandbox!.url,
  NUXT_PAYROLL_WEBHOOK_SECRET: WEBHOOK_SECRET,
  PAYROLL_API_SECRET: sandbox!.secret,
  PAYROLL_WEBHOOK_SECRET: WEBHOOK_SECRET,
});

/** Runs the Nuxt CLI on Node 22 in the app; its output goes to the test log on failure. */
function runNuxt(args: string[]): string {
  try {
    return execFileSync(node22, [nuxt, ...args], {
      cwd: siteDir,
      env: { ...process.env, ...secretsEnv(), NUXT_TELEMETRY_DISABLED: '1' },
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 240_000,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`nuxt ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

/** Every file below `dir`, with its path. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

test("docs/nuxt.md's app: nuxi typecheck keeps useFetch's fields typed, nuxt build leaks no secret, a session in Chromium reads the account's data on link-exit", async (t) => {
  const started = Date.now();
  runNuxt(['typecheck']);
  const typechecked = Date.now();
  await rm(`${siteDir}.output`, { recursive: true, force: true });
  runNuxt(['build']);
  const built = Date.now();

  const secrets = [sandbox!.secret, WEBHOOK_SECRET];
  for (const file of await filesBelow(`${siteDir}.output/public`)) {
    const text = await readFile(file, 'latin1');
    for (const secret of secrets) assert.ok(!text.includes(secret), `${file} holds a secret`);
  }

  const server = spawn(node22, ['.output/server/index.mjs'], {
    cwd: siteDir,
    env: { PATH: process.env.PATH, ...secretsEnv(), HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const lines: { line: string; resolve: () => void }[] = [];
  /** Resolves once the server has printed `line` (a whole line), or at once if it has. */
  const printed = (line: string) =>
    new Promise<void>((resolve) => (output.split('\n').includes(line) ? resolve() : lines.push({ line, resolve })));
  server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    for (const waiter of lines) if (output.split('\n').includes(waiter.line)) waiter.resolve();
  });
  server.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const context = await browser!.newContext({ viewport: { width: 1100, height: 900 } });
  context.setDefaultTimeout(WAIT_MS);
  try {
    await listening(port, server, () => output);
    const origin = `http://127.0.0.1:${port}`;

    // The server-rendered page: the element's tag, the global stylesheet's inline rule, no secret.
    const html = await (await fetch(`${origin}/`)).text();
    assert.match(html, /<payroll-link[^>]* token-url="\/api\/link-token"/);
    for (const secret of secrets) assert.ok(!html.includes(secret), 'the page holds a secret');
    const sheets = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((match) => match[1]!);
    const css = [
      ...(await Promise.all(sheets.map(async (href) => (await fetch(new URL(href, origin))).text()))),
      ...[...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]!),
    ].join('\n');
    assert.match(css, /payroll-link\[display=(?:'|")?inline(?:'|")?\]:not\(:defined\)/, 'the page holds payroll-link/styles.css');

    // A session, as a user runs it.
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' || /hydration/i.test(message.text())) problems.push(message.text());
    });
    await page.goto(`${origin}/`);
    await page.locator('payroll-link').getByRole('button').click();
    const frame = await (await page.waitForSelector('[data-payroll-link-modal] iframe')).contentFrame();
    assert.ok(frame);
    // The Link page's Done screen shows, and the page is still the one that opened it (success has come).
    await switchDeposit(frame);
    assert.equal(new URL(page.url()).pathname, '/', 'the page stays until the session ends');
    await pressDone(frame);
    // link-exit: the docs' page moves to the account's page, which shows what the server route read.
    await page.waitForURL(/\/accounts\/[0-9a-f-]{36}$/);
    const accountId = new URL(page.url()).pathname.split('/').pop()!;
    const answer = await fetch(`${origin}/api/accounts/${accountId}`);
    assert.equal(answer.status, 200, output);
    const data = (await answer.json()) as {
      employment: { account_id: string; employer_name: string };
      income: { account_id: string };
      paystubs: { account_id: string }[];
    };
    assert.equal(data.employment.account_id, accountId);
    assert.equal(data.income.account_id, accountId);
    assert.deepEqual(
      data.paystubs.map((paystub) => paystub.account_id),
      [accountId, accountId, accountId],
    );
    await page.getByRole('heading', { level: 1, name: data.employment.employer_name }).waitFor();
    assert.equal(await page.locator('li').count(), 3);
    assert.deepEqual(problems, []);
    for (const path of ['employment', 'income', 'paystubs'])
      assert.ok(
        sandboxLog.some((line) => line.startsWith(`GET /v1/accounts/${accountId}/${path}`) && / 200 /.test(line)),
        `the sandbox answered the route's read of ${path}`,
      );
    assert.equal((await fetch(`${origin}/api/accounts/${randomUUID()}`)).status, 404);

    // The sandbox's account.added reached the docs' webhook route, verified by its secret, and saveAccount.
    const deliveries = sandbox!.webhooks.deliveries.filter(
      (delivery) => delivery.event.event === 'account.added' && delivery.event.payload['account_id'] === accountId,
    );
    assert.equal(deliveries.length, 1);
    const settled = await sandbox!.webhooks.whenSettled(deliveries[0]!);
    assert.equal(settled.status, 'delivered', `${String(settled.lastError)}\n${output}`);
    await printed(`SAVED ${JSON.stringify({ endUserId: 'user-42', accountId })}`);
    assert.deepEqual(
      sandboxLog.filter((line) => / 429 /.test(line)),
      [],
      'no 429 at the sandbox',
    );
    t.diagnostic(
      `nuxi typecheck ${typechecked - started} ms, nuxt build ${built - typechecked} ms, serve and session ${Date.now() - built} ms`,
    );
  } finally {
    await context.close();
    server.kill();
  }
});
