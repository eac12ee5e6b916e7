/**
 * The real sandbox and a stand-in for the widget, for the Node tests that drive the hosted Link page in Debian's
 * Chromium: the sandbox serves the page and its API on a free loopback port; a host page on a second loopback
 * server embeds it, answers `ready` with an `init` (the test's extra fields merged in), and records the events
 * that come over the port in `window.hostEvents` (every message: events, `open-url`, `close-answer`); its end of
 * the port is `window.hostPort`.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContextOptions, type Frame, type Page } from 'playwright-core';
import { startSandbox } from '../../sandbox/start-sandbox.js';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';

/** Bound on each wait, so a broken page fails instead of hanging; generous for a loaded 2-core machine. */
export const WAIT_MS = 30_000;

declare global {
  interface Window {
    hostEvents: Array<{ type: string; name: string; payload: Record<string, unknown>; [field: string]: unknown }>;
    /** The stand-in widget's end of the port: what it tells the Link page (a close request, say). */
    hostPort: MessagePort;
    openFrame(linkUrl: string, token: string, init: Record<string, unknown>): void;
  }
}

/** The host page, in `lang` with `title`: it embeds the Link page the way the widget does. */
const hostPage = (
  lang: string,
  title: string,
  frameTitle: string,
) => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title><script>
window.hostEvents = [];
window.openFrame = (linkUrl, token, extra) => {
  const frame = Object.assign(document.createElement('iframe'), { title: ${JSON.stringify(frameTitle)}, width: 400, height: 720, src: linkUrl });
  addEventListener('message', (event) => {
    if (event.source !== frame.contentWindow || event.data?.type !== 'payroll-link:ready') return;
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = (message) => window.hostEvents.push(message.data);
    window.hostPort = port1;
    frame.contentWindow.postMessage({ type: 'payroll-link:init', version: 1, token, ...extra }, new URL(linkUrl).origin, [port2]);
  });
  document.body.append(frame);
};
</script></head><body><main><h1>${title}</h1></main></body></html>`;

/** What a test drives the Link page with. */
export interface LinkPageHost {
  /** The Link page's own address (`/link` on the sandbox). */
  readonly linkUrl: string;
  /** A Link token from the sandbox's public API, as the integrator's backend would create it. */
  createLinkToken(extra?: Record<string, unknown>): Promise<string>;
  /**
   * Opens the Link page in a fresh host page (browser context: `context`), with `init`'s fields in the init
   * message; fails on any page error; closes it after `steps`. `before` runs on the fresh page before it loads
   * anything (a fake clock, say).
   */
  withLinkPage(
    token: string,
    init: Record<string, unknown>,
    steps: (frame: Frame, page: Page) => Promise<void>,
    context?: BrowserContextOptions,
    before?: (page: Page) => Promise<void>,
  ): Promise<void>;
  close(): Promise<void>;
}

/** Starts the sandbox (`pendingJobDelayMs`: how long user_pending's job stays pending), the host page and Chromium. */
export async function startLinkPageHost(options: {
  lang: string;
  title: string;
  frameTitle: string;
  pendingJobDelayMs: number;
}): Promise<LinkPageHost> {
  const sandbox = await startSandbox({ port: 0, pendingJobDelayMs: options.pendingJobDelayMs });
  const page = hostPage(options.lang, options.title, options.frameTitle);
  const host = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
  const hostUrl = await new Promise<string>((resolve) =>
    host.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(host.address() as AddressInfo).port}`)),
  );
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  return {
    linkUrl: `${sandbox.url}/link`,
    async createLinkToken(extra = {}) {
      const response = await fetch(`${sandbox.url}/link_tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-secret': sandbox.secret, 'Service-Version': '2025-07-08' },
        body: JSON.stringify({ org_name: 'Acme Lending', features: ['direct_deposit_switch'], solution: 'deposit_switch', ...extra }),
      });
      assert.equal(response.status, 200, await response.clone().text());
      return ((await response.json()) as { data: { token: string } }).data.token;
    },
    async withLinkPage(token, init, steps, contextOptions = {}, before) {
      const context = await browser.newContext({ viewport: { width: 480, height: 800 }, ...contextOptions });
      context.setDefaultTimeout(WAIT_MS);
      const tab = await context.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      try {
        await before?.(tab);
        await tab.goto(hostUrl);
        await tab.evaluate(([url, t, i]) => window.openFrame(url, t, i), [`${sandbox.url}/link`, token, init] as const);
        const frame = await (await tab.waitForSelector('iframe')).contentFrame();
        assert.ok(frame, 'the Link frame exists');
        await steps(frame, tab);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => host.close(resolve));
      await sandbox.close();
    },
  };
}

/** What has keyboard focus in `frame`, through shadow roots: a tag, its role and its text; `BODY` when nothing does. */
export async function focused(frame: Frame): Promise<{ tag: string; role: string | null; text: string }> {
  return frame.evaluate(() => {
    let element = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    return { tag: element?.tagName ?? 'BODY', role: element?.getAttribute('role') ?? null, text: element?.textContent?.trim() ?? '' };
  });
}

/** Waits until the stand-in widget has heard `count` port messages of `type` (`payroll-link:event`, `payroll-link:open-url`…). */
export async function hostMessages(page: Page, type: string, count = 1): Promise<Window['hostEvents']> {
  await page.waitForFunction(([t, c]) => window.hostEvents.filter((m) => m.type === t).length >= c, [type, count] as const, {
    timeout: WAIT_MS,
  });
  return page.evaluate((t) => window.hostEvents.filter((m) => m.type === t), type);
}

/** The names of the Link events the stand-in widget has heard so far. */
export const eventNames = (page: Page): Promise<string[]> =>
  page.evaluate(() => window.hostEvents.filter((m) => m.type === 'payroll-link:event').map((m) => m.name));

/** From the intro (English) to the search screen. */
export async function toSearch(frame: Frame): Promise<void> {
  await frame.getByRole('button', { name: 'Continue' }).press('Enter');
  await frame.getByRole('heading', { level: 1, name: 'Find your employer' }).waitFor();
}

/** From the intro to the OAuth-style platform's login screen. */
export async function toOAuthLogin(frame: Frame): Promise<void> {
  await toSearch(frame);
  await frame.getByLabel('Employer or payroll provider').fill('OAuth');
  await frame.locator('button.hit[data-kind="platform"]').filter({ hasText: 'OAuth Payroll' }).press('Enter');
  await frame.getByRole('heading', { level: 1, name: 'Log in to OAuth Payroll' }).waitFor();
}

/** From the intro, as `username`, to the allocation screen of the first payroll employer (user_mfa: through its code). */
export async function toAllocation(frame: Frame, username: string): Promise<void> {
  await toSearch(frame);
  const hit = frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first();
  await hit.press('Enter');
  await frame.getByRole('heading', { level: 1, name: /^Log in to / }).waitFor();
  await frame.getByLabel('Username').fill(username);
  await frame.getByLabel('Password').fill('pass_good');
  await frame.getByLabel('Password').press('Enter');
  if (username === 'user_mfa') {
    await frame.getByLabel('One-time code').fill('mfa_code');
    await frame.getByLabel('One-time code').press('Enter');
  }
  await frame.getByRole('heading', { level: 1, name: 'Choose your deposit' }).waitFor();
}

/** From the intro to the running screen of user_pending's deposit switch (its job stays pending as the sandbox says). */
export async function toRunning(frame: Frame): Promise<void> {
  await toAllocation(frame, 'user_pending');
  await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');
  await frame.getByRole('heading', { level: 1, name: 'Switching your direct deposit' }).waitFor();
}
