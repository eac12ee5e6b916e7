/**
 * The launch page's time and focus (#49: WCAG 2.2.1 Timing Adjustable, 2.4.3 Focus Order), in Chromium against the
 * real sandbox, with the page's real script (built here from the sources, as the demo does: the sources' page carries
 * a stand-in, see launch-page-script.ts). Before the tap the page says until when the link works, in the user's time
 * zone (Playwright's `timezoneId`) and language, on a device clock set a day wrong (Playwright's `page.clock`, which
 * the test then moves instead of waiting); two minutes ahead it warns in its status, not while the flow is open; at
 * the end it says the link expired, hides its button (focus on it moves to the status first) and links to
 * `newLinkUrl`, or says to ask for a new one. A flow open at the end may still finish; one left unfinished then ends
 * on the expiry. After Done, and after a refused tap, focus rests on the status, never on `<body>`. axe finds no
 * violation in any of these states.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, mock, test } from 'node:test';
import { chromium, type Browser, type BrowserContextOptions, type Frame, type Page } from 'playwright-core';
import { launchPageScript } from '../../scripts/build-package.js';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.js';
import { ConfigError } from '../../src/server/config-error.js';
import { createPayrollClient } from '../../src/server/index.js';
import { createLinkLaunches, memoryLaunchStore, type LaunchStore, type LinkLaunchesOptions } from '../../src/server/launches.js';
import { LAUNCH_STORE_METHODS } from '../../src/server/launches/store/launch-store.js';
import { toNodeHandler } from '../../src/server/node.js';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { pressDone } from '../sandbox-link-flow.js';
import { axeViolations } from './axe-violations.js';

/** Bound on each wait, so a broken page fails instead of hanging; generous for a loaded 2-core machine. */
const WAIT_MS = 30_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Fixed-offset zones (no daylight saving time), so that a wall-clock time maps to one instant. */
const PHOENIX = { timezoneId: 'America/Phoenix', offsetHours: -7 };
const BOGOTA = { timezoneId: 'America/Bogota', offsetHours: -5 };

/**
 * The latest instant, up to a day ago, at `hh:mm:10` in the zone: the device's clock, a day wrong at most and never
 * ahead (a Link token the sandbox mints now must not look expired on it). 10 s past the minute: the link's 15
 * minutes, less the test's own seconds, end within the same minute.
 */
function lastWallClock(zone: { offsetHours: number }, hh: number, mm: number): number {
  const now = new Date();
  let at = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hh - zone.offsetHours, mm, 10);
  while (at > now.getTime()) at -= DAY;
  return at;
}

/** The page's words, with every kind of space as a plain one (ICU puts a narrow no-break space before "PM"). */
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

let sandbox: Sandbox;
let server: Server;
let base: string;
let browser: Browser;
let script: string;
/** Launches whose app gives a way to a new link. */
let launches: ReturnType<typeof createLinkLaunches>;
/** Launches with no `newLinkUrl`, on a store shared in the sense the launches mean (so `revoke()` works). */
let plainLaunches: ReturnType<typeof createLinkLaunches>;

/** A LaunchStore that says nothing of living in one process: a shared store to the launches. */
function sharedStore(): LaunchStore {
  const memory = memoryLaunchStore();
  return Object.fromEntries(LAUNCH_STORE_METHODS.map((name) => [name, memory[name].bind(memory)])) as unknown as LaunchStore;
}

/** The launches' options on the sandbox; `overrides` replace them. */
const optionsWith = (overrides: Partial<LinkLaunchesOptions> = {}): LinkLaunchesOptions => ({
  client: createPayrollClient({ apiSecret: sandbox.secret, baseUrl: sandbox.url, version: '2025-07-08', mode: 'sandbox' }),
  orgName: 'Acme Lending',
  solution: 'Deposit Switch',
  features: ['direct_deposit_switch'],
  linkUrl: `${sandbox.url}/link`,
  publicUrl: `${base}/link`,
  secret: 'launch-secret-for-the-expiry-test-0123456789',
  log: { info() {}, warn() {}, error() {} },
  onResult: () => {},
  ...overrides,
});

/** The page with the built script in the stand-in's place (a function: `$` in the script is no replacement pattern). */
async function withBuiltScript(response: Response): Promise<Response> {
  if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return response;
  const page = (await response.text()).replace(
    /(<script nonce="[^"]+">)document\.documentElement\.dataset\.launchPage = "unbuilt";/,
    (_, tag: string) => tag + script,
  );
  return new Response(page, { status: response.status, headers: response.headers });
}

before(async () => {
  script = await launchPageScript();
  sandbox = await startSandbox({ port: 0, rateLimitPerSecond: 0 });
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  launches = createLinkLaunches(optionsWith({ newLinkUrl: `${base}/new-link` }));
  plainLaunches = createLinkLaunches(optionsWith({ publicUrl: `${base}/plain-link`, store: sharedStore() }));
  const handle = toNodeHandler(async (request) => withBuiltScript(await launches.handle(request)));
  const handlePlain = toNodeHandler(async (request) => withBuiltScript(await plainLaunches.handle(request)));
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/link/')) return void handle(req, res);
    if (req.url?.startsWith('/plain-link/')) return void handlePlain(req, res);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>A new link</title><h1>A new link</h1>');
  });
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await sandbox?.close();
});

interface Opened {
  page: Page;
  /** Page errors and CSP refusals: none expected. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * A launch of `on`, opened in a fresh 390x844 context (`context`: its language, time zone) whose clock starts at
 * `clockAt` when given.
 */
async function openLaunch(
  on: ReturnType<typeof createLinkLaunches>,
  context: BrowserContextOptions,
  clockAt?: number,
): Promise<Opened & { id: string }> {
  const browserContext = await browser.newContext({ viewport: { width: 390, height: 844 }, ...context });
  browserContext.setDefaultTimeout(WAIT_MS);
  const page = await browserContext.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  if (clockAt !== undefined) await page.clock.install({ time: clockAt });
  const { id, url } = await on.create({ endUserId: `user-${crypto.randomUUID()}` });
  await page.goto(url);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.launchPage), undefined, 'the built script runs');
  return { page, errors, id, close: () => browserContext.close() };
}

const expiryText = async (page: Page) => plain(await page.locator('#payroll-link-launch-expiry').textContent());
const statusText = async (page: Page) => plain(await page.locator('#payroll-link-launch-status').textContent());
/** What has focus: an id, or the tag name of an element without one. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName.toLowerCase());
const button = (page: Page) => page.getByRole('button', { name: 'Connect payroll' });

/** The Link page in the modal's frame, once the flow is open. */
async function linkFrame(page: Page): Promise<Frame> {
  const frame = await (await page.waitForSelector(`iframe[src^="${sandbox.url}/link"]`)).contentFrame();
  assert.ok(frame, 'the Link frame');
  await frame.getByRole('button', { name: 'Continue' }).waitFor();
  return frame;
}

/** The sandbox's flow by keyboard alone, from its intro to its result: each control focused and pressed, each field typed. */
async function switchDepositByKeyboard(frame: Frame): Promise<void> {
  await frame.getByRole('button', { name: 'Continue' }).press('Enter');
  await frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first().press('Enter');
  await frame.getByLabel('Username').pressSequentially('user_good');
  await frame.getByLabel('Password').pressSequentially('pass_good');
  await frame.getByLabel('Password').press('Enter');
  await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');
  await frame.getByRole('heading', { level: 1, name: 'Your direct deposit is switched' }).waitFor();
}

const noViolations = async (page: Page, state: string) => assert.deepEqual(await axeViolations(page.mainFrame()), [], state);

describe('launch page: when the link expires, and where focus goes', { timeout: 300_000 }, () => {
  test('before the tap, the page says until when the link works, in the user’s time zone, on a device clock a day wrong', async () => {
    const clockAt = lastWallClock(PHOENIX, 14, 30);
    const { page, errors, close } = await openLaunch(launches, { timezoneId: PHOENIX.timezoneId, locale: 'en-US' }, clockAt);
    try {
      // 15 minutes from the device's 2:30 PM, whatever the real time: the server sent seconds, not an instant.
      assert.equal(await expiryText(page), 'This link works until 2:45 PM.');
      assert.equal(await statusText(page), '', 'no warning yet');
      await noViolations(page, 'before the tap');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('a link that ends on another day says the date too', async () => {
    const clockAt = lastWallClock(PHOENIX, 23, 50);
    const { page, close } = await openLaunch(launches, { timezoneId: PHOENIX.timezoneId, locale: 'en-US' }, clockAt);
    try {
      const tomorrow = new Date(clockAt + PHOENIX.offsetHours * HOUR + DAY);
      const month = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(tomorrow);
      const date = `${month} ${tomorrow.getUTCDate()}, ${tomorrow.getUTCFullYear()}`;
      assert.match(await expiryText(page), new RegExp(`^This link works until ${date}(,| at) 12:05 AM\\.$`));
    } finally {
      await close();
    }
  });

  test('two minutes ahead the status warns; at the end the button goes, focus moves to the status, which links to newLinkUrl', async () => {
    const clockAt = lastWallClock(PHOENIX, 14, 30);
    const { page, errors, close } = await openLaunch(launches, { timezoneId: PHOENIX.timezoneId, locale: 'en-US' }, clockAt);
    try {
      await page.clock.fastForward('12:50');
      assert.equal(await statusText(page), '', 'nothing 2:10 ahead');
      await page.clock.fastForward('00:20');
      await page.locator('#payroll-link-launch-status', { hasText: 'This link stops working in less than 2 minutes.' }).waitFor();
      assert.equal(await page.getByRole('status').count(), 1, 'the warning is in the page’s live region');
      await noViolations(page, 'the warning');
      // The user on the button when the time runs out: focus moves to the status, not to <body>.
      await page.keyboard.press('Tab');
      assert.equal(await focused(page), 'payroll-link');
      await page.clock.fastForward('02:00');
      await page.locator('#payroll-link-launch-status', { hasText: 'This link has expired.' }).waitFor();
      assert.equal(await statusText(page), 'This link has expired. Get a new link');
      assert.equal(await focused(page), 'payroll-link-launch-status');
      assert.equal(await page.locator('payroll-link').isHidden(), true, 'no button to a flow that cannot start');
      const newLink = page.getByRole('link', { name: 'Get a new link' });
      assert.equal(await newLink.getAttribute('href'), `${base}/new-link`);
      await noViolations(page, 'expired');
      // The status takes focus by script only; Tab goes on to the new link.
      await page.keyboard.press('Tab');
      assert.equal(await newLink.evaluate((anchor) => anchor === document.activeElement), true);
      await newLink.press('Enter');
      await page.waitForURL(`${base}/new-link`);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('no warning and no expiry while the flow is open: it may finish within the grace, and Done then says done', async () => {
    const clockAt = lastWallClock(PHOENIX, 14, 30);
    const { page, errors, close } = await openLaunch(launches, { timezoneId: PHOENIX.timezoneId, locale: 'en-US' }, clockAt);
    try {
      await button(page).click();
      const frame = await linkFrame(page);
      await page.clock.fastForward('13:30');
      assert.equal(await statusText(page), '', 'no warning while the flow is open');
      await noViolations(page, 'the flow open, past the warning');
      await page.clock.fastForward('02:00');
      assert.equal(await statusText(page), '', 'no expiry while the flow is open');
      await switchDepositByKeyboard(frame);
      await pressDone(frame);
      await page.locator('#payroll-link-launch-status', { hasText: 'Done. You can close this page.' }).waitFor();
      assert.equal(await statusText(page), 'Done. You can close this page.', 'a success past the page’s deadline stands');
      assert.equal(await focused(page), 'payroll-link-launch-status');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('a flow open when the link expired and then left unfinished ends on the expiry, focus on the status', async () => {
    const clockAt = lastWallClock(PHOENIX, 14, 30);
    const { page, errors, close } = await openLaunch(launches, { timezoneId: PHOENIX.timezoneId, locale: 'en-US' }, clockAt);
    try {
      await button(page).press('Enter');
      await linkFrame(page);
      await page.clock.fastForward('16:00');
      assert.equal(await statusText(page), '');
      const exited = page.evaluate(
        () =>
          new Promise<string>((resolve) =>
            document.querySelector('payroll-link')!.addEventListener('link-exit', (e) => resolve(e.detail.reason)),
          ),
      );
      await page.keyboard.press('Escape');
      assert.equal(await exited, 'user_closed');
      await page.locator('#payroll-link-launch-status', { hasText: 'This link has expired.' }).waitFor();
      assert.equal(await statusText(page), 'This link has expired. Get a new link');
      assert.equal(await focused(page), 'payroll-link-launch-status');
      assert.equal(await page.locator('payroll-link').isHidden(), true);
      await noViolations(page, 'expired after the flow');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('without newLinkUrl the expiry says to ask for a new one, and links nowhere', async () => {
    const clockAt = lastWallClock(PHOENIX, 14, 30);
    const { page, errors, close } = await openLaunch(plainLaunches, { timezoneId: PHOENIX.timezoneId, locale: 'en-US' }, clockAt);
    try {
      await page.clock.fastForward('16:00');
      await page.locator('#payroll-link-launch-status', { hasText: 'This link has expired.' }).waitFor();
      assert.equal(await statusText(page), 'This link has expired. Ask for a new one.');
      assert.equal(await page.getByRole('link').count(), 0);
      await noViolations(page, 'expired, no newLinkUrl');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('in Spanish: the time in 24 hours, the warning and the expiry with its link', async () => {
    const clockAt = lastWallClock(BOGOTA, 14, 30);
    const { page, errors, close } = await openLaunch(launches, { timezoneId: BOGOTA.timezoneId, locale: 'es-CO' }, clockAt);
    try {
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
      assert.equal(await expiryText(page), 'Este enlace funciona hasta las 14:45.');
      await noViolations(page, 'Spanish, before the tap');
      await page.clock.fastForward('13:10');
      await page.locator('#payroll-link-launch-status', { hasText: 'Este enlace deja de funcionar' }).waitFor();
      assert.equal(await statusText(page), 'Este enlace deja de funcionar en menos de 2 minutos.');
      await noViolations(page, 'Spanish, the warning');
      await page.clock.fastForward('02:00');
      await page.locator('#payroll-link-launch-status', { hasText: 'Este enlace ha caducado.' }).waitFor();
      assert.equal(await statusText(page), 'Este enlace ha caducado. Consigue un enlace nuevo');
      assert.equal(await page.getByRole('link', { name: 'Consigue un enlace nuevo' }).getAttribute('href'), `${base}/new-link`);
      await noViolations(page, 'Spanish, expired');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('after the flow by keyboard and Done, focus is on the status, and never on <body> from the tap on', async () => {
    const { page, errors, close } = await openLaunch(launches, { locale: 'en-US' });
    try {
      // Each time focus leaves an element, where it rests once the page's task is over.
      await page.evaluate(() => {
        const rests: string[] = [];
        (window as unknown as { focusRests: string[] }).focusRests = rests;
        document.addEventListener(
          'focusout',
          () => setTimeout(() => rests.push(document.activeElement?.id || document.activeElement?.tagName.toLowerCase() || '')),
          true,
        );
      });
      await button(page).press('Enter');
      const frame = await linkFrame(page);
      await switchDepositByKeyboard(frame);
      await pressDone(frame);
      await page.locator('#payroll-link-launch-status', { hasText: 'Done. You can close this page.' }).waitFor();
      assert.equal(await focused(page), 'payroll-link-launch-status');
      assert.equal(await page.locator('payroll-link').isHidden(), true);
      const rests = await page.evaluate(() => (window as unknown as { focusRests: string[] }).focusRests);
      assert.ok(rests.length > 0, 'focus moved');
      assert.ok(!rests.includes('body'), `focus rested on <body>: ${rests.join(' → ')}`);
      await noViolations(page, 'done');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('a tap on a revoked link: the page says so, its button goes, and focus rests on the status, not on <body>', async () => {
    const { page, id, close } = await openLaunch(plainLaunches, { locale: 'en-US' });
    try {
      await plainLaunches.revoke(id);
      await button(page).press('Enter');
      await page.locator('#payroll-link-launch-status', { hasText: 'This link is no longer valid.' }).waitFor();
      await page.locator('payroll-link').waitFor({ state: 'hidden' });
      await page.waitForFunction(() => document.activeElement?.id === 'payroll-link-launch-status');
      await noViolations(page, 'revoked on the tap');
    } finally {
      await close();
    }
  });

  test('an expired link’s own page (410) links to newLinkUrl, in English and Spanish; without it, it says to ask', async () => {
    // A launch made 20 minutes ago: Date.now() moved back for create()'s synchronous start only, where it seals
    // the expiry, and put back before anything else runs.
    const madeAgo = async (on: ReturnType<typeof createLinkLaunches>) => {
      const then = Date.now() - 20 * 60_000;
      mock.method(Date, 'now', () => then);
      const created = on.create({ endUserId: 'user-expired' });
      mock.restoreAll();
      return (await created).url;
    };
    const url = await madeAgo(launches);
    const plainUrl = await madeAgo(plainLaunches);
    for (const [locale, expected, linkName] of [
      ['en-US', 'This link has expired. Get a new link', 'Get a new link'],
      ['es-ES', 'Este enlace ha caducado. Consigue un enlace nuevo', 'Consigue un enlace nuevo'],
    ] as const) {
      const context = await browser.newContext({ locale });
      try {
        const page = await context.newPage();
        const response = await page.goto(url);
        assert.equal(response?.status(), 410);
        assert.equal(plain(await page.getByRole('status').textContent()), expected);
        assert.equal(await page.getByRole('link', { name: linkName }).getAttribute('href'), `${base}/new-link`);
        await noViolations(page, `expired page, ${locale}`);
        await page.goto(plainUrl);
        assert.equal(
          plain(await page.getByRole('status').textContent()),
          locale === 'en-US' ? 'This link has expired. Ask for a new one.' : 'Este enlace ha caducado. Pide uno nuevo.',
        );
        assert.equal(await page.getByRole('link').count(), 0);
      } finally {
        await context.close();
      }
    }
  });

  test('newLinkUrl must be https, or http on loopback: anything else, a string that is no URL too, is a ConfigError naming it', () => {
    for (const newLinkUrl of ['http://app.example.com/new-link', 'javascript:alert(1)', 'not a url', 'ftp://app.example.com/']) {
      assert.throws(
        () => createLinkLaunches(optionsWith({ newLinkUrl })),
        (error: unknown) => error instanceof ConfigError && /newLinkUrl/.test(error.message),
        newLinkUrl,
      );
    }
    for (const newLinkUrl of ['https://app.example.com/payroll/new-link', 'http://127.0.0.1:8787/new-link', 'http://localhost/new'])
      assert.doesNotThrow(() => createLinkLaunches(optionsWith({ newLinkUrl })), newLinkUrl);
    // The other URLs share the check: a string that is no URL is a ConfigError there too, not the URL parser's TypeError.
    assert.throws(
      () => createLinkLaunches(optionsWith({ linkUrl: 'not a url' })),
      (error: unknown) => error instanceof ConfigError && /linkUrl/.test(error.message),
    );
  });
});
