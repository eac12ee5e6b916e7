/**
 * `payroll-link/testing/playwright`'s `linkFlow(page)` (#52), from the sources, in Debian's Chromium through
 * playwright-core: `connect()`, `exit()` and `fail('user_error')` in the element's modal, in its inline box and on a
 * launch page (`payroll-link/server/launches`), each resolving with what the element dispatched, checked against the
 * sandbox's own records. Once at a phone's size (390x844), once against a sandbox in `fields: 'spec'` mode; `connect()`
 * meets the one-time code screen (`user_mfa`), the OAuth platform's window and a fixed-amount allocation on the way.
 * Then the same steps as data (link-flow-steps.ts) followed over W3C WebDriver in WebKitGTK (Safari's engine), by the
 * snippet of docs/testing.md ("WebDriver and Appium: the steps as data"), run as written with its import pointed at
 * the sources. Nothing faked: the real sandbox, the package's token handler and launches, the element's real bundle,
 * pages served on loopback. Every wait is for an event or a screen, never for time.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { bundledOptions, launchPageScript } from '../../scripts/build-package.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { createLinkTokenHandler, createPayrollClient } from '../../src/server/index.js';
import { createLinkLaunches } from '../../src/server/launches.js';
import { toNodeHandler } from '../../src/server/node.js';
import { linkFlow, type LinkFlowPage } from '../../src/testing/playwright.js';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { startWebKitDriver } from '../browser/webkit-driver.mjs';
import { docsSnippet } from '../packaging/docs-snippet.js';
import { webkitSession } from './webkit-session.js';

/** Bound on each wait, so that a broken flow fails instead of hanging; generous for a loaded 2-core machine. */
const WAIT_MS = 60_000;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

type Mode = 'full' | 'spec';
const sandboxes = {} as Record<Mode, Sandbox>;
const launches = {} as Record<Mode, ReturnType<typeof createLinkLaunches>>;
let server: Server;
let base: string;
let browser: Browser;

/** An app's page with the element, as docs/getting-started.md has it: the bundled file and a token route. */
const elementPage = (mode: Mode, attributes: string) => `<!doctype html><html lang="en"><meta name="viewport" content="width=device-width">
<title>Connect payroll</title><h1>Your app</h1>
<script type="module" src="/payroll-link.bundled.js"></script>
<payroll-link ${attributes} token-url="/${mode}/link-token" link-url="${sandboxes[mode].url}/link"></payroll-link>`;

before(async () => {
  // The element and its session code in one file (no code splitting: the session's import() is inlined).
  const [element, launchScript] = await Promise.all([
    build({ ...bundledOptions, legalComments: 'eof', entryPoints: ['src/element/bundled.ts'], write: false, logLevel: 'warning' }),
    launchPageScript(),
  ]);
  const bundle = element.outputFiles[0]!.text;
  for (const mode of ['full', 'spec'] as const) sandboxes[mode] = await startSandbox({ port: 0, rateLimitPerSecond: 0, fields: mode });
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const routes = new Map<string, (request: Request) => Promise<Response>>();
  for (const mode of ['full', 'spec'] as const) {
    const sandbox = sandboxes[mode];
    const settings = { apiSecret: sandbox.secret, baseUrl: sandbox.url, version: '2025-07-08' as const };
    const tokens = createLinkTokenHandler({
      ...settings,
      orgName: 'Acme Lending',
      solution: 'Deposit Switch',
      features: ['direct_deposit_switch'],
      resolveEndUserId: () => `user-${mode}`,
      log: { info() {}, warn() {}, error() {} },
    });
    routes.set(`/${mode}/link-token`, tokens);
    launches[mode] = createLinkLaunches({
      client: createPayrollClient({ ...settings, mode: 'sandbox' }),
      orgName: 'Acme Lending',
      solution: 'Deposit Switch',
      features: ['direct_deposit_switch'],
      linkUrl: `${sandbox.url}/link`,
      publicUrl: `${base}/${mode}/launch`,
      secret: 'launch-secret-for-the-link-flow-test-0123456789',
      log: { info() {}, warn() {}, error() {} },
      onResult: () => {},
    });
  }
  /** The launch page with its real script in the stand-in's place (run from the sources, it carries a stand-in: see launch-page-script.ts). */
  const withBuiltScript = async (response: Response) => {
    if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return response;
    const page = (await response.text()).replace(
      /(<script nonce="[^"]+">)document\.documentElement\.dataset\.launchPage = "unbuilt";/,
      (_, tag: string) => tag + launchScript,
    );
    return new Response(page, { status: response.status, headers: response.headers });
  };
  const handle = toNodeHandler(async (request) => {
    const { pathname } = new URL(request.url);
    const [, mode, rest] = /^\/(full|spec)\/(.*)$/.exec(pathname) ?? [];
    if (pathname === '/payroll-link.bundled.js') return new Response(bundle, { headers: { 'content-type': 'text/javascript' } });
    if (rest?.startsWith('launch/')) return withBuiltScript(await launches[mode as Mode].handle(request));
    const route = routes.get(pathname);
    if (route && request.method === 'POST') return route(request);
    const html =
      rest === 'modal' ? elementPage(mode as Mode, '') : rest === 'inline' ? elementPage(mode as Mode, 'display="inline"') : null;
    return html ? new Response(html, { headers: { 'content-type': 'text/html' } }) : new Response('Not found', { status: 404 });
  });
  server.on('request', (req, res) => void handle(req, res));
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  for (const sandbox of Object.values(sandboxes)) await sandbox.close();
});

/** A fresh page of its own context at `viewport`, at `path`; page errors fail the test. */
async function open(path: string, viewport = DESKTOP): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${base}${path}`);
  return { page, errors };
}

/** The launch page of a new launch of `mode`'s sandbox, its element tapped. */
async function openLaunch(mode: Mode, viewport = DESKTOP) {
  const { url } = await launches[mode].create({ endUserId: `user-${crypto.randomUUID()}` });
  const opened = await open(new URL(url).pathname, viewport);
  await opened.page.getByRole('button', { name: 'Connect payroll' }).click();
  return opened;
}

/** The account the sandbox made for the session, with the job that ran: what the flow's answer must name. */
function sandboxRecordOf(mode: Mode, accountId: string) {
  const account = sandboxes[mode].store.account(accountId);
  assert.ok(account, `the sandbox has the account ${accountId}`);
  return account;
}

/** Checks a connect's answer against the sandbox: its account and job, and the session's end. */
function checkConnected(mode: Mode, connected: Awaited<ReturnType<ReturnType<typeof linkFlow>['connect']>>, platform?: string) {
  const record = sandboxRecordOf(mode, connected.accountId);
  assert.equal(connected.job, 'direct_deposit_switch');
  assert.equal(sandboxes[mode].store.job(connected.jobId)?.job.status, 'success', 'the job the answer names ran in the sandbox');
  if (platform) assert.equal(sandboxes[mode].store.catalogue.platformById.get(record.account.platform_id)?.name, platform);
  assert.deepEqual(connected.exit, {
    reason: 'completed',
    error: null,
    linkTokenId: connected.linkTokenId,
    accountId: connected.accountId,
  });
}

describe('linkFlow(page): connect, exit and fail wherever the widget puts the frame', { timeout: 300_000 }, () => {
  test('the modal: connect() picks PayPoint and logs in as user_good; exit() closes it; fail() ends on the error', async () => {
    const { page, errors } = await open('/full/modal');
    const connectButton = page.getByRole('button', { name: 'Connect payroll' });
    await connectButton.click();
    const connected = await linkFlow(page).connect({ employer: 'PayPoint', username: 'user_good', password: 'pass_good' });
    checkConnected('full', connected, 'PayPoint');
    assert.equal(connected.params.allocation_type ?? 'remainder', 'remainder');

    await connectButton.click();
    const exit = await linkFlow(page).exit();
    assert.equal(exit.reason, 'user_closed');
    assert.equal(exit.error, null);
    assert.equal(exit.accountId, undefined, 'nobody logged in');

    await connectButton.click();
    const failed = await linkFlow(page).fail('user_error');
    assert.equal(failed.reason, 'error');
    assert.equal(failed.error.type, 'platformError');
    assert.equal(failed.error.pendingRetry, false);
    sandboxRecordOf('full', failed.accountId!);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('inline at a phone’s size: connect() answers the one-time code and a fixed amount; exit() and fail() too', async () => {
    const { page, errors } = await open('/full/inline', PHONE);
    // In view on load: the inline element starts by itself.
    const connected = await linkFlow(page).connect({ username: 'user_mfa', allocation: { amount: '250.00' } });
    checkConnected('full', connected);
    assert.deepEqual([connected.params.allocation_type, connected.params.allocation_value], ['amount', 25000]);

    for (const action of ['exit', 'fail'] as const) {
      await page.reload();
      const flow = linkFlow(page);
      if (action === 'exit') {
        const exit = await flow.exit();
        assert.equal(exit.reason, 'user_closed');
      } else {
        const failed = await flow.fail('user_error');
        assert.equal(failed.reason, 'error');
        assert.equal(failed.error.code, 'JOB_FAILED');
      }
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('a launch page: connect() through the OAuth platform’s window; exit() and fail()', async () => {
    {
      const { page, errors } = await openLaunch('full');
      const connected = await linkFlow(page).connect({ employer: 'OAuth Payroll' });
      checkConnected('full', connected, 'OAuth Payroll');
      // The launch page reports the result its server confirms, then says so.
      await page.locator('#payroll-link-launch-status').getByText(/./).waitFor();
      assert.deepEqual(errors, []);
      await page.context().close();
    }
    {
      const { page } = await openLaunch('full');
      assert.equal((await linkFlow(page).exit()).reason, 'user_closed');
      await page.context().close();
    }
    {
      const { page } = await openLaunch('full');
      const failed = await linkFlow(page).fail();
      assert.equal(failed.error.code, 'JOB_FAILED');
      await page.context().close();
    }
  });

  test("against a sandbox in fields: 'spec' mode, the modal connects the same way", async () => {
    const { page, errors } = await open('/spec/modal');
    await page.getByRole('button', { name: 'Connect payroll' }).click();
    checkConnected('spec', await linkFlow(page).connect({ employer: 'PayPoint' }), 'PayPoint');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('a playwright-core Page is a LinkFlowPage (the kit is typed structurally: see playwright.ts)', () => {
    const typed: (page: Page) => LinkFlowPage<Locator> = (page) => page;
    assert.equal(typeof typed, 'function');
  });
});

describe('the steps as data, followed over WebDriver in WebKitGTK (the docs’ snippet)', { timeout: 300_000 }, () => {
  let driver: Awaited<ReturnType<typeof startWebKitDriver>>;
  let wd: WebdriverIO.Browser;
  let dir: string;

  before(async () => {
    driver = await startWebKitDriver();
    wd = await webkitSession(driver, WAIT_MS);
    dir = await mkdtemp(join(tmpdir(), 'link-flow-webdriver-'));
  });

  after(async () => {
    await wd?.deleteSession().catch(() => {});
    await driver?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('connectWithWebDriver(browser) connects user_good in the modal, and the element says so', async () => {
    const snippet = await docsSnippet('docs/testing.md', 'The testing kit', 'ts', 'WebDriver and Appium: the steps as data');
    const steps = pathToFileURL(`${process.cwd()}/src/testing/link-flow-steps.ts`).href;
    const file = join(dir, 'connect-with-webdriver.ts');
    await writeFile(file, snippet.replace(/from 'payroll-link\/testing(\/playwright)?'/, `from '${steps}'`));
    const { connectWithWebDriver } = (await import(pathToFileURL(file).href)) as {
      connectWithWebDriver(browser: WebdriverIO.Browser): Promise<void>;
    };
    await wd.setWindowRect(0, 0, DESKTOP.width, DESKTOP.height);
    await wd.url(`${base}/full/modal`);
    // What the app's own test would hear: the element's link-success and link-exit.
    await wd.execute(() => {
      const heard: string[] = [];
      (window as unknown as { heard: string[] }).heard = heard;
      for (const name of ['link-success', 'link-exit'])
        document.addEventListener(name, (event) => heard.push(`${name}:${JSON.stringify((event as CustomEvent).detail)}`));
    });
    const button = await wd.$('payroll-link').shadow$('button[part="button"]');
    await button.click();
    await connectWithWebDriver(wd);
    await wd.waitUntil(async () => (await wd.execute(() => (window as unknown as { heard: string[] }).heard.length)) === 2, {
      timeoutMsg: 'no link-success and link-exit',
    });
    const heard = await wd.execute(() => (window as unknown as { heard: string[] }).heard);
    assert.match(heard[0]!, /^link-success:/);
    const success = JSON.parse(heard[0]!.slice('link-success:'.length)) as { accountId: string };
    sandboxRecordOf('full', success.accountId);
    assert.match(heard[1]!, /^link-exit:\{"reason":"completed"/);
  });
});
