/**
 * The sandbox's hosted Link page, end to end in Debian's Chromium: the real
 * sandbox server on a free loopback port serves the page and its API, and a
 * host page on a second loopback server embeds it the way the widget does.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { startSandbox } from '../../sandbox/start-sandbox.js';
import { axeViolations } from './axe-violations.js';

const SERVICE_VERSION = '2025-07-08';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/**
 * Bound on every single wait: a broken page fails instead of hanging the suite. Generous, because a
 * bound is not a measure: a shared 2-core machine (load 20 seen) must not fail a working page.
 */
const WAIT_MS = 30_000;

/** An event as the host page recorded it from the port. */
interface RecordedEvent {
  type: string;
  name: string;
  payload: Record<string, unknown>;
}

declare global {
  interface Window {
    linkEvents: RecordedEvent[];
    strayEvents: unknown[];
    /** The fake widget's end of the session's port: what it says to the Link page (open-url results, close requests). */
    linkPort: MessagePort;
    startLink(linkUrl: string, token: string, options?: { firstInit?: Record<string, unknown> }): void;
  }
}

/**
 * A fake of the `<payroll-link>` widget, which is outside the system under
 * test here: just enough of the frame protocol to drive the Link page. It
 * embeds the page, answers `ready` with `init` and a MessagePort, and records
 * every event that arrives over that port. With `firstInit` it first sends
 * that init (one the page cannot accept) with a port of its own, whose events
 * go to `strayEvents`; the page takes only the first init it gets.
 */
const HOST_SCRIPT = `
window.linkEvents = [];
window.strayEvents = [];
window.startLink = (linkUrl, token, options = {}) => {
  const origin = new URL(linkUrl).origin;
  const frame = document.createElement('iframe');
  frame.title = 'Connect payroll';
  frame.width = '400';
  frame.height = '720';
  window.addEventListener('message', (event) => {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    if (!event.data || event.data.type !== 'payroll-link:ready' || event.data.version !== 1) return;
    if (options.firstInit) {
      const stray = new MessageChannel();
      stray.port1.onmessage = (message) => window.strayEvents.push(message.data);
      frame.contentWindow.postMessage(options.firstInit, origin, [stray.port2]);
    }
    const channel = new MessageChannel();
    channel.port1.onmessage = (message) => window.linkEvents.push(message.data);
    window.linkPort = channel.port1;
    frame.contentWindow.postMessage({ type: 'payroll-link:init', version: 1, token }, origin, [channel.port2]);
  });
  frame.src = linkUrl;
  document.body.append(frame);
};
`;
const HOST_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<script src="/host.js"></script></head><body><main><h1>Integrator page</h1></main></body></html>`;

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

// The timeout guards against a hang; the file takes about 20 s on an idle 2-core machine, and
// several times that on a loaded one.
describe('hosted Link page', { timeout: 600_000 }, () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let host: Server;
  let hostUrl: string;
  let browser: Browser;

  before(async () => {
    // A short pending phase, so user_pending reaches its timeout within the test.
    sandbox = await startSandbox({ port: 0, pendingJobDelayMs: 1_000 });
    host = createServer((req, res) => {
      if (req.url === '/host.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(HOST_SCRIPT);
      else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(HOST_HTML);
      else res.writeHead(204).end();
    });
    hostUrl = await listen(host);
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: chromiumArgs,
    });
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => host?.close(resolve));
    await sandbox?.close();
  });

  /** Creates a Link token through the sandbox's public API, as an integrator's backend would; `extra` adds optional fields. */
  async function createLinkToken(extra: Record<string, unknown> = {}): Promise<{ id: string; token: string }> {
    const response = await fetch(`${sandbox.url}/link_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-secret': sandbox.secret, 'Service-Version': SERVICE_VERSION },
      body: JSON.stringify({ org_name: 'Acme Lending', features: ['direct_deposit_switch'], solution: 'deposit_switch', ...extra }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const { data } = (await response.json()) as { data: { id: string; token: string } };
    return data;
  }

  /** A fresh browser context with the fake widget loaded; console errors are collected for the end of the test. */
  async function openHost(): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 480, height: 800 } });
    context.setDefaultTimeout(WAIT_MS);
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(hostUrl);
    return { context, page, consoleErrors };
  }

  /** Runs `steps` in a fresh fake-widget page, then checks the console stayed clean; always closes the context. */
  async function inHost(steps: (page: Page) => Promise<void>): Promise<void> {
    const { context, page, consoleErrors } = await openHost();
    try {
      await steps(page);
      expectCleanConsole(consoleErrors);
    } finally {
      await context.close();
    }
  }

  /** Starts Link in the fake widget and returns the Link page's frame. */
  async function startLink(page: Page, token: string, options: { firstInit?: Record<string, unknown> } = {}): Promise<Frame> {
    await page.evaluate(([url, t, o]) => window.startLink(url, t, o), [`${sandbox.url}/link`, token, options] as const);
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    assert.ok(frame, 'the Link frame exists');
    return frame;
  }

  const events = (page: Page) => page.evaluate(() => window.linkEvents);
  const names = async (page: Page) => (await events(page)).map((event) => event.name);
  const screens = async (page: Page) =>
    (await events(page)).filter((event) => event.name === 'screen_transition').map((event) => event.payload.screenName);

  /** Waits until the host has recorded `count` events called `name`. */
  async function waitForEvent(page: Page, name: string, count = 1): Promise<RecordedEvent> {
    await page.waitForFunction(([n, c]) => window.linkEvents.filter((e) => e.name === n).length >= c, [name, count] as const, {
      timeout: WAIT_MS,
    });
    return (await events(page)).filter((event) => event.name === name)[count - 1]!;
  }

  /** Waits for the screen's heading and checks that keyboard focus moved to it. */
  async function expectScreen(frame: Frame, heading: string | RegExp): Promise<void> {
    await frame.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: WAIT_MS });
    const focused = await frame.waitForFunction(
      () => {
        let element = document.activeElement;
        while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
        return element?.tagName === 'H1' ? element.textContent : false;
      },
      null,
      { timeout: WAIT_MS },
    );
    const text = String(await focused.jsonValue());
    if (typeof heading === 'string') assert.equal(text.trim(), heading);
    else assert.match(text, heading);
  }

  /** Runs axe in the Link frame and asserts no violations and no sideways scrolling. */
  async function expectAccessible(frame: Frame, screen: string): Promise<void> {
    assert.deepEqual(await axeViolations(frame), [], `axe violations on the ${screen} screen`);
    // Reflow (WCAG 1.4.10): at phone width the screen must not scroll sideways.
    const overflow = await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the ${screen} screen is ${overflow}px wider than the frame`);
  }

  /** Intro → the employer search. */
  async function goToSearch(frame: Frame): Promise<void> {
    await expectScreen(frame, 'Acme Lending wants to switch your direct deposit');
    await frame.getByRole('button', { name: 'Continue' }).press('Enter');
    await expectScreen(frame, 'Find your employer');
  }

  /** Intro → search → the first employer on a payroll platform → login screen. */
  async function goToLogin(page: Page, frame: Frame): Promise<void> {
    await goToSearch(frame);
    const hit = frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first();
    await hit.waitFor();
    await hit.press('Enter');
    await expectScreen(frame, /^Log in to /);
    await waitForEvent(page, 'screen_transition', 3);
  }

  /** A payroll employer that takes a percentage allocation, or one that takes none. */
  function payrollEmployer(percentage: boolean) {
    const { employers, platformById } = sandbox.store.catalogue;
    const found = employers.find(
      ({ item }) => platformById.get(item.platform_id)?.type === 'payroll' && item.supports_percentage_allocation === percentage,
    );
    assert.ok(found, `the catalogue has a payroll employer with supports_percentage_allocation ${percentage}`);
    return found.item;
  }

  /** On the search screen: types the employer's name and picks it → its login screen. */
  async function pickEmployer(frame: Frame, name: string): Promise<void> {
    await expectScreen(frame, 'Find your employer');
    await frame.getByLabel('Employer or payroll provider').fill(name);
    await frame.locator('button.hit[data-kind="employer"]').filter({ hasText: name }).first().press('Enter');
    await expectScreen(frame, `Log in to ${name}`);
  }

  async function logIn(frame: Frame, username: string, password: string): Promise<void> {
    await frame.getByLabel('Username').fill(username);
    await frame.getByLabel('Password').fill(password);
    await frame.getByLabel('Password').press('Enter');
  }

  /**
   * Holds the Link page's job polls (`GET /link/api/jobs/{id}`) until `release()`; every other request passes.
   * `first` resolves when the page has asked for its job: it is waiting for the job, not showing a result.
   */
  async function holdJobPolls(page: Page): Promise<{ first: Promise<void>; release: () => void }> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const first = new Promise<void>((resolve) => (asked = resolve));
    await page.route(/\/link\/api\/jobs\/[^/]+$/, async (route) => {
      if (route.request().method() === 'GET') {
        asked();
        await released;
      }
      await route.continue();
    });
    return { first, release };
  }

  /** Starts Link, logs in as user_pending and starts its deposit switch: the running screen, its job polls held. */
  async function runPendingJob(page: Page, token: string): Promise<{ polls: Awaited<ReturnType<typeof holdJobPolls>>; frame: Frame }> {
    const polls = await holdJobPolls(page);
    const frame = await startLink(page, token);
    await goToLogin(page, frame);
    await logIn(frame, 'user_pending', 'pass_good');
    await expectScreen(frame, 'Choose your deposit');
    await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');
    await expectScreen(frame, 'Switching your direct deposit');
    return { polls, frame };
  }

  /**
   * Asserts the browser logged no error: no CSP violation, no exception. The
   * browser's own note on a refused API call (a 401 the test asked for) and a
   * favicon miss are not the page's errors.
   */
  function expectCleanConsole(consoleErrors: string[]): void {
    const expected =
      /^Failed to load resource: the server responded with a status of (401 \(Unauthorized\) \(\S+\/link\/api\/|4\d\d \([\w ]+\) \(\S+\/favicon\.ico\))/;
    assert.deepEqual(
      consoleErrors.filter((text) => !expected.test(text)),
      [],
    );
  }

  test('user_good: the full deposit switch emits every event in order, with real ids', async () => {
    const linkToken = await createLinkToken();
    await inHost(async (page) => {
      const frame = await startLink(page, linkToken.token);
      await expectScreen(frame, 'Acme Lending wants to switch your direct deposit');
      await expectAccessible(frame, 'intro');
      await goToSearch(frame);

      // Pagination: "Load more" appends the next page and moves focus to its first hit.
      const hits = frame.locator('button.hit');
      await hits.first().waitFor();
      const firstPage = await hits.count();
      await frame.getByRole('button', { name: 'Load more' }).press('Enter');
      await frame.waitForFunction((n) => {
        const search = document.querySelector('link-app')?.shadowRoot?.querySelector('link-search');
        return (search?.shadowRoot?.querySelectorAll('button.hit').length ?? 0) > n;
      }, firstPage);
      await expectAccessible(frame, 'search');

      const employer = frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first();
      const employerName = (await employer.locator('.name').textContent())?.trim();
      await employer.press('Enter');
      await expectScreen(frame, `Log in to ${employerName}`);
      assert.ok(await frame.getByRole('region', { name: 'Sandbox test credentials' }).isVisible(), 'credentials panel shown');
      await expectAccessible(frame, 'login');

      await logIn(frame, 'user_good', 'pass_good');
      await expectScreen(frame, 'Choose your deposit');
      await expectAccessible(frame, 'allocation');
      await frame.getByRole('radio', { name: /A fixed amount/ }).check();
      await frame.getByLabel('Amount per paycheck (USD)').fill('250.50');
      await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');

      await expectScreen(frame, 'Your direct deposit is switched');
      await expectAccessible(frame, 'success');
      await frame.getByRole('button', { name: 'Done' }).press('Enter');
      const exit = await waitForEvent(page, 'exit');

      assert.deepEqual(await names(page), [
        'open',
        'screen_transition',
        'screen_transition',
        'select_employer',
        'screen_transition',
        'login_attempt',
        'login',
        'screen_transition',
        'input_allocation',
        'screen_transition',
        'success',
        'screen_transition',
        'exit',
      ]);
      assert.deepEqual(await screens(page), ['intro', 'search', 'login', 'allocation', 'running', 'success']);
      const byName = Object.fromEntries((await events(page)).map((event) => [event.name, event.payload]));
      assert.deepEqual(byName.open, { linkTokenId: linkToken.id });
      assert.match(String(byName.select_employer!.selectedEmployerId), UUID);
      assert.equal(byName.select_employer!.selectedEmployerName, employerName);
      assert.deepEqual(byName.input_allocation, { action: 'partial_switch', allocation: { type: 'amount', value: 25050 } });
      const login = byName.login!;
      assert.match(String(login.accountId), UUID);
      assert.match(String(login.platformId), UUID);
      assert.equal(login.linkTokenId, linkToken.id);
      assert.deepEqual(byName.login_attempt, { platformId: login.platformId });
      // Each screen after the pick names it, as Pinwheel's screen_transition does; the screens before it name none.
      const transitions = (await events(page)).filter((event) => event.name === 'screen_transition').map((event) => event.payload);
      assert.deepEqual(transitions[0], { screenName: 'intro' });
      assert.deepEqual(transitions.at(-1), {
        screenName: 'success',
        selectedEmployerId: byName.select_employer!.selectedEmployerId,
        selectedEmployerName: employerName,
      });
      const success = byName.success!;
      assert.equal(success.accountId, login.accountId);
      assert.equal(success.platformId, login.platformId);
      assert.equal(success.linkTokenId, linkToken.id);
      assert.equal(success.job, 'direct_deposit_switch');
      assert.match(String(success.jobId), UUID);
      assert.deepEqual(exit.payload, { reason: 'completed', error: null, accountId: login.accountId });

      // The page worked on the real sandbox: the account and the job exist through the public API.
      const headers = { 'x-api-secret': sandbox.secret, 'Service-Version': SERVICE_VERSION };
      const job = await fetch(`${sandbox.url}/v1/jobs/${success.jobId}`, { headers });
      assert.equal(job.status, 200);
      const accounts = (await (await fetch(`${sandbox.url}/v1/accounts?limit=100`, { headers })).json()) as { data: Array<{ id: string }> };
      assert.ok(
        accounts.data.some((account) => account.id === login.accountId),
        'the account is in the sandbox',
      );
      await expectScreen(frame, 'Session ended');
    });
  });

  test("picking a payroll platform (not an employer) sends select_platform and names it in the screens that follow, with Pinwheel's fields", async () => {
    const { token } = await createLinkToken({ skip_intro_screen: true });
    await inHost(async (page) => {
      const frame = await startLink(page, token);
      await expectScreen(frame, 'Find your employer');
      const platform = frame.locator('button.hit[data-kind="platform"][data-platform-type="payroll"]').first();
      await platform.waitFor();
      const platformName = (await platform.locator('.name').textContent())?.trim();
      await platform.press('Enter');
      await expectScreen(frame, `Log in to ${platformName}`);
      await logIn(frame, 'user_good', 'pass_good');
      const login = await waitForEvent(page, 'login');
      const picked = (await waitForEvent(page, 'select_platform')).payload;
      assert.match(String(picked.selectedPlatformId), UUID);
      assert.deepEqual(picked, { selectedPlatformId: picked.selectedPlatformId, selectedPlatformName: platformName });
      assert.deepEqual((await waitForEvent(page, 'login_attempt')).payload, { platformId: picked.selectedPlatformId });
      assert.equal(login.payload.platformId, picked.selectedPlatformId);
      const transitions = (await events(page)).filter((event) => event.name === 'screen_transition').map((event) => event.payload);
      assert.deepEqual(transitions.slice(0, 2), [
        { screenName: 'search' },
        { screenName: 'login', selectedPlatformId: picked.selectedPlatformId, selectedPlatformName: platformName },
      ]);
      assert.ok(!(await names(page)).includes('select_employer'));
    });
  });

  test('a wrong password is a non-terminal invalidCredentials error; the right one logs in; closing then is user_closed', async () => {
    const { token } = await createLinkToken();
    await inHost(async (page) => {
      const frame = await startLink(page, token);
      await goToLogin(page, frame);
      await logIn(frame, 'user_good', 'wrong_password');
      const error = await waitForEvent(page, 'error');
      assert.deepEqual(error.payload, {
        type: 'invalidCredentials',
        code: 'INVALID_CREDENTIALS',
        message: error.payload.message,
        pendingRetry: true,
      });
      await frame.getByRole('alert').filter({ hasText: 'did not work' }).waitFor();
      assert.equal(await frame.getByLabel('Password').getAttribute('aria-invalid'), 'true');
      await expectAccessible(frame, 'login with an error');

      await logIn(frame, 'user_good', 'pass_good');
      await expectScreen(frame, 'Choose your deposit');
      // The screen may show before its login event has reached the host page: waited for, not assumed.
      const login = await waitForEvent(page, 'login');
      assert.deepEqual((await names(page)).filter((name) => name !== 'screen_transition').slice(-4), [
        'login_attempt',
        'error',
        'login_attempt',
        'login',
      ]);
      assert.ok(!(await names(page)).includes('exit'), 'a wrong password does not end the session');
      // Leaving after login through the header's close control: user_closed, with the account that now exists.
      await frame.getByRole('button', { name: 'Close Payroll Link' }).press('Enter');
      const exit = await waitForEvent(page, 'exit');
      assert.deepEqual(exit.payload, { reason: 'user_closed', error: null, accountId: login.payload.accountId });
    });
  });

  test('user_mfa: asks for the one-time code, refuses a wrong one, then succeeds', async () => {
    const { token } = await createLinkToken();
    await inHost(async (page) => {
      const frame = await startLink(page, token);
      await goToLogin(page, frame);
      await logIn(frame, 'user_mfa', 'pass_good');
      await expectScreen(frame, 'Enter your one-time code');
      await expectAccessible(frame, 'mfa');
      await frame.getByLabel('One-time code').fill('123456');
      await frame.getByLabel('One-time code').press('Enter');
      const error = await waitForEvent(page, 'error');
      assert.equal(error.payload.type, 'invalidCredentials');
      assert.equal(error.payload.code, 'INVALID_MFA_CODE');
      assert.equal(error.payload.pendingRetry, true);

      await frame.getByLabel('One-time code').fill('mfa_code');
      await frame.getByLabel('One-time code').press('Enter');
      await expectScreen(frame, 'Choose your deposit');
      await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');
      await expectScreen(frame, 'Your direct deposit is switched');
      await frame.getByRole('button', { name: 'Done' }).press('Enter');
      const exit = await waitForEvent(page, 'exit');
      assert.equal(exit.payload.reason, 'completed');
      assert.deepEqual((await events(page)).find((event) => event.name === 'input_allocation')?.payload, {
        action: 'partial_switch',
        allocation: { type: 'remainder' },
      });
      assert.deepEqual(await screens(page), ['intro', 'search', 'login', 'mfa', 'allocation', 'running', 'success']);
    });
  });

  test('user_error: the job fails, an error event follows, and Close exits with that error', async () => {
    const { token } = await createLinkToken();
    await inHost(async (page) => {
      const frame = await startLink(page, token);
      await goToSearch(frame);
      // An employer that takes a percentage: the page offers one only then.
      await pickEmployer(frame, payrollEmployer(true).name);
      await logIn(frame, 'user_error', 'pass_good');
      await expectScreen(frame, 'Choose your deposit');
      await frame.getByRole('radio', { name: /A percentage/ }).check();
      await frame.getByLabel('Percentage of each paycheck').fill('150');
      await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');
      // A percentage above 100 is refused on the page, before any call.
      await frame.getByRole('alert').filter({ hasText: 'from 1 to 100' }).waitFor();
      await frame.getByLabel('Percentage of each paycheck').fill('40');
      await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');

      const error = await waitForEvent(page, 'error');
      assert.equal(error.payload.type, 'platformError');
      assert.equal(error.payload.code, 'JOB_FAILED');
      assert.equal(error.payload.pendingRetry, false);
      await expectScreen(frame, 'Your payroll provider could not finish');
      await expectAccessible(frame, 'job error');
      assert.ok(!(await names(page)).includes('exit'), 'the exit waits for the user');
      await frame.getByRole('button', { name: 'Close', exact: true }).press('Enter');
      const exit = await waitForEvent(page, 'exit');
      const login = await waitForEvent(page, 'login');
      assert.deepEqual(exit.payload, { reason: 'error', error: error.payload, accountId: login.payload.accountId });
      assert.deepEqual((await events(page)).find((event) => event.name === 'input_allocation')?.payload, {
        action: 'partial_switch',
        allocation: { type: 'percentage', value: 40 },
      });
      assert.deepEqual((await names(page)).slice(-3), ['error', 'screen_transition', 'exit']);
    });
  });

  test('user_pending: the running screen waits for the job, then reports its timeout', async () => {
    const { token } = await createLinkToken();
    await inHost(async (page) => {
      // The job times out on the sandbox's timer (pendingJobDelayMs) and the page leaves the running screen at its
      // next poll after that; the checks of that screen may take longer on a loaded machine. So the page's polls
      // wait here until those checks are done: it stays on the running screen because no answer has come, however
      // slow the checks. Then the polls go on to the real sandbox.
      const { polls, frame } = await runPendingJob(page, token);
      await expectAccessible(frame, 'running');
      await polls.first;
      polls.release();
      const error = await waitForEvent(page, 'error');
      assert.deepEqual(
        { type: error.payload.type, code: error.payload.code, pendingRetry: error.payload.pendingRetry },
        { type: 'platformError', code: 'JOB_TIMEOUT', pendingRetry: false },
      );
      await expectScreen(frame, 'Your payroll provider could not finish');
      assert.deepEqual((await screens(page)).slice(-2), ['running', 'error']);
      assert.ok(!(await names(page)).includes('success'));
    });
  });

  test('a token with only employer_id and an allocation goes straight to that login, then switches without asking', async () => {
    const employer = payrollEmployer(false);
    const linkToken = await createLinkToken({
      employer_id: employer.id,
      allocation: { type: 'amount', value: 5000 },
      skip_intro_screen: true,
    });
    await inHost(async (page) => {
      const frame = await startLink(page, linkToken.token);
      await expectScreen(frame, 'Log in to your payroll provider');
      await logIn(frame, 'user_good', 'pass_good');
      await expectScreen(frame, 'Your direct deposit is switched');
      await waitForEvent(page, 'success');
      assert.deepEqual(await screens(page), ['login', 'running', 'success']);
      const byName = Object.fromEntries((await events(page)).map((event) => [event.name, event.payload]));
      assert.deepEqual(byName.login_attempt, { platformId: employer.platform_id });
      assert.deepEqual(byName.input_allocation, { action: 'partial_switch', allocation: { type: 'amount', value: 5000 } });
      // The Link token named the employer, not its name: the screens say which, without a name.
      assert.deepEqual(byName.screen_transition, { screenName: 'success', selectedEmployerId: employer.id });
      assert.deepEqual(byName.success!.params, { allocation_type: 'amount', allocation_value: 5000 });
      const account = sandbox.store.account(String(byName.login!.accountId))!.account;
      assert.equal(account.employer_id, employer.id);
    });
  });

  test('where the employer takes no percentage the allocation screen offers none, even when the token preset one', async () => {
    const employer = payrollEmployer(false);
    const { token } = await createLinkToken({ allocation: { type: 'percentage', value: 40 }, skip_intro_screen: true });
    await inHost(async (page) => {
      const frame = await startLink(page, token);
      await pickEmployer(frame, employer.name);
      await logIn(frame, 'user_good', 'pass_good');
      await expectScreen(frame, 'Choose your deposit');
      const choices = await frame.getByRole('radio').evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).value));
      assert.deepEqual(choices, ['remainder', 'amount']);
      assert.ok(!(await names(page)).includes('input_allocation'), 'the user has not chosen yet');
      await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');
      await expectScreen(frame, 'Your direct deposit is switched');
      assert.deepEqual((await events(page)).find((event) => event.name === 'input_allocation')?.payload, {
        action: 'partial_switch',
        allocation: { type: 'remainder' },
      });
    });
  });

  test('Escape exits with user_closed, once', async () => {
    const { token } = await createLinkToken();
    await inHost(async (page) => {
      const frame = await startLink(page, token);
      await goToSearch(frame);
      await frame.getByLabel('Employer or payroll provider').press('Escape');
      const exit = await waitForEvent(page, 'exit');
      assert.deepEqual(exit.payload, { reason: 'user_closed', error: null });
      await expectScreen(frame, 'Session ended');
      await frame.locator('h1').press('Escape');
      assert.equal((await names(page)).filter((name) => name === 'exit').length, 1);
    });
  });

  test('an init it cannot accept (another protocol version, a malformed token) gets the error screen and an error event, never "Getting ready"', async () => {
    const { token } = await createLinkToken();
    const cases = [
      { init: { version: 2, token }, type: 'clientError', code: 'UNSUPPORTED_PROTOCOL_VERSION', heading: 'Something went wrong' },
      {
        init: { version: 1, token: 'x'.repeat(2_001) },
        type: 'invalidLinkToken',
        code: 'INVALID_LINK_TOKEN',
        heading: 'This link is no longer valid',
      },
      { init: { version: 1, token: '' }, type: 'invalidLinkToken', code: 'INVALID_LINK_TOKEN', heading: 'This link is no longer valid' },
    ];
    for (const { init, type, code, heading } of cases) {
      await inHost(async (page) => {
        const frame = await startLink(page, token, { firstInit: { type: 'payroll-link:init', ...init } });
        // The answer comes over the refused init's own port: waited for, not timed.
        await page.waitForFunction(() => window.strayEvents.some((event) => (event as { name?: string }).name === 'error'));
        const stray = () => page.evaluate(() => window.strayEvents as RecordedEvent[]);
        const error = (await stray()).find((event) => event.name === 'error')!;
        assert.deepEqual(
          { type: error.payload.type, code: error.payload.code, pendingRetry: error.payload.pendingRetry },
          { type, code, pendingRetry: false },
        );
        await expectScreen(frame, heading);
        await frame.getByRole('button', { name: 'Close', exact: true }).press('Enter');
        await page.waitForFunction(() => window.strayEvents.some((event) => (event as { name?: string }).name === 'exit'));
        const exit = (await stray()).find((event) => event.name === 'exit')!;
        assert.deepEqual(exit.payload, { reason: 'error', error: error.payload });
        // The page takes one init: the valid one sent after the refused one starts nothing.
        assert.deepEqual(await names(page), []);
      });
    }
  });

  test('a used or unknown token gets a clear screen, an invalidLinkToken error, and exit error on Close', async () => {
    const { token } = await createLinkToken();
    await inHost(async (page) => {
      const frame = await startLink(page, token);
      await waitForEvent(page, 'open');
      await expectScreen(frame, 'Acme Lending wants to switch your direct deposit');
    });
    for (const spent of [token, 'not-a-real-token']) {
      await inHost(async (page) => {
        const frame = await startLink(page, spent);
        await expectScreen(frame, 'This link is no longer valid');
        const error = await waitForEvent(page, 'error');
        assert.equal(error.payload.type, 'invalidLinkToken');
        assert.equal(error.payload.code, 'INVALID_LINK_TOKEN');
        assert.equal(error.payload.pendingRetry, false);
        if (spent === token) await expectAccessible(frame, 'invalid token');
        await frame.getByRole('button', { name: 'Close', exact: true }).press('Enter');
        const exit = await waitForEvent(page, 'exit');
        assert.deepEqual(exit.payload, { reason: 'error', error: error.payload });
        assert.ok(!(await names(page)).includes('open'), 'no open event without a session');
      });
    }
  });

  /** Waits until the Link page has sent a port message of `type` (an `open-url`, a `close-answer`) `count` times. */
  async function waitForMessage(page: Page, type: string, count = 1): Promise<Record<string, unknown>> {
    await page.waitForFunction(([t, c]) => window.linkEvents.filter((e) => e.type === t).length >= c, [type, count] as const, {
      timeout: WAIT_MS,
    });
    return (await events(page)).filter((event) => event.type === type)[count - 1] as unknown as Record<string, unknown>;
  }

  test('OAuth Payroll: asks the widget for a window; blocked, its own button opens it; the sandbox says when the login is done', async () => {
    const { token } = await createLinkToken();
    await inHost(async (page) => {
      const frame = await startLink(page, token);
      await goToSearch(frame);
      await frame.getByLabel('Employer or payroll provider').fill('OAuth');
      await frame.locator('button.hit[data-kind="platform"]').filter({ hasText: 'OAuth Payroll' }).press('Enter');
      await expectScreen(frame, 'Log in to OAuth Payroll');
      await expectAccessible(frame, 'OAuth login');
      await frame.getByRole('button', { name: 'Log in with OAuth Payroll' }).click();
      const asked = await waitForMessage(page, 'payroll-link:open-url');
      const url = String(asked.url);
      assert.match(url, /\/link\/oauth\?state=[0-9a-f-]{36}$/);
      assert.ok(!url.includes(token), 'never the Link token in the URL');
      // The fake widget's popup was blocked: the Link page offers its own button, whose click opens the window.
      await page.evaluate((u) => window.linkPort.postMessage({ type: 'payroll-link:open-url-result', url: u, outcome: 'blocked' }), url);
      await frame.getByText('Your browser blocked the new window.').waitFor();
      await expectAccessible(frame, 'OAuth login, window blocked');
      const popupOpened = page.context().waitForEvent('page');
      await frame.getByRole('button', { name: 'Continue in a new window' }).click();
      const popup = await popupOpened;
      await popup.waitForURL(url);
      assert.equal(await popup.evaluate(() => window.opener), null, 'noopener');
      await popup.getByLabel('Username').fill('user_good');
      await popup.getByLabel('Password').fill('pass_good');
      await popup.getByRole('button', { name: 'Log in' }).click();
      await popup.getByText('Return to the app').waitFor();
      await popup.close();
      await expectScreen(frame, 'Choose your deposit');
      const login = await waitForEvent(page, 'login');
      assert.equal(login.payload.platformId, '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a');
    });
  });

  test('closing while the job runs asks first: a close request is answered "confirming", Stay goes on, Leave exits user_closed', async () => {
    const { token } = await createLinkToken();
    await inHost(async (page) => {
      // The job stays running while this test looks at it (see the user_pending test).
      const { polls, frame } = await runPendingJob(page, token);
      await page.evaluate(() => window.linkPort.postMessage({ type: 'payroll-link:close-request' }));
      assert.equal((await waitForMessage(page, 'payroll-link:close-answer')).answer, 'confirming');
      const question = frame.getByRole('alertdialog');
      await question.getByText('Your direct deposit switch is still running. Leave anyway?').waitFor();
      await expectAccessible(frame, 'leave question');
      await question.getByRole('button', { name: 'Stay' }).press('Enter');
      assert.equal((await waitForMessage(page, 'payroll-link:close-answer', 2)).answer, 'stay');
      await question.waitFor({ state: 'detached' });
      // Escape inside the frame asks the same question; Leave ends the session.
      await frame.locator('h1').press('Escape');
      await question.getByRole('button', { name: 'Leave' }).press('Enter');
      const exit = await waitForEvent(page, 'exit');
      assert.deepEqual({ reason: exit.payload.reason, error: exit.payload.error }, { reason: 'user_closed', error: null });
      polls.release();
    });
  });

  test('opened outside a frame, the page explains that the widget must open it', async () => {
    await inHost(async (page) => {
      const response = await page.goto(`${sandbox.url}/link`);
      assert.match(response?.headers()['content-security-policy'] ?? '', /default-src 'self'/);
      await expectScreen(page.mainFrame(), 'Open this page from the app');
      await expectAccessible(page.mainFrame(), 'standalone');
    });
  });
});
