/**
 * The demo, end to end, as a newcomer would use it: the real sandbox (with its
 * hosted Link page), the real example backend and the Vite dev server of
 * `demo/`, on free loopback ports, driven in Debian's Chromium. Nothing faked.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { startDemo, type Demo } from '../../scripts/start-demo.js';
import { pressDone, switchDeposit as linkFlowSwitchDeposit } from '../sandbox-link-flow.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Bound on each wait; generous because CI machines are small and shared (load 20 seen on 2 cores). */
const WAIT_MS = 60_000;
const OUTPUT = new URL('../../test-output/e2e/', import.meta.url);

interface TimelineEntry {
  source: 'event' | 'callback';
  name: string;
  detail: Record<string, any>;
}

describe('npm run demo, end to end', { timeout: 900_000 }, () => {
  let demo: Demo;
  let browser: Browser;

  before(async () => {
    await mkdir(OUTPUT, { recursive: true });
    demo = await startDemo({ sandboxPort: 0, backendPort: 0, demoPort: 0, live: false });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: chromiumArgs,
    });
  });

  after(async () => {
    await browser?.close();
    await demo?.close();
  });

  async function openDemo(
    url = demo.url,
    connectLabel = 'Connect payroll',
  ): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    context.setDefaultTimeout(WAIT_MS);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    await page.locator('payroll-link#element-demo').getByRole('button', { name: connectLabel }).waitFor();
    return { page, errors, close: () => context.close() };
  }

  /** The page's timeline, oldest first. */
  async function timeline(page: Page): Promise<TimelineEntry[]> {
    const entries = await page.locator('#timeline > li').evaluateAll((items) =>
      items.map((item) => ({
        source: (item as HTMLElement).dataset.source,
        name: (item as HTMLElement).dataset.name,
        detail: JSON.parse((item as HTMLElement).dataset.detail ?? 'null'),
      })),
    );
    return (entries as TimelineEntry[]).reverse();
  }
  const domEvents = async (page: Page) => (await timeline(page)).filter((e) => e.source === 'event' && e.name !== 'link-event');
  const callbacks = async (page: Page) => (await timeline(page)).filter((e) => e.source === 'callback');
  const one = (entries: TimelineEntry[], name: string) => {
    const found = entries.filter((e) => e.name === name);
    assert.equal(found.length, 1, `exactly one ${name}`);
    return found[0]!.detail;
  };

  async function waitForTimeline(page: Page, name: string) {
    await page.locator(`#timeline > li[data-name="${name}"]`).first().waitFor();
  }

  /** Clicks the element and returns the Link frame once its intro shows. */
  async function startSession(page: Page): Promise<Frame> {
    await page.locator('payroll-link#element-demo').getByRole('button', { name: 'Connect payroll' }).click();
    // The element's modal opens in a container of its own at the end of <body>.
    const frame = await (await page.waitForSelector('[data-payroll-link-modal] iframe')).contentFrame();
    assert.ok(frame);
    await frame.getByRole('heading', { level: 1, name: /wants to switch your direct deposit/ }).waitFor();
    return frame;
  }

  async function pickEmployer(frame: Frame) {
    await frame.getByRole('button', { name: 'Continue' }).click();
    const employer = frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first();
    await employer.click();
    await frame.getByRole('heading', { level: 1, name: /^Log in to / }).waitFor();
  }

  async function logIn(frame: Frame, username: string, password: string) {
    await frame.getByLabel('Username').fill(username);
    await frame.getByLabel('Password').fill(password);
    await frame.getByLabel('Password').press('Enter');
  }

  async function switchDeposit(frame: Frame) {
    await frame.getByRole('heading', { level: 1, name: 'Choose your deposit' }).waitFor();
    await frame.getByRole('button', { name: 'Switch my deposit' }).click();
    await frame.getByRole('heading', { level: 1, name: 'Your direct deposit is switched' }).waitFor();
    await finalPress(frame.getByRole('button', { name: 'Done' }));
  }

  /**
   * Presses a button that ends the session. The widget removes the frame at once, and
   * Playwright's wait for the removed frame's input acknowledgement can then hang, so
   * the press is not awaited: the caller waits for `link-exit` on the page instead.
   */
  async function finalPress(button: ReturnType<Frame['getByRole']>, key = 'Enter') {
    await button.focus();
    void button.press(key).catch(() => {});
  }

  test('user_good: login, success, one completed exit; the backend got account.added and lists the account', async () => {
    const { page, errors, close } = await openDemo();
    try {
      const frame = await startSession(page);
      await pickEmployer(frame);
      await page.screenshot({ path: new URL('link-flow-open.png', OUTPUT).pathname });
      // One close control: the modal's. The widget told the Link page it draws one, so the page leaves its own out.
      assert.equal(await frame.getByRole('button', { name: 'Close Payroll Link' }).count(), 0);
      assert.equal(await page.locator('[data-payroll-link-modal] [part="close-button"]').count(), 1);
      await logIn(frame, 'user_good', 'pass_good');
      await switchDeposit(frame);
      await waitForTimeline(page, 'link-exit');

      const events = await domEvents(page);
      assert.deepEqual(
        events.map((e) => e.name),
        ['link-open', 'link-login', 'link-success', 'link-exit'],
      );
      const login = one(events, 'link-login');
      const success = one(events, 'link-success');
      const exit = one(events, 'link-exit');
      for (const id of [login.accountId, login.linkTokenId, success.jobId, success.accountId]) assert.match(id, UUID);
      assert.equal(success.accountId, login.accountId);
      assert.equal(success.linkTokenId, login.linkTokenId);
      assert.deepEqual(exit, { reason: 'completed', error: null, linkTokenId: login.linkTokenId, accountId: login.accountId });
      assert.deepEqual(
        (await callbacks(page)).map((e) => e.name),
        ['onLogin', 'onSuccess', 'onExit'],
      );
      assert.equal(await page.locator('[data-payroll-link-modal]').count(), 0);

      // The webhook reached the backend, with the same ids.
      await page.waitForFunction(
        (accountId) => (document.getElementById('webhooks')?.dataset.events ?? '').includes(accountId),
        login.accountId,
        { timeout: WAIT_MS },
      );
      const webhooks = (await (await fetch(`${demo.backendUrl}/api/webhooks`)).json()) as { data: Array<{ event: string; payload: any }> };
      const added = webhooks.data.filter((w) => w.event === 'account.added' && w.payload.account_id === login.accountId);
      assert.equal(added.length, 1);
      assert.equal(added[0]!.payload.link_token_id, login.linkTokenId);
      const accounts = (await (await fetch(`${demo.backendUrl}/api/accounts`)).json()) as { data: Array<{ id: string }> };
      assert.ok(
        accounts.data.some((a) => a.id === login.accountId),
        'GET /api/accounts lists the account',
      );
      await page.waitForFunction((id) => (document.getElementById('accounts')?.dataset.ids ?? '').includes(id), login.accountId);
      await page.locator('#timeline-title').scrollIntoViewIfNeeded();
      await page.screenshot({ path: new URL('timeline.png', OUTPUT).pathname, fullPage: true });
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('a wrong password is a non-terminal error; the right one then completes', async () => {
    const { page, errors, close } = await openDemo();
    try {
      const frame = await startSession(page);
      await pickEmployer(frame);
      await logIn(frame, 'user_good', 'nope');
      await waitForTimeline(page, 'link-error');
      await logIn(frame, 'user_good', 'pass_good');
      await switchDeposit(frame);
      await waitForTimeline(page, 'link-exit');
      const events = await domEvents(page);
      assert.deepEqual(
        events.map((e) => e.name),
        ['link-open', 'link-error', 'link-login', 'link-success', 'link-exit'],
      );
      assert.deepEqual(one(events, 'link-error'), {
        type: 'invalidCredentials',
        code: 'INVALID_CREDENTIALS',
        message: one(events, 'link-error').message,
        pendingRetry: true,
      });
      assert.equal(one(events, 'link-exit').reason, 'completed');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('user_mfa with mfa_code completes', async () => {
    const { page, errors, close } = await openDemo();
    try {
      const frame = await startSession(page);
      await pickEmployer(frame);
      await logIn(frame, 'user_mfa', 'pass_good');
      await frame.getByLabel('One-time code').fill('mfa_code');
      await frame.getByLabel('One-time code').press('Enter');
      await switchDeposit(frame);
      await waitForTimeline(page, 'link-exit');
      const events = await domEvents(page);
      assert.deepEqual(
        events.map((e) => e.name),
        ['link-open', 'link-login', 'link-success', 'link-exit'],
      );
      assert.equal(one(events, 'link-exit').reason, 'completed');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('user_error: the job fails and the session exits with that error', async () => {
    const { page, errors, close } = await openDemo();
    try {
      const frame = await startSession(page);
      await pickEmployer(frame);
      await logIn(frame, 'user_error', 'pass_good');
      await frame.getByRole('heading', { level: 1, name: 'Choose your deposit' }).waitFor();
      await frame.getByRole('button', { name: 'Switch my deposit' }).click();
      await waitForTimeline(page, 'link-error');
      await finalPress(frame.getByRole('button', { name: 'Close', exact: true }).last());
      await waitForTimeline(page, 'link-exit');
      const events = await domEvents(page);
      assert.deepEqual(
        events.map((e) => e.name),
        ['link-open', 'link-login', 'link-error', 'link-exit'],
      );
      const exit = one(events, 'link-exit');
      assert.equal(exit.reason, 'error');
      assert.deepEqual(exit.error, one(events, 'link-error'));
      assert.equal(exit.error.pendingRetry, false);
      // The element shows its error state.
      await page.locator('payroll-link#element-demo').locator('[part="error"]').waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('Escape closes the flow as user_closed and focus returns to the button', async () => {
    const { page, errors, close } = await openDemo();
    try {
      const frame = await startSession(page);
      await finalPress(frame.getByRole('button', { name: 'Continue' }), 'Escape');
      await waitForTimeline(page, 'link-exit');
      const events = await domEvents(page);
      assert.deepEqual(
        events.map((e) => e.name),
        ['link-open', 'link-exit'],
      );
      assert.deepEqual(one(events, 'link-exit'), { reason: 'user_closed', error: null, linkTokenId: one(events, 'link-open').linkTokenId });
      const focused = await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('part'));
      assert.equal(focused, 'button');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('the imperative openLink() example runs its own session with its own button', async () => {
    const { page, errors, close } = await openDemo();
    try {
      const button = page.getByRole('button', { name: 'Link my employer (openLink)' });
      await button.click();
      const frame = await (await page.waitForSelector('[data-payroll-link-modal] iframe')).contentFrame();
      assert.ok(frame);
      await pickEmployer(frame);
      await logIn(frame, 'user_good', 'pass_good');
      await switchDeposit(frame);
      await waitForTimeline(page, 'openLink closed');
      const entries = await callbacks(page);
      assert.deepEqual(
        entries.map((e) => e.name),
        ['openLink onLogin', 'openLink onSuccess', 'openLink closed'],
      );
      assert.equal(one(entries, 'openLink closed').reason, 'completed');
      assert.equal(await page.locator('[data-payroll-link-modal]').count(), 0);
      assert.equal(await button.isEnabled(), true);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('?lang=es: the widget and the Link page speak Spanish for a whole session', async () => {
    const { page, errors, close } = await openDemo(new URL('?lang=es', demo.url).href, 'Conectar nómina');
    try {
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
      assert.equal(await page.getByRole('link', { name: 'Español' }).getAttribute('aria-current'), 'page');
      await page.locator('payroll-link#element-demo').getByRole('button', { name: 'Conectar nómina' }).click();
      const frame = await (await page.waitForSelector('[data-payroll-link-modal] iframe')).contentFrame();
      assert.ok(frame);
      await frame.getByRole('heading', { level: 1, name: /quiere cambiar tu depósito directo$/ }).waitFor();
      assert.equal(await frame.evaluate(() => document.documentElement.lang), 'es');
      await frame.getByRole('button', { name: 'Continuar' }).click();
      await frame.getByRole('heading', { level: 1, name: 'Busca a tu empleador' }).waitFor();
      await frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first().click();
      await frame.getByRole('heading', { level: 1, name: /^Inicia sesión en / }).waitFor();
      await frame.getByLabel('Usuario').fill('user_good');
      await frame.getByLabel('Contraseña').fill('pass_good');
      await frame.getByRole('button', { name: 'Iniciar sesión' }).click();
      await frame.getByRole('heading', { level: 1, name: 'Elige tu depósito' }).waitFor();
      await frame.getByRole('button', { name: 'Cambiar mi depósito' }).click();
      await frame.getByRole('heading', { level: 1, name: 'Tu depósito directo está cambiado' }).waitFor();
      await finalPress(frame.getByRole('button', { name: 'Listo' }));
      await waitForTimeline(page, 'link-exit');
      assert.equal(one(await domEvents(page), 'link-exit').reason, 'completed');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('an expiring prefetched token is replaced silently: the user never sees the failure', async () => {
    // A second demo whose sandbox keeps a clock the test can move: expiry is about time passing, and
    // moving the clocks (the sandbox's and the page's, together) makes it pass without a wait.
    let ahead = 0;
    const TTL_SECONDS = 60;
    const shortLived = await startDemo({
      sandboxPort: 0,
      backendPort: 0,
      demoPort: 0,
      tokenTtlSeconds: TTL_SECONDS,
      now: () => new Date(Date.now() + ahead),
      live: false,
    });
    const context = await browser.newContext();
    context.setDefaultTimeout(WAIT_MS);
    try {
      const page = await context.newPage();
      const tokenRequests: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/link-token') tokenRequests.push(request.method());
      });
      const prefetched = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/link-token');
      await page.goto(shortLived.url);
      // `prefetch` fetches on intent: the pointer over the button.
      await page.locator('payroll-link#element-demo').getByRole('button', { name: 'Connect payroll' }).hover();
      const { data } = (await (await prefetched).json()) as { data: { expires: string } };
      // Move the whole system one second past the prefetched token's `expires`: the sandbox (which mints
      // the next token, and checks it when the Link page opens a session) and the page (the widget
      // reads Date.now()). The Link frame keeps its own clock: it only counts its own waits.
      ahead = Date.parse(data.expires) - Date.now() + 1000;
      assert.ok(ahead > 1000 && ahead <= TTL_SECONDS * 1000 + 1000, `ahead by ${ahead} ms`);
      await page.evaluate((ms) => {
        const realNow = Date.now;
        Date.now = () => realNow() + ms;
      }, ahead);
      const frame = await startSession(page);
      await pickEmployer(frame);
      await logIn(frame, 'user_good', 'pass_good');
      await switchDeposit(frame);
      await waitForTimeline(page, 'link-exit');
      const events = await domEvents(page);
      assert.deepEqual(
        events.map((e) => e.name),
        ['link-open', 'link-login', 'link-success', 'link-exit'],
      );
      assert.equal(one(events, 'link-exit').reason, 'completed');
      assert.deepEqual(tokenRequests, ['POST', 'POST'], 'the prefetched token was replaced by a fresh one');
    } finally {
      await context.close();
      await shortLived.close();
    }
  });

  // Reconnect (#16): the accounts list's controls and a Reconnect session with the same account id.

  /** Connects an account with user_good through the element and returns its id, once the accounts list shows it. */
  async function connectGood(page: Page): Promise<string> {
    const frame = await startSession(page);
    await pickEmployer(frame);
    await logIn(frame, 'user_good', 'pass_good');
    await switchDeposit(frame);
    await waitForTimeline(page, 'link-exit');
    const accountId: string = one(await domEvents(page), 'link-login').accountId;
    await accountRow(page, accountId, 'connected').waitFor();
    return accountId;
  }

  /** The account's row in the accounts list, once it shows `state`. */
  const accountRow = (page: Page, accountId: string, state: string) =>
    page.locator(`#accounts li[data-account-id="${accountId}"][data-state="${state}"]`);

  /** Presses a row's control after clearing the timeline, so the timeline then holds what that control started. */
  async function press(page: Page, accountId: string, state: string, label: string) {
    await page.getByRole('button', { name: 'Clear timeline' }).click();
    await accountRow(page, accountId, state)
      .getByRole('button', { name: `${label} ${accountId}` })
      .click();
  }

  /** Presses Reconnect and returns the reconnect session's frame at its login screen (after the intro, no search). */
  async function startReconnect(page: Page, accountId: string, state: string): Promise<Frame> {
    await press(page, accountId, state, 'Reconnect');
    await waitForTimeline(page, 'link-open');
    // The newest modal container is the reconnect session's (the element's frame built ahead, if any, is older).
    const frame = await (await page.locator('[data-payroll-link-modal] iframe').last().elementHandle())!.contentFrame();
    assert.ok(frame);
    await frame.getByRole('button', { name: 'Continue' }).click();
    await frame.getByRole('heading', { level: 1, name: /^Log in to / }).waitFor();
    assert.equal(await frame.getByRole('button', { name: /Back to search/ }).count(), 0, 'a reconnect has no search to go back to');
    return frame;
  }

  /** The payloads of the webhooks the demo's list shows for an account, oldest first, once `count` of `event` arrived. */
  async function webhooksFor(page: Page, accountId: string, event: string, count: number): Promise<Array<Record<string, any>>> {
    const shown = await page.waitForFunction(
      ([id, name, n]) => {
        const events = JSON.parse(document.getElementById('webhooks')?.dataset.events ?? '[]') as Array<{ event: string; payload: any }>;
        const found = events.filter((e) => e.event === name && e.payload?.account_id === id).map((e) => e.payload);
        return found.length >= (n as number) ? found.reverse() : null;
      },
      [accountId, event, count] as const,
    );
    return (await shown.jsonValue()) as Array<Record<string, any>>;
  }

  test('connect, disconnect, then reconnect the same account id; another user is refused; another account is an error', async () => {
    const { page, errors, close } = await openDemo();
    try {
      const accountId = await connectGood(page);

      await press(page, accountId, 'connected', 'Disconnect');
      await accountRow(page, accountId, 'disconnected').waitFor();
      assert.equal((await webhooksFor(page, accountId, 'account.monitoring_status.updated', 1))[0]!.monitoring_status, 'disconnected');

      // Ben may not reconnect Ana's account: the backend's authorizeAccount refuses the token (403).
      await page.locator('#demo-user').selectOption('demo-ben');
      await press(page, accountId, 'disconnected', 'Reconnect');
      await waitForTimeline(page, 'link-exit');
      let events = await domEvents(page);
      assert.deepEqual(
        events.map((e) => e.name),
        ['link-error', 'link-exit'],
      );
      assert.equal(one(events, 'link-error').code, 'TOKEN_HTTP_403');
      assert.equal(one(events, 'link-exit').reason, 'error');
      assert.equal(await accountRow(page, accountId, 'disconnected').count(), 1);
      await page.locator('#demo-user').selectOption('demo-ana');

      // Ana logs in as another test user (another account): a typed error, never a new account.
      let frame = await startReconnect(page, accountId, 'disconnected');
      await logIn(frame, 'user_error', 'pass_good');
      await waitForTimeline(page, 'link-error');
      await frame.getByRole('button', { name: 'Close', exact: true }).last().waitFor();
      await finalPress(frame.getByRole('button', { name: 'Close', exact: true }).last());
      await waitForTimeline(page, 'link-exit');
      events = await domEvents(page);
      assert.deepEqual(
        events.map((e) => e.name),
        ['link-open', 'link-error', 'link-exit'],
      );
      assert.deepEqual(one(events, 'link-error'), {
        type: 'invalidCredentials',
        code: 'ACCOUNT_MISMATCH',
        message: one(events, 'link-error').message,
        pendingRetry: false,
      });
      assert.equal(one(events, 'link-exit').error.code, 'ACCOUNT_MISMATCH');
      assert.equal(one(events, 'link-exit').accountId, accountId);

      // The right credentials: the same account comes back, connected, in one session.
      frame = await startReconnect(page, accountId, 'disconnected');
      await logIn(frame, 'user_good', 'pass_good');
      await switchDeposit(frame);
      await waitForTimeline(page, 'link-exit');
      events = await domEvents(page);
      assert.deepEqual(
        events.map((e) => e.name),
        ['link-open', 'link-login', 'link-success', 'link-exit'],
      );
      assert.equal(one(events, 'link-login').accountId, accountId);
      assert.equal(one(events, 'link-success').accountId, accountId);
      assert.deepEqual(one(events, 'link-exit'), {
        reason: 'completed',
        error: null,
        linkTokenId: one(events, 'link-login').linkTokenId,
        accountId,
      });
      await accountRow(page, accountId, 'connected').waitFor();
      const statuses = await webhooksFor(page, accountId, 'account.monitoring_status.updated', 2);
      assert.deepEqual(
        statuses.map((payload) => payload.monitoring_status),
        ['disconnected', 'active'],
      );
      assert.equal((await webhooksFor(page, accountId, 'account.added', 1)).length, 1, 'no second account.added: no new account');
      const accounts = (await (await fetch(`${demo.backendUrl}/api/accounts`)).json()) as { data: Array<{ link_token_id: string }> };
      assert.equal(
        accounts.data.filter((a) => a.link_token_id === one(events, 'link-login').linkTokenId).length,
        0,
        'no account made by the reconnect token',
      );
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  // Reading what was connected (#35): the backend reads with its PayrollClient; the page shows it.

  test('after a success the page shows the account’s employment, income and latest paystubs; a refreshed webhook brings the VOE/VOIE reports; bad ids are errors on the page', async () => {
    const { page, errors, close } = await openDemo();
    try {
      const accountId = await connectGood(page);
      const stored = demo.sandboxStore.account(accountId)!;
      const usd = (cents: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
      const data = page.locator(`#account-data[data-account-id="${accountId}"][data-state="loaded"]`);
      await data.waitFor();
      const employment = await data.locator('[data-part="employment"]').innerText();
      for (const value of [stored.data.employment.employer_name, stored.data.employment.job_title, stored.data.employment.start_date])
        assert.ok(employment.includes(value), employment);
      const income = await data.locator('[data-part="income"]').innerText();
      for (const value of [stored.data.income.pay_frequency, usd(stored.data.income.annual_gross_pay), usd(stored.data.income.ytd_net_pay)])
        assert.ok(income.includes(value), income);
      const latest = [...stored.data.paystubs].sort((a, b) => b.pay_date.localeCompare(a.pay_date)).slice(0, 3);
      assert.deepEqual(
        await data.locator('[data-part="paystubs"] tbody tr').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.id)),
        latest.map((paystub) => paystub.id),
      );
      assert.ok((await data.locator('[data-part="paystubs"] tbody tr').first().innerText()).includes(usd(latest[0]!.net_pay)));

      // Refresh: the sandbox sends verification_reports.refreshed for the signed-in user; the page shows the reports when it arrives.
      await page.getByRole('button', { name: 'Refresh verification reports' }).click();
      await waitForTimeline(page, 'backend refresh_reports (HTTP 200)');
      const { detail } = (await timeline(page)).find((entry) => entry.name === 'backend refresh_reports (HTTP 200)')!;
      const [refreshed] = detail.events as Array<{ event: string; event_id: string; payload: { end_user_id: string } }>;
      assert.equal(refreshed!.event, 'verification_reports.refreshed');
      assert.equal(refreshed!.payload.end_user_id, 'demo-ana');
      const reports = page.locator(`#reports[data-event-id="${refreshed!.event_id}"][data-state="loaded"]`);
      await reports.waitFor();
      const ids = (part: string) =>
        reports.locator(`[data-part="${part}"] tbody tr`).evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.id));
      assert.ok((await ids('voe')).includes(stored.data.employment.id), 'the VOE lists this account’s employment');
      assert.ok((await ids('voie')).includes(stored.data.employment.id), 'the VOIE lists it too');
      assert.ok((await ids('voie')).includes(stored.data.income.id), 'with its income');
      await page.locator('#account-data-title').scrollIntoViewIfNeeded();
      await page.screenshot({ path: new URL('account-data.png', OUTPUT).pathname, fullPage: true });

      // Bad input: clear errors on the page, and the backend lives on.
      const show = async (id: string) => {
        await page.getByLabel('Account id').fill(id);
        await page.getByRole('button', { name: 'Show data' }).click();
      };
      await show('not-a-uuid');
      await page
        .locator('#account-data[data-account-id="not-a-uuid"][data-state="error"][data-error-code="INVALID_PARAMS"]')
        .getByRole('alert')
        .getByText(/must be a UUID/)
        .waitFor();
      const unknown = '00000000-0000-4000-8000-000000000000';
      await show(unknown);
      await page
        .locator(`#account-data[data-account-id="${unknown}"][data-state="error"][data-error-code="ACCOUNT_NOT_FOUND"]`)
        .getByRole('alert')
        .getByText(`No account ${unknown}`)
        .waitFor();
      await show(accountId);
      await data.waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  // Send a link (#42): a launch for the signed-in demo user, its URL on the demo's own origin, opened in a phone-sized
  // window, where the page (the package's, with its script built from the sources) runs a session; onResult in the timeline.
  test('Send a link: the URL shows, opens in a 390x844 window, and a session there ends in a checked onResult on the timeline', async () => {
    const { page, errors, close } = await openDemo();
    try {
      const opened = page.context().waitForEvent('page');
      await page.getByRole('button', { name: 'Create a link and open it' }).click();
      const phone = await opened;
      // The window opens within the click, the link once the backend has answered: wait for the link.
      const link = page.locator('#launch-url[href]');
      await link.waitFor();
      const url = (await link.getAttribute('href')) ?? '';
      assert.ok(url.startsWith(`${demo.url}api/launches/`), `a launch URL on the demo's origin: ${url}`);
      assert.equal(await page.locator('#launch-url').textContent(), url);
      await phone.waitForURL(url);
      assert.deepEqual(await phone.evaluate(() => [window.innerWidth, window.innerHeight]), [390, 844]);
      await phone.getByRole('button', { name: 'Connect payroll' }).click();
      const frame = await (await phone.waitForSelector(`iframe[src^="${demo.sandboxUrl}/link"]`)).contentFrame();
      assert.ok(frame);
      await linkFlowSwitchDeposit(frame);
      await pressDone(frame);
      await waitForTimeline(page, 'backend onResult');
      const result = one(await callbacks(page), 'backend onResult');
      assert.equal(result.status, 'success');
      assert.equal(result.endUserId, 'demo-ana');
      // Confirmed by the service (the demo's sandbox sends its full answers): not 'unconfirmed', and no `verified`.
      assert.equal(result.verified, undefined);
      assert.match(result.accountId, UUID);
      assert.match(result.jobId, UUID);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('re-authentication: Simulate password change makes the account need its user, and a Reconnect brings it back', async () => {
    const { page, errors, close } = await openDemo();
    try {
      const accountId = await connectGood(page);
      await press(page, accountId, 'connected', 'Simulate password change');
      await accountRow(page, accountId, 'needs login').waitFor();
      assert.equal(
        (await webhooksFor(page, accountId, 'account.monitoring_status.updated', 1))[0]!.monitoring_status,
        'user_action_required',
      );
      const frame = await startReconnect(page, accountId, 'needs login');
      await logIn(frame, 'user_good', 'pass_good');
      await switchDeposit(frame);
      await waitForTimeline(page, 'link-exit');
      const events = await domEvents(page);
      assert.equal(one(events, 'link-login').accountId, accountId);
      assert.equal(one(events, 'link-exit').reason, 'completed');
      await accountRow(page, accountId, 'connected').waitFor();
      const statuses = await webhooksFor(page, accountId, 'account.monitoring_status.updated', 2);
      assert.deepEqual(
        statuses.map((payload) => [payload.previous_monitoring_status, payload.monitoring_status]),
        [
          ['active', 'user_action_required'],
          ['user_action_required', 'active'],
        ],
      );
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
});
