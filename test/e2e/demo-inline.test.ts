/**
 * The demo's inline page (`demo/inline.html`: an onboarding step with the Link flow embedded,
 * `<payroll-link display="inline">`), end to end in every engine the e2e runs in: Debian's Chromium through
 * Playwright, and WebKitGTK (Safari's engine) through WebDriver as in demo-webkit.test.ts. The real sandbox
 * (its hosted Link page reports its height), the real example backend and the Vite dev server of `demo/`, on
 * free loopback ports. Nothing faked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { startDemo, type Demo } from '../../scripts/start-demo.js';
import { startWebKitDriver } from '../browser/webkit-driver.mjs';
import { findDeep, waitForDeep } from './find-deep.js';
import { webkitSession } from './webkit-session.js';

/** Bound on each wait; generous because CI machines are small and shared (load 20 seen on 2 cores). */
const WAIT_MS = 60_000;
/** The demo page's limits for the flow (demo/demo.css): the box's height stays within them. */
const MIN_HEIGHT = 420;
const MAX_HEIGHT = 900;
/** The demo page's declared room for the flow (demo/demo.css), held until the user acts in the frame. */
const DECLARED_HEIGHT = 620;

interface Entry {
  source: string;
  name: string;
  detail: Record<string, unknown> | null;
}

/** Runs in the page: the timeline oldest first, the inline box's height, and what else the session left. */
function pageState() {
  const host = document.querySelector('payroll-link#inline-demo')!;
  const box = host.shadowRoot!.querySelector('[data-payroll-link-inline]');
  return {
    timeline: [...document.querySelectorAll<HTMLElement>('#timeline > li')].reverse().map((item) => ({
      source: item.dataset.source!,
      name: item.dataset.name!,
      detail: JSON.parse(item.dataset.detail ?? 'null') as Record<string, unknown> | null,
    })),
    boxHeight: box ? box.getBoundingClientRect().height : null,
    frames: box?.shadowRoot?.querySelectorAll('iframe').length ?? 0,
    modals: document.querySelectorAll('[data-payroll-link-modal], dialog').length,
    overflow: getComputedStyle(document.documentElement).overflow,
    continueDisabled: (document.getElementById('continue') as HTMLButtonElement).disabled,
  };
}

/** Runs in the Link frame: the height its content reports (see sandbox/link/link-app.ts). */
const contentHeight = () => Math.ceil(document.querySelector('link-app')!.getBoundingClientRect().height);
const clamp = (height: number) => Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, height));

/** What every engine must show once the session completed. */
function checkCompleted(state: ReturnType<typeof pageState>) {
  const events = state.timeline.filter((e: Entry) => e.source === 'event' && e.name !== 'link-event');
  assert.deepEqual(
    events.map((e) => e.name),
    ['link-open', 'link-login', 'link-success', 'link-exit'],
    'the typed events, in order, one exit',
  );
  assert.deepEqual(
    state.timeline.filter((e) => e.source === 'callback').map((e) => e.name),
    ['onSuccess', 'onExit'],
  );
  const [open, login, success, exit] = events.map((e) => e.detail!);
  assert.equal(login!.linkTokenId, open!.linkTokenId);
  assert.equal(success!.accountId, login!.accountId);
  assert.deepEqual(exit, { reason: 'completed', error: null, linkTokenId: login!.linkTokenId, accountId: login!.accountId });
  assert.equal(state.frames, 1, 'the frame stays, on its final screen');
  assert.equal(state.modals, 0, 'no modal, no dialog');
  assert.equal(state.overflow, 'visible', 'the page never lost its scroll');
  assert.equal(state.continueDisabled, false, "the page's own step goes on");
}

describe('the demo inline page, end to end (Chromium and WebKit)', { timeout: 900_000 }, () => {
  let demo: Demo;

  before(async () => {
    demo = await startDemo({ sandboxPort: 0, backendPort: 0, demoPort: 0, live: false });
  });

  after(async () => {
    await demo?.close();
  });

  test('Chromium: the flow starts in the page, follows its content within the limits, completes, and stays on its final screen', async () => {
    const browser: Browser = await chromium.launch({
      executablePath: chromiumPath,
      args: chromiumArgs,
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      context.setDefaultTimeout(WAIT_MS);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${demo.url}inline.html`);
      // In view on load: the element starts by itself, in its own shadow root (Playwright's CSS pierces it).
      const frame = await (await page.waitForSelector('payroll-link#inline-demo [data-payroll-link-inline] iframe')).contentFrame();
      assert.ok(frame);
      await frame.getByRole('heading', { level: 1, name: /wants to switch your direct deposit/ }).waitFor();
      // The Link page keeps its own close control inline (no modal's control over it).
      assert.equal(await frame.getByRole('button', { name: 'Close Payroll Link' }).count(), 1);

      // Each screen's height reaches the box, within the page's limits.
      const followsContent = async () => {
        const wanted = clamp(await frame.evaluate(contentHeight));
        await page.waitForFunction(
          (height) => {
            const box = document.querySelector('payroll-link#inline-demo')!.shadowRoot!.querySelector('[data-payroll-link-inline]');
            return box !== null && Math.abs(box.getBoundingClientRect().height - height) < 1;
          },
          wanted,
          { timeout: WAIT_MS },
        );
        return wanted;
      };
      // The first screen moves nothing: the box keeps its declared room until the user is in the frame.
      assert.equal((await page.evaluate(pageState)).boxHeight, DECLARED_HEIGHT, 'the first screen in the declared room');
      await frame.getByRole('button', { name: 'Continue' }).click();
      const heights = [await followsContent()];
      await frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first().click();
      await frame.getByRole('heading', { level: 1, name: /^Log in to / }).waitFor();
      heights.push(await followsContent());
      await frame.getByLabel('Username').fill('user_good');
      await frame.getByLabel('Password').fill('pass_good');
      await frame.getByLabel('Password').press('Enter');
      await frame.getByRole('heading', { level: 1, name: 'Choose your deposit' }).waitFor();
      heights.push(await followsContent());
      await frame.getByRole('button', { name: 'Switch my deposit' }).click();
      await frame.getByRole('heading', { level: 1, name: 'Your direct deposit is switched' }).waitFor();
      // Inline, Done ends the session and the frame stays: an ordinary click.
      await frame.getByRole('button', { name: 'Done' }).click();
      await page.locator('#timeline > li[data-name="link-exit"]').first().waitFor();
      checkCompleted(await page.evaluate(pageState));
      // The final screen stays, with nothing left to press.
      await frame.getByRole('heading', { level: 1, name: 'Your direct deposit is switched' }).waitFor();
      assert.equal(await frame.getByRole('button', { name: 'Done' }).count(), 0);
      assert.equal(await frame.getByRole('button', { name: 'Close Payroll Link' }).count(), 0, 'no close control on a final screen');
      assert.ok(new Set(heights).size > 1, `the box followed the screens: ${heights.join(', ')} px`);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });

  test('WebKit: the flow starts in the page, completes, and stays on its final screen', async () => {
    const driver = await startWebKitDriver();
    const browser = await webkitSession(driver, WAIT_MS);
    const deep = (selector: string, text: string | null = null) => waitForDeep(browser, selector, text);
    try {
      await browser.setWindowRect(0, 0, 1280, 800);
      await browser.url(`${demo.url}inline.html`);
      // The inline box's frame (its own shadow root, inside the element's): the only Link frame on this page.
      const frame = await deep('iframe[part="frame"]');
      await browser.switchFrame(frame);
      await (await deep('button', 'Continue')).click();
      await (await deep('button.hit[data-kind="employer"][data-platform-type="payroll"]')).click();
      await (await deep('input#username')).setValue('user_good');
      await (await deep('input#password')).setValue('pass_good');
      await browser.keys('Enter');
      await (await deep('button', 'Switch my deposit')).click();
      await (await deep('button', 'Done')).click();
      await browser.switchFrame(null);
      await browser.waitUntil(async () => (await browser.execute(pageState)).timeline.some((entry) => entry.name === 'link-exit'), {
        timeoutMsg: 'no link-exit',
      });
      const state = await browser.execute(pageState);
      checkCompleted(state);
      // The final screen stays in the frame, with nothing left to press.
      await browser.switchFrame(await deep('iframe[part="frame"]'));
      await deep('h1', 'Your direct deposit is switched');
      assert.equal(await browser.execute(findDeep, 'button', 'Done', null), null);
      assert.equal(await browser.execute(findDeep, 'button.close', null, null), null, 'no close control on a final screen');
      await browser.switchFrame(null);
      assert.ok(
        state.boxHeight !== null && state.boxHeight >= MIN_HEIGHT && state.boxHeight <= MAX_HEIGHT,
        `the box within its limits: ${state.boxHeight} px`,
      );
    } finally {
      await browser.deleteSession().catch(() => {});
      await driver.stop();
    }
  });
});
