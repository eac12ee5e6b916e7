/**
 * The demo session in WebKit, Safari's engine, at a phone's size (390x844, where most end users connect a
 * payroll account) and a desktop's (1280x800): the real sandbox, example backend and demo page, as in
 * demo.test.ts, in WebKitGTK's MiniBrowser. Playwright cannot drive WebKitGTK, so this speaks W3C WebDriver
 * to WebKitWebDriver through webdriverio (the client @web/test-runner-webdriver already brings for the browser
 * suite): a kept library for sessions, frames, shadow-piercing selectors, key input and screenshots, instead of
 * a hand-written client. Screenshots of each screen go to test-output/e2e/webkit/ (not committed).
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { startDemo, type Demo } from '../../scripts/start-demo.js';
import { startWebKitDriver } from '../browser/webkit-driver.mjs';
import { waitForDeep } from './find-deep.js';
import { webkitSession } from './webkit-session.js';

/** Bound on each wait; generous because CI machines are small and shared (load 20 seen on 2 cores). */
const WAIT_MS = 60_000;
const OUTPUT = new URL('../../test-output/e2e/webkit/', import.meta.url);
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}

describe("the demo session in WebKit (Safari's engine), phone and desktop sizes", { timeout: 600_000 }, () => {
  let demo: Demo;
  let driver: Awaited<ReturnType<typeof startWebKitDriver>>;
  let browser: WebdriverIO.Browser;

  before(async () => {
    await mkdir(OUTPUT, { recursive: true });
    [demo, driver] = await Promise.all([startDemo({ sandboxPort: 0, backendPort: 0, demoPort: 0, live: false }), startWebKitDriver()]);
    browser = await webkitSession(driver, WAIT_MS);
  });

  after(async () => {
    await browser?.deleteSession().catch(() => {});
    await driver?.stop();
    await demo?.close();
  });

  /** Waits for the element `waitForDeep` finds in the current frame, and returns it. */
  const deep = (selector: string, text: string | null = null, host: string | null = null) => waitForDeep(browser, selector, text, host);

  /**
   * Saves what the viewport shows. WebKitGTK's screenshot is the last frame it painted (seen: a step behind,
   * "Loading…" after the frame had loaded), so first wait for two animation frames of the current document.
   */
  async function screenshot(size: (typeof SIZES)[number], screen: string) {
    await browser.executeAsync((done: () => void) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    await browser.saveScreenshot(new URL(`${size.name}-${screen}.png`, OUTPUT).pathname);
  }

  /** An element's rectangle in its page's viewport. */
  const rectOf = (element: WebdriverIO.Element) =>
    browser.execute(
      (e: Element) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
      },
      element as unknown as Element,
    ) as Promise<Rect>;

  /** The demo page's timeline, oldest first: where each event and callback arrived. */
  const timeline = () =>
    browser.execute(() =>
      [...document.querySelectorAll<HTMLElement>('#timeline > li')].reverse().map((item) => ({
        source: item.dataset.source!,
        name: item.dataset.name!,
        detail: JSON.parse(item.dataset.detail ?? 'null') as Record<string, unknown> | null,
      })),
    );

  for (const size of SIZES) {
    test(`${size.name} (${size.width}x${size.height}): the dialog ${size.width <= 480 ? 'fills the viewport' : 'sits inside it'}, the frame is whole, a session completes, focus and scroll come back`, async () => {
      // MiniBrowser runs full-screen (no toolbar), so the window's size is the viewport's.
      await browser.setWindowRect(0, 0, size.width, size.height);
      await browser.url(demo.url);
      const viewport = await browser.execute(() => ({ width: innerWidth, height: innerHeight }));
      assert.deepEqual(viewport, { width: size.width, height: size.height }, 'the viewport has the size asked for');
      const connect = await deep('button[part="button"]', 'Connect payroll', 'payroll-link#element-demo');
      await connect.waitForClickable();

      // Scrolled down the page as a user would be, with the button still in view: the session must give this back.
      const scrolledTo = await browser.execute(() => {
        const button = document.querySelector('payroll-link#element-demo')!;
        scrollTo(0, Math.max(0, button.getBoundingClientRect().top + scrollY - innerHeight / 3));
        return scrollY;
      });
      assert.ok(scrolledTo > 0, `the page scrolled (scrollY ${scrolledTo})`);
      await connect.click();

      // The dialog and its frame sit in the modal's own container (a shadow root at the end of <body>).
      const dialog = await rectOf(await deep('dialog[open][data-ready]'));
      const frame = await deep('dialog[open][data-ready] iframe');
      const frameRect = await rectOf(frame);
      if (size.width <= 480) {
        // Within half a pixel: WebKit lays out in 1/64 px units, and 100dvh came out 843.984375 px high (seen).
        const edges = [dialog.left, dialog.top, dialog.right - size.width, dialog.bottom - size.height];
        assert.ok(
          edges.every((gap) => Math.abs(gap) < 0.5),
          `the dialog fills the phone's viewport: ${JSON.stringify(dialog)}`,
        );
      } else {
        assert.ok(dialog.width < size.width && dialog.height < size.height, `a centred dialog on a desktop: ${JSON.stringify(dialog)}`);
      }
      // The frame lies wholly inside the dialog and the viewport: nothing of the Link page is cut off.
      for (const [outer, name] of [
        [dialog, 'dialog'],
        [{ left: 0, top: 0, right: size.width, bottom: size.height }, 'viewport'],
      ] as const) {
        assert.ok(
          frameRect.left >= outer.left && frameRect.top >= outer.top && frameRect.right <= outer.right && frameRect.bottom <= outer.bottom,
          `the frame ${JSON.stringify(frameRect)} inside the ${name} ${JSON.stringify(outer)}`,
        );
      }
      assert.ok(frameRect.width > 0.9 * dialog.width && frameRect.height > 0.8 * dialog.height, 'the frame takes the dialog');

      await browser.switchFrame(frame);
      // Inside, the Link page fits the frame's width: no content wider than what shows.
      await deep('h1');
      const inside = await browser.execute(() => ({
        width: innerWidth,
        height: innerHeight,
        scrollWidth: document.documentElement.scrollWidth,
      }));
      assert.equal(inside.width, Math.round(frameRect.width));
      assert.ok(inside.scrollWidth <= inside.width, `the Link page fits its frame (${inside.scrollWidth} <= ${inside.width})`);
      await screenshot(size, '1-intro');
      await (await deep('button', 'Continue')).click();
      await (await deep('button.hit[data-kind="employer"][data-platform-type="payroll"]')).waitForClickable();
      await screenshot(size, '2-search');
      await (await deep('button.hit[data-kind="employer"][data-platform-type="payroll"]')).click();
      await (await deep('input#username')).setValue('user_good');
      await screenshot(size, '3-login');
      await (await deep('input#password')).setValue('pass_good');
      await browser.keys('Enter');
      const switchButton = await deep('button', 'Switch my deposit');
      await screenshot(size, '4-deposit');
      await switchButton.click();
      const done = await deep('button', 'Done');
      await screenshot(size, '5-done');
      // Done ends the session and the widget removes the frame at once: the click's answer may come from a
      // frame that is gone, so its outcome is read on the page (link-exit), not from the command.
      await done.click().catch(() => {});
      await browser.switchFrame(null);
      await browser.waitUntil(async () => (await timeline()).some((entry) => entry.name === 'link-exit'), { timeoutMsg: 'no link-exit' });
      await screenshot(size, '6-closed');

      const entries = await timeline();
      const events = entries.filter((e) => e.source === 'event' && e.name !== 'link-event');
      assert.deepEqual(
        events.map((e) => e.name),
        ['link-open', 'link-login', 'link-success', 'link-exit'],
        'the typed events, in order',
      );
      assert.deepEqual(
        entries.filter((e) => e.source === 'callback').map((e) => e.name),
        ['onLogin', 'onSuccess', 'onExit'],
      );
      const [open, login, success, exit] = events.map((e) => e.detail!);
      assert.equal(login!.linkTokenId, open!.linkTokenId);
      assert.equal(success!.accountId, login!.accountId);
      assert.deepEqual(exit, { reason: 'completed', error: null, linkTokenId: login!.linkTokenId, accountId: login!.accountId });

      const settled = await browser.execute(() => ({
        modals: document.querySelectorAll('[data-payroll-link-modal]').length,
        focused: document.activeElement?.shadowRoot?.activeElement?.getAttribute('part') ?? null,
        focusedHost: document.activeElement?.id ?? null,
        scrollY,
        overflow: getComputedStyle(document.documentElement).overflow,
      }));
      assert.deepEqual(
        settled,
        { modals: 0, focused: 'button', focusedHost: 'element-demo', scrollY: scrolledTo, overflow: 'visible' },
        'focus back on the button, the page scrolled where it was and scrollable',
      );
    });
  }
});
