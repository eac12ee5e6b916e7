// The launch page (#42, #47), from the packed package, against the real sandbox, in Chromium at 390x844 and
// 1280x800: a launch created, its URL opened (nothing minted), the button tapped, user_good logged in on the
// sandbox's Link page, the redirect reached with launch_id, status=success and state; onResult once, a `success`
// the service confirmed (the account the sandbox made for the launch's user, from the token the tap minted, and
// the job that ran); the page opened again says connected and mints nothing. With a window.ReactNativeWebView
// stand-in injected before the page's scripts (a fake of the app outside the page), and the URL opened with the app's
// nonce in its fragment, the page takes the fragment out of its address, and the bridge's messages arrive in order,
// each once, each valid under the package's schemas, each with the nonce and numbered from 1: launch-start (the Link
// origin) first, launch-done last (#48). No URL loaded carries a token, and the
// page's CSP refuses nothing. The same flow in WebKit (WebKitGTK's WebDriver, which has no way to inject the bridge
// before the page). An expired launch shows its page with 410.
// Against a second sandbox started with `fields: 'spec'` (the CLI's `--fields spec`: the service's answers and
// webhooks carry only what the spec shows, so no account's end_user_id or link_token_id and no job's status), whose
// webhooks reach a real webhook receiver of the package (createWebhookHandler, onEvent calling launches.confirm):
// the same flow ends `unconfirmed`. When the sandbox's account.added (sent at the login) is held until the page has
// its answer, onResult lists all three facts and confirm() then answers 'unconfirmed' (nothing runs again); when it
// is handled before the user presses Done, onResult lists only job_status. The test waits for those events, never
// for time.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { installedPackageDir } from './install-packed.js';
import { startInstalledSandbox, type InstalledSandbox } from './installed-sandbox.js';
import { pressDone, switchDeposit } from '../sandbox-link-flow.js';
import { startWebKitDriver } from '../browser/webkit-driver.mjs';
import { waitForDeep } from '../e2e/find-deep.js';
import { webkitSession } from '../e2e/webkit-session.js';

type LaunchesModule = typeof import('../../src/server/launches.js');
type ServerModule = typeof import('../../src/server/index.js');
type NodeModule = typeof import('../../src/server/node.js');
type CoreModule = typeof import('../../src/core/index.js');
const packaged = async <T>(path: string) => (await import(pathToFileURL(`${installedPackageDir}/dist/${path}`).href)) as T;

type LaunchResult = import('../../src/server/launches.js').LaunchResult;
type LaunchCheck = Awaited<ReturnType<ReturnType<LaunchesModule['createLinkLaunches']>['confirm']>>;
const WEBHOOK_SECRET = 'whsec_packaging_launches_test_0123';

let sandbox: InstalledSandbox;
/** The sandbox in spec mode: its webhooks reach the receiver at /spec-webhooks, which calls `specLaunches.confirm`. */
let specSandbox: InstalledSandbox;
let server: Server;
let base: string;
let browser: Browser;
let launches: ReturnType<LaunchesModule['createLinkLaunches']>;
let specLaunches: ReturnType<LaunchesModule['createLinkLaunches']>;
let core: CoreModule;
/** Every onResult, of both instances. */
const results: LaunchResult[] = [];
const resultsOf = (launchId: string) => results.filter((result) => result.launchId === launchId);

/** A promise and its resolve, made before either side needs it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}
/** What `specLaunches.confirm` answered to the account.added of each Link token, once the receiver has handled it. */
const checks = new Map<string, ReturnType<typeof deferred<LaunchCheck>>>();
const checkOf = (linkTokenId: string) => {
  if (!checks.has(linkTokenId)) checks.set(linkTokenId, deferred<LaunchCheck>());
  return checks.get(linkTokenId)!;
};
/** While set, the receiver holds each account.added until it settles: a webhook that arrives after the report. */
let holdAccountAdded: Promise<void> | null = null;

before(async () => {
  const { createLinkLaunches } = await packaged<LaunchesModule>('server/launches.js');
  const { createPayrollClient, createWebhookHandler } = await packaged<ServerModule>('server/index.js');
  const { toNodeHandler } = await packaged<NodeModule>('server/node.js');
  core = await packaged<CoreModule>('core/index.js');
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Its webhooks reach the app's catch-all page below, which acknowledges them: the result of a success the
  // service confirms is what is tested there.
  sandbox = await startInstalledSandbox(`${base}/webhooks`, () => {});
  const launchesOn = (on: InstalledSandbox, path: string) =>
    createLinkLaunches({
      client: createPayrollClient({ apiSecret: on.secret, baseUrl: on.url, version: '2025-07-08', mode: 'sandbox' }),
      orgName: 'Acme Lending',
      solution: 'Deposit Switch',
      features: ['direct_deposit_switch'],
      linkUrl: `${on.url}/link`,
      publicUrl: `${base}${path}`,
      redirectUris: [`${base}/payroll-done`],
      secret: 'launch-secret-for-the-packaging-test-0123456789',
      onResult: (result) => void results.push(result),
    });
  launches = launchesOn(sandbox, '/link');
  specSandbox = await startInstalledSandbox(`${base}/spec-webhooks?secret=${WEBHOOK_SECRET}`, () => {}, { fields: 'spec' });
  specLaunches = launchesOn(specSandbox, '/spec-link');
  const handle = toNodeHandler(launches.handle);
  const handleSpec = toNodeHandler(specLaunches.handle);
  // The app's webhook receiver, as docs/native-apps.md has it: every event to confirm().
  const receive = toNodeHandler(
    createWebhookHandler({
      secret: WEBHOOK_SECRET,
      onEvent: async (event) => {
        const linkTokenId = event.event === 'account.added' ? event.payload.link_token_id : null;
        if (linkTokenId) await holdAccountAdded;
        const check = await specLaunches.confirm(event);
        if (linkTokenId) checkOf(linkTokenId).resolve(check);
      },
    }),
  );
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/link/')) return void handle(req, res);
    if (req.url?.startsWith('/spec-link/')) return void handleSpec(req, res);
    if (req.url?.startsWith('/spec-webhooks?')) return void receive(req, res);
    // The app's own page the redirect reaches: it only says it was reached.
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Back in the app</title><h1>Back in the app</h1>');
  });
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await sandbox?.close();
  await specSandbox?.close();
});

/** The Link tokens the sandbox has minted so far. */
const tokensMinted = () => sandbox.store.linkTokens().map((token) => token.token);

/** The one Link token minted for `endUserId` on `from`, the account the sandbox made with it, and that account's job. */
function connectedWith(from: InstalledSandbox, endUserId: string) {
  const minted = from.store.linkTokens().filter((token) => token.endUserId === endUserId);
  assert.equal(minted.length, 1, `one token for ${endUserId}`);
  const linkTokenId = minted[0]!.id;
  const accounts = from.store.accounts().filter(({ account }) => account.link_token_id === linkTokenId);
  assert.equal(accounts.length, 1, `one account from ${linkTokenId}`);
  const account = accounts[0]!.account;
  // The sandbox's own records are whole in either mode: the account is the launch's user's.
  assert.equal(account.end_user_id, endUserId, 'the account the sandbox made, for the launch’s user');
  const jobs = from.store.jobs().filter(({ job }) => job.link_token_id === linkTokenId && job.account_id === account.id);
  assert.equal(jobs.length, 1);
  assert.equal(jobs[0]!.job.status, 'success');
  return { linkTokenId, accountId: account.id, jobId: jobs[0]!.job.id };
}

/** The onResult of a launch's confirmed success: the ids the sandbox made, nothing else (no `verified`). */
const successOf = (from: InstalledSandbox, launchId: string, endUserId: string, state: string | null): LaunchResult => ({
  launchId,
  endUserId,
  state,
  status: 'success',
  ...connectedWith(from, endUserId),
});

/** A page whose app bridge (window.ReactNativeWebView) records each message; every URL it loads, and CSP refusals. */
async function appPage(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  const bridged: string[] = [];
  const urls: string[] = [];
  const refusals: string[] = [];
  await page.exposeFunction('recordBridgeMessage', (message: string) => void bridged.push(message));
  // The app's side of the bridge, present before the page's script runs, as react-native-webview injects it.
  // A string, not a function: tsx would wrap a function's inner arrows in a helper the page does not have.
  await page.addInitScript({
    content: `window.ReactNativeWebView = { postMessage: (message) => window.recordBridgeMessage(message) };
      document.addEventListener('securitypolicyviolation', (event) => console.error('CSP refused ' + event.violatedDirective));`,
  });
  page.on('request', (request) => urls.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error' && /CSP refused|Content Security Policy/.test(message.text())) refusals.push(message.text());
  });
  return { page, bridged, urls, refusals, close: () => context.close() };
}

/** The sandbox's Link frame, once the page has opened it. */
async function linkFrame(page: Page, from: InstalledSandbox = sandbox) {
  const handle = await page.waitForSelector(`iframe[src^="${from.url}/link"]`);
  return (await handle.contentFrame())!;
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  describe(`the launch page at ${viewport.width}x${viewport.height}`, { timeout: 90_000 }, () => {
    test('opened, tapped, connected: the redirect with launch_id, status and state; onResult once, a success; the bridge in order', async () => {
      const endUserId = `user-${viewport.width}`;
      const { id, url } = await launches.create({ endUserId, state: `state-${viewport.width}`, redirectUri: `${base}/payroll-done` });
      const app = await appPage(viewport);
      try {
        const before = tokensMinted().length;
        // The app's nonce, in the fragment as PayrollLinkView puts it: only the page's own frame can read it.
        const nonce = 'f3b2c1d0e9a8b7c6d5e4f3a2b1c0d9e8';
        const response = await app.page.goto(`${url}#payroll-link-bridge=${nonce}`);
        assert.equal(response?.status(), 200);
        assert.equal(tokensMinted().length, before, 'nothing minted before the tap');
        assert.equal(app.page.url(), url, 'the page took the nonce out of its address');
        await app.page.getByRole('button', { name: 'Connect payroll' }).click();
        const frame = await linkFrame(app.page);
        // On a phone the flow covers the screen; on a desktop it is centred.
        const box = (await (await frame.frameElement()).boundingBox())!;
        if (viewport.width === 390) assert.ok(box.width >= 388 && box.height >= 780, JSON.stringify(box));
        else assert.ok(box.x > 100 && box.x + box.width < viewport.width - 100, JSON.stringify(box));
        await switchDeposit(frame);
        const reached = app.page.waitForURL(`${base}/payroll-done?**`);
        await pressDone(frame);
        await reached;
        const redirect = new URL(app.page.url());
        assert.deepEqual(Object.fromEntries(redirect.searchParams), { launch_id: id, status: 'success', state: `state-${viewport.width}` });

        const tokens = tokensMinted().slice(before);
        assert.equal(tokens.length, 1, 'one token, minted on the tap');
        assert.deepEqual(resultsOf(id), [successOf(sandbox, id, endUserId, `state-${viewport.width}`)]);

        const messages = app.bridged.map((message) => core.parseLaunchBridgeMessage(message));
        assert.ok(
          messages.every((message) => message !== null),
          app.bridged.join('\n'),
        );
        // Every message the page's own, for the app to check: its nonce, and a number one past the last.
        assert.deepEqual(
          messages.map((message) => [message!.nonce, message!.seq]),
          messages.map((_, index) => [nonce, index + 1]),
        );
        assert.deepEqual(messages[0], {
          source: 'payroll-link',
          event: 'launch-start',
          detail: { linkOrigin: new URL(sandbox.url).origin },
          nonce,
          seq: 1,
        });
        const events = messages.map((message) => message!.event);
        for (const once of ['launch-start', 'link-open', 'link-login', 'link-success', 'link-exit', 'launch-done'])
          assert.equal(events.filter((event) => event === once).length, 1, `${once}: ${events.join(', ')}`);
        assert.ok(
          events.indexOf('link-open') < events.indexOf('link-login') && events.indexOf('link-login') < events.indexOf('link-success'),
          events.join(', '),
        );
        assert.ok(events.indexOf('link-success') < events.indexOf('link-exit'), events.join(', '));
        assert.equal(events.at(-1), 'launch-done');
        const done = messages.at(-1) as { detail: { status: string; redirect: string } };
        assert.deepEqual(done.detail, { status: 'success', redirect: app.page.url() });

        assert.ok(!app.urls.some((loaded) => tokens.some((token) => loaded.includes(token))), 'no URL carries the token');
        assert.deepEqual(app.refusals, []);

        // Opened again: connected, no Link frame, nothing minted.
        const again = await app.page.goto(url);
        assert.equal(again?.status(), 200);
        await app.page.getByText('already connected').waitFor();
        assert.equal(await app.page.locator('payroll-link').count(), 0);
        assert.equal(tokensMinted().length, before + 1);
      } finally {
        await app.close();
      }
    });
  });
}

describe('the launch page in WebKit', { timeout: 180_000 }, () => {
  let driver: Awaited<ReturnType<typeof startWebKitDriver>>;
  let webkit: WebdriverIO.Browser;
  before(async () => {
    driver = await startWebKitDriver();
    webkit = await webkitSession(driver, 30_000);
  });
  after(async () => {
    await webkit?.deleteSession().catch(() => {});
    await driver?.stop();
  });
  const deep = (selector: string, text: string | null = null, host: string | null = null) => waitForDeep(webkit, selector, text, host);

  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    test(`${width}x${height}: opened, tapped, connected, redirected; onResult once, a success`, async () => {
      const { id, url } = await launches.create({ endUserId: `webkit-${width}`, state: 'webkit', redirectUri: `${base}/payroll-done` });
      // MiniBrowser runs full-screen (no toolbar), so the window's size is the viewport's.
      await webkit.setWindowRect(0, 0, width, height);
      const before = tokensMinted().length;
      await webkit.url(url);
      await (await deep('button[part="button"]', 'Connect payroll', 'payroll-link')).waitForClickable();
      assert.equal(tokensMinted().length, before, 'nothing minted before the tap');
      await (await deep('button[part="button"]', 'Connect payroll', 'payroll-link')).click();
      await webkit.switchFrame(await deep('dialog[open][data-ready] iframe'));
      await (await deep('button', 'Continue')).click();
      await (await deep('button.hit[data-kind="employer"][data-platform-type="payroll"]')).click();
      await (await deep('input#username')).setValue('user_good');
      await (await deep('input#password')).setValue('pass_good');
      await webkit.keys('Enter');
      await (await deep('button', 'Switch my deposit')).click();
      // Done ends the session and removes the frame: its click's answer may come from a frame that is gone.
      await (await deep('button', 'Done')).click().catch(() => {});
      await webkit.switchFrame(null);
      await webkit.waitUntil(async () => (await webkit.getUrl()).startsWith(`${base}/payroll-done?`), { timeoutMsg: 'no redirect' });
      const redirect = new URL(await webkit.getUrl());
      assert.deepEqual(Object.fromEntries(redirect.searchParams), { launch_id: id, status: 'success', state: 'webkit' });
      assert.equal(tokensMinted().length, before + 1);
      assert.deepEqual(resultsOf(id), [successOf(sandbox, id, `webkit-${width}`, 'webkit')]);
    });
  }
});

describe('the launch page against a sandbox that sends only the spec’s fields (--fields spec)', { timeout: 90_000 }, () => {
  /**
   * The flow on the spec sandbox in a phone's viewport, up to the user's Done; `beforeDone` runs once the login has
   * made the account (and sent account.added). Answers the Link token the tap minted, once the redirect is reached.
   */
  async function specFlow(endUserId: string, beforeDone: (linkTokenId: string) => Promise<void>) {
    const { id, url } = await specLaunches.create({ endUserId, state: endUserId, redirectUri: `${base}/payroll-done` });
    const app = await appPage({ width: 390, height: 844 });
    try {
      assert.equal((await app.page.goto(url))?.status(), 200);
      await app.page.getByRole('button', { name: 'Connect payroll' }).click();
      const frame = await linkFrame(app.page, specSandbox);
      await switchDeposit(frame);
      const minted = specSandbox.store.linkTokens().filter((token) => token.endUserId === endUserId);
      assert.equal(minted.length, 1, 'one token, minted on the tap');
      const linkTokenId = minted[0]!.id;
      await beforeDone(linkTokenId);
      const reached = app.page.waitForURL(`${base}/payroll-done?**`);
      await pressDone(frame);
      await reached;
      // For the user the flow ended in success: the page goes back to the app as in full mode.
      const redirect = new URL(app.page.url());
      assert.deepEqual(Object.fromEntries(redirect.searchParams), { launch_id: id, status: 'success', state: endUserId });
      const done = core.parseLaunchBridgeMessage(app.bridged.at(-1));
      assert.equal(done?.event, 'launch-done', app.bridged.join('\n'));
      assert.deepEqual(done.detail, { status: 'success', redirect: app.page.url() });
      return { id, url, linkTokenId, app };
    } catch (error) {
      await app.close();
      throw error;
    }
  }

  /** The onResult of a spec-mode success: the ids the sandbox made, and the facts the service left unconfirmed. */
  const unconfirmedOf = (launchId: string, endUserId: string, unconfirmed: string[]): LaunchResult => ({
    launchId,
    endUserId,
    state: endUserId,
    status: 'unconfirmed',
    ...connectedWith(specSandbox, endUserId),
    unconfirmed: unconfirmed as ('end_user_id' | 'link_token_id' | 'job_status')[],
  });

  test('the account.added after the report: onResult once, unconfirmed end_user_id, link_token_id and job_status; then confirm() answers unconfirmed and runs nothing', async () => {
    const endUserId = 'spec-after';
    // The receiver holds the account.added (sent at the login) until the page has had its answer.
    const answered = deferred<void>();
    holdAccountAdded = answered.promise;
    const flow = await specFlow(endUserId, async () => {});
    try {
      answered.resolve();
      assert.deepEqual(resultsOf(flow.id), [unconfirmedOf(flow.id, endUserId, ['end_user_id', 'link_token_id', 'job_status'])]);
      // The webhook ties the account and the job to the token; the job's status is still not sent.
      assert.equal(await checkOf(flow.linkTokenId).promise, 'unconfirmed');
      assert.deepEqual(resultsOf(flow.id), [unconfirmedOf(flow.id, endUserId, ['end_user_id', 'link_token_id', 'job_status'])]);
      // Not final: the link opens the flow again.
      const again = await flow.app.page.goto(flow.url);
      assert.equal(again?.status(), 200);
      await flow.app.page.getByRole('button', { name: 'Connect payroll' }).waitFor();
    } finally {
      holdAccountAdded = null;
      await flow.app.close();
    }
  });

  test('the account.added handled before the user presses Done: onResult once, unconfirmed job_status only', async () => {
    const endUserId = 'spec-before';
    const flow = await specFlow(endUserId, async (linkTokenId) => {
      // Kept until the report: confirm() has nothing to settle yet.
      assert.equal(await checkOf(linkTokenId).promise, 'recorded');
    });
    try {
      assert.deepEqual(resultsOf(flow.id), [unconfirmedOf(flow.id, endUserId, ['job_status'])]);
    } finally {
      await flow.app.close();
    }
  });
});

test('an expired launch shows its page with 410, and mints nothing', async (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() - 3_600_000 });
  const { url } = await launches.create({ endUserId: 'user-expired' });
  t.mock.timers.reset();
  const app = await appPage({ width: 390, height: 844 });
  try {
    const before = tokensMinted().length;
    const response = await app.page.goto(url);
    assert.equal(response?.status(), 410);
    await app.page.getByText('This link has expired').waitFor();
    assert.equal(tokensMinted().length, before);
  } finally {
    await app.close();
  }
});
