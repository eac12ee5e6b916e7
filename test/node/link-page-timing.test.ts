/**
 * WCAG 2.2.1 (Timing Adjustable) on the sandbox's hosted Link page, in Debian's Chromium with the real sandbox: the
 * two waits that poll (the login in the OAuth-style platform's own window, and the job's watch) warn before their
 * time limit, at least 20 s ahead, in words and in a live region; "Keep waiting" gives another full period; for the
 * OAuth login "Try again" opens a fresh login in the same Link session; and a limit that passes unanswered pauses
 * the polling and keeps the question: no error, no exit from a timer alone. The page's clock is Playwright's fake
 * one (`page.clock`): time moves when the test says so, and nothing here waits for time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page, Request } from 'playwright-core';
import { WAIT_LIMIT_MS, WAIT_WARNING_MS } from '../../sandbox/link-page/app/poll.js';
import { eventNames, focused, hostMessages, startLinkPageHost, toOAuthLogin, toRunning, type LinkPageHost } from './link-page-host.js';

/** The warning's lead on the limit that WCAG 2.2.1 asks for at least. */
const WCAG_LEAD_MS = 20_000;
const OAUTH_POLL = /\/link\/api\/oauth\/[^/]+$/;
const JOB_POLL = /\/link\/api\/jobs\/[^/]+$/;

/** The requests the page makes to `pattern`: how many started, and a wait until none is in flight. */
function watchRequests(page: Page, pattern: RegExp) {
  let started = 0;
  let inFlight = 0;
  let idle: (() => void) | null = null;
  const matches = (request: Request) => pattern.test(new URL(request.url()).pathname);
  page.on('request', (request) => {
    if (!matches(request)) return;
    started++;
    inFlight++;
  });
  const finished = (request: Request) => {
    if (!matches(request)) return;
    inFlight--;
    if (inFlight === 0) idle?.();
  };
  page.on('requestfinished', finished);
  page.on('requestfailed', finished);
  return {
    started: () => started,
    /** Resolves once no request is in flight (the last long poll answered). */
    settled: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve))),
  };
}

describe('Link page: time limits warn and can be extended (WCAG 2.2.1)', { timeout: 300_000 }, () => {
  let host: LinkPageHost;

  before(async () => {
    // user_pending's job stays pending far longer than any test here: the watch, not the job, meets its limit.
    host = await startLinkPageHost({ lang: 'en', title: 'Host', frameTitle: 'Connect payroll', pendingJobDelayMs: 60 * 60_000 });
  });

  after(() => host?.close());

  /**
   * The fake clock, in the host page and the Link frame. It fakes `AbortSignal.timeout` too, the page's per-request
   * bound (15 s): a jump of minutes would abort a request still in flight, which no real network does in the
   * milliseconds of real time the jump takes. So the page's requests go without that bound here (the local sandbox
   * answers each; a long poll within 10 s).
   */
  const installClock = async (page: Page) => {
    await page.clock.install();
    await page.addInitScript(() => {
      const realFetch = window.fetch.bind(window);
      window.fetch = (input, init) => realFetch(input, { ...init, signal: null });
    });
  };
  const warning = (frame: Frame) => frame.getByRole('alert').filter({ hasText: /\S/ });

  test('the limit is ten minutes and the warning comes a minute ahead, more than the 20 s WCAG asks', () => {
    assert.equal(WAIT_LIMIT_MS, 10 * 60_000);
    assert.ok(WAIT_WARNING_MS >= WCAG_LEAD_MS, `${WAIT_WARNING_MS} ms ahead`);
  });

  test('the OAuth wait: warned ahead of the limit, "Keep waiting" gives a full period, past the limit it pauses, "Try again" keeps the session', async () => {
    const token = await host.createLinkToken();
    await host.withLinkPage(
      token,
      {},
      async (frame, page) => {
        const polls = watchRequests(page, OAUTH_POLL);
        const sessions = new Set<string>();
        page.on('request', (request) => {
          const session = request.headers()['x-link-session'];
          if (new URL(request.url()).pathname.startsWith('/link/api/') && session) sessions.add(session);
        });
        await toOAuthLogin(frame);
        await frame.getByRole('button', { name: 'Log in with OAuth Payroll' }).press('Enter');
        const [first] = await hostMessages(page, 'payroll-link:open-url');
        await frame.getByRole('status').filter({ hasText: 'Finish logging in in the new window' }).waitFor();

        // Just before the warning: nothing yet. At the warning (a minute ahead): the live region speaks, and the answers show.
        await page.clock.fastForward(WAIT_LIMIT_MS - WAIT_WARNING_MS - 1_000);
        assert.equal(await warning(frame).count(), 0, 'no warning before its time');
        await page.clock.fastForward(1_000);
        await warning(frame).filter({ hasText: 'stops waiting for the other window in 1 minute' }).waitFor();
        assert.ok(await frame.getByRole('button', { name: 'Keep waiting' }).isVisible());
        assert.ok(await frame.getByRole('button', { name: 'Try again' }).isVisible());

        // Keep waiting: the warning goes, and the next one comes a full period later, not at the old limit.
        await frame.getByRole('button', { name: 'Keep waiting' }).press('Enter');
        await warning(frame).waitFor({ state: 'detached' });
        await page.clock.fastForward(WAIT_WARNING_MS);
        assert.equal(await warning(frame).count(), 0, 'no warning at the first period’s limit');
        await page.clock.fastForward(WAIT_LIMIT_MS - 2 * WAIT_WARNING_MS);
        await warning(frame).filter({ hasText: 'in 1 minute' }).waitFor();

        // Unanswered past the limit: the page says it stopped waiting, the poll pauses, and nothing ends the session.
        await page.clock.fastForward(WAIT_WARNING_MS);
        await warning(frame).filter({ hasText: 'This page stopped waiting for the other window' }).waitFor();
        await polls.settled();
        const asked = polls.started();
        await frame.evaluate(() => null);
        assert.equal(polls.started(), asked, 'no poll after the limit passed');
        await page.clock.fastForward(WAIT_LIMIT_MS);
        assert.ok(await frame.getByRole('button', { name: 'Keep waiting' }).isVisible(), 'the question stays');
        assert.deepEqual(
          (await eventNames(page)).filter((name) => name === 'error' || name === 'exit'),
          [],
          'no error, no exit',
        );

        // Try again: a fresh login page in a new window, in the same Link session; logging in there goes on.
        await frame.getByRole('button', { name: 'Try again' }).press('Enter');
        const [, second] = await hostMessages(page, 'payroll-link:open-url', 2);
        assert.notEqual(second!['url'], first!['url'], 'a new login page');
        const popup = await page.context().newPage();
        await popup.goto(String(second!['url']));
        await popup.getByLabel('Username').fill('user_good');
        await popup.getByLabel('Password').fill('pass_good');
        await popup.getByRole('button', { name: 'Log in' }).click();
        await popup.getByText('Return to the app').waitFor();
        await popup.close();
        await frame.getByRole('heading', { level: 1, name: 'Choose your deposit' }).waitFor();
        const names = await eventNames(page);
        assert.deepEqual(
          names.filter((name) => name === 'error' || name === 'exit' || name === 'open'),
          ['open'],
          'one session: one open, no error, no exit',
        );
        assert.deepEqual(
          names.filter((name) => name === 'login_attempt'),
          ['login_attempt', 'login_attempt'],
        );
        // Every call to the Link API, the fresh login's included, in the one Link session the token opened.
        assert.equal(sessions.size, 1, `one Link session: ${[...sessions].join(', ')}`);
      },
      {},
      installClock,
    );
  });

  test('the job watch: warned ahead of the limit, "Keep waiting" gives a full period, past the limit it pauses and asks, leaving still works', async () => {
    const token = await host.createLinkToken();
    await host.withLinkPage(
      token,
      {},
      async (frame, page) => {
        const polls = watchRequests(page, JOB_POLL);
        await toRunning(frame);
        await page.clock.fastForward(WAIT_LIMIT_MS - WAIT_WARNING_MS);
        await warning(frame).filter({ hasText: 'This page stops checking on it in 1 minute' }).waitFor();
        assert.equal(await frame.getByRole('button', { name: 'Try again' }).count(), 0, 'the job has no second attempt');
        await frame.getByRole('button', { name: 'Keep waiting' }).press('Enter');
        assert.equal(await warning(frame).count(), 0, 'the warning went');
        // Focus went to the screen's heading, not to <body>, when the button went.
        assert.deepEqual(await focused(frame), { tag: 'H1', role: null, text: 'Switching your direct deposit' });

        await page.clock.fastForward(WAIT_LIMIT_MS);
        await warning(frame).filter({ hasText: 'This page stopped checking on it' }).waitFor();
        await polls.settled();
        const asked = polls.started();
        await page.clock.fastForward(60_000);
        await frame.evaluate(() => null);
        assert.equal(polls.started(), asked, 'no poll after the limit passed');
        assert.deepEqual(
          (await eventNames(page)).filter((name) => name === 'error' || name === 'exit'),
          [],
          'no error, no exit',
        );

        // Keep waiting after the limit: the watch polls again.
        const polled = page.waitForRequest((request) => JOB_POLL.test(new URL(request.url()).pathname));
        await frame.getByRole('button', { name: 'Keep waiting' }).press('Enter');
        await page.clock.fastForward(5_000);
        await polled;
        // The usual way out stays open: Escape asks, Leave exits user_closed.
        await frame.locator('h1').press('Escape');
        await frame.getByRole('alertdialog').getByRole('button', { name: 'Leave' }).press('Enter');
        await page.waitForFunction(() => window.hostEvents.some((message) => message.name === 'exit'));
        const exit = (await page.evaluate(() => window.hostEvents)).find((message) => message.name === 'exit')!;
        assert.equal(exit.payload['reason'], 'user_closed');
      },
      {},
      installClock,
    );
  });
});
