// The launch page (#42), from the packed package, against the real sandbox, in Chromium at 390x844 and 1280x800:
// a launch created, its URL opened (nothing minted), the button tapped, user_good logged in on the sandbox's Link
// page, the redirect reached with launch_id, status=success and state; onResult once with the account the sandbox
// made and verified: true; the page opened again says connected and mints nothing. With a window.ReactNativeWebView
// stand-in injected before the page's scripts (a fake of the app outside the page), the bridge's messages arrive in
// order, each once, each valid under the package's schemas, launch-done last. No URL loaded carries a token, and the
// page's CSP refuses nothing. The same flow in WebKit (WebKitGTK's WebDriver, which has no way to inject the bridge
// before the page). An expired launch shows its page with 410.
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

let sandbox: InstalledSandbox;
let server: Server;
let base: string;
let browser: Browser;
let launches: ReturnType<LaunchesModule['createLinkLaunches']>;
let core: CoreModule;
const results: unknown[] = [];

before(async () => {
  const { createLinkLaunches } = await packaged<LaunchesModule>('server/launches.js');
  const { createPayrollClient } = await packaged<ServerModule>('server/index.js');
  const { toNodeHandler } = await packaged<NodeModule>('server/node.js');
  core = await packaged<CoreModule>('core/index.js');
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Its webhooks reach the app's catch-all page below, which acknowledges them: the launch's result is what is tested.
  sandbox = await startInstalledSandbox(`${base}/webhooks`, () => {});
  const client = createPayrollClient({ apiSecret: sandbox.secret, baseUrl: sandbox.url, version: '2025-07-08', mode: 'sandbox' });
  launches = createLinkLaunches({
    client,
    orgName: 'Acme Lending',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    linkUrl: `${sandbox.url}/link`,
    publicUrl: `${base}/link`,
    redirectUris: [`${base}/payroll-done`],
    secret: 'launch-secret-for-the-packaging-test-0123456789',
    onResult: (result) => void results.push(result),
  });
  const handle = toNodeHandler(launches.handle);
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/link/')) return void handle(req, res);
    // The app's own page the redirect reaches: it only says it was reached.
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Back in the app</title><h1>Back in the app</h1>');
  });
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await sandbox?.close();
});

/** The Link tokens the sandbox has minted so far. */
const tokensMinted = () => sandbox.store.linkTokens().map((token) => token.token);

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
async function linkFrame(page: Page) {
  const handle = await page.waitForSelector(`iframe[src^="${sandbox.url}/link"]`);
  return (await handle.contentFrame())!;
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  describe(`the launch page at ${viewport.width}x${viewport.height}`, { timeout: 90_000 }, () => {
    test('opened, tapped, connected: the redirect with launch_id, status and state; onResult once, verified; the bridge in order', async () => {
      const endUserId = `user-${viewport.width}`;
      const { id, url } = await launches.create({ endUserId, state: `state-${viewport.width}`, redirectUri: `${base}/payroll-done` });
      const app = await appPage(viewport);
      try {
        const before = tokensMinted().length;
        const response = await app.page.goto(url);
        assert.equal(response?.status(), 200);
        assert.equal(tokensMinted().length, before, 'nothing minted before the tap');
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

        const mine = results.filter((result) => (result as { launchId: string }).launchId === id) as {
          accountId: string;
          verified: boolean;
        }[];
        assert.equal(mine.length, 1);
        assert.equal(mine[0]!.verified, true);
        const account = sandbox.store.accounts().find((record) => record.account.id === mine[0]!.accountId);
        assert.equal(account?.account.end_user_id, endUserId, 'the account the sandbox made, for the launch’s user');

        const messages = app.bridged.map((message) => core.parseLaunchBridgeMessage(message));
        assert.ok(
          messages.every((message) => message !== null),
          app.bridged.join('\n'),
        );
        const events = messages.map((message) => message!.event);
        for (const once of ['link-open', 'link-login', 'link-success', 'link-exit', 'launch-done'])
          assert.equal(events.filter((event) => event === once).length, 1, `${once}: ${events.join(', ')}`);
        assert.ok(
          events.indexOf('link-open') < events.indexOf('link-login') && events.indexOf('link-login') < events.indexOf('link-success'),
          events.join(', '),
        );
        assert.ok(events.indexOf('link-success') < events.indexOf('link-exit'), events.join(', '));
        assert.equal(events.at(-1), 'launch-done');
        const done = messages.at(-1) as { detail: { status: string; redirect: string } };
        assert.deepEqual(done.detail, { status: 'success', redirect: app.page.url() });

        const tokens = tokensMinted().slice(before);
        assert.equal(tokens.length, 1, 'one token, minted on the tap');
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
    test(`${width}x${height}: opened, tapped, connected, redirected; onResult once, verified`, async () => {
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
      const mine = results.filter((result) => (result as { launchId: string }).launchId === id) as { verified: boolean }[];
      assert.equal(mine.length, 1);
      assert.equal(mine[0]!.verified, true);
      assert.equal(tokensMinted().length, before + 1);
    });
  }
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
