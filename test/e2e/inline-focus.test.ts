/**
 * An inline flow never takes focus its user did not give it (issue 37), end to end in Debian's Chromium: the demo's
 * inline page with the real sandbox (its hosted Link page, which focuses a new screen's heading only when told it
 * may, or when its frame has focus), the real example backend and the Vite dev server of `demo/`, on free loopback
 * ports. Nothing faked. The user types in a field at the top of the page while inline elements below start their
 * sessions: one by a script's `show()`, one scrolled into view with the mouse wheel.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { startDemo, type Demo } from '../../scripts/start-demo.js';
import type { PayrollLink } from '../../src/index.js';

/** Bound on each wait; generous because CI machines are small and shared (load 20 seen on 2 cores). */
const WAIT_MS = 60_000;
/** The Link page's first screen, once it has rendered (and so decided about focus: see link-screen.ts). */
const FIRST_HEADING = /wants to switch your direct deposit/;

/** Runs in the page: the field the user types in, then two inline elements each far below the one before. */
function buildPage() {
  const demo = document.getElementById('inline-demo') as PayrollLink;
  const input = document.createElement('input');
  input.id = 'typing';
  input.setAttribute('aria-label', 'Your notes');
  document.body.append(input);
  for (const id of ['by-script', 'by-scroll']) {
    const spacer = document.createElement('div');
    spacer.className = 'spacer';
    const link = document.createElement('payroll-link');
    link.id = id;
    link.display = 'inline';
    link.tokenUrl = '/api/link-token';
    link.linkUrl = demo.linkUrl;
    link.endUserId = demo.endUserId;
    document.body.append(spacer, link);
  }
  // Three viewports each: far out of the element's one-viewport margin, so each waits for its cue.
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`.spacer { height: ${window.innerHeight * 3}px; }`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/** Runs in the page: the id of the element holding focus and the field's text. */
function focusState() {
  const input = document.getElementById('typing') as HTMLInputElement;
  return { active: document.activeElement?.id ?? null, value: input.value };
}

/** Waits until the Link page in element `id` shows its first screen. */
async function firstScreen(page: Page, id: string) {
  const frame = await (await page.waitForSelector(`payroll-link#${id} [data-payroll-link-inline] iframe`)).contentFrame();
  assert.ok(frame);
  await frame.getByRole('heading', { level: 1, name: FIRST_HEADING }).waitFor();
  return frame;
}

describe('an inline flow takes no focus it was not given (Chromium, the real sandbox)', { timeout: 300_000 }, () => {
  let demo: Demo;
  let browser: Browser;

  before(async () => {
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

  test('the user types on: focus stays in the field as a script shows one flow and a scroll starts another; Tab still goes into a frame', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    context.setDefaultTimeout(WAIT_MS);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${demo.url}inline.html`);
    // The demo's own element, in view on load, starts by itself: its first screen takes no focus either.
    await firstScreen(page, 'inline-demo');
    await page.evaluate(buildPage);
    await page.focus('#typing');
    await page.keyboard.type('Ana');

    // A script's show() right after the key presses (the page still holds the user's activation).
    await page.evaluate(() => void (document.getElementById('by-script') as PayrollLink).show());
    await firstScreen(page, 'by-script');
    assert.deepEqual(await page.evaluate(focusState), { active: 'typing', value: 'Ana' }, 'show() by a script left focus in the field');
    await page.keyboard.type(' and');
    assert.deepEqual(await page.evaluate(focusState), { active: 'typing', value: 'Ana and' }, 'the typed text keeps arriving in the field');

    // The user scrolls the second element into view with the wheel (no activation), still in the field.
    while (!(await page.evaluate(() => (document.getElementById('by-scroll') as PayrollLink).open))) await page.mouse.wheel(0, 900);
    await firstScreen(page, 'by-scroll');
    await page.keyboard.type(' Lee');
    assert.deepEqual(
      await page.evaluate(focusState),
      { active: 'typing', value: 'Ana and Lee' },
      'seen on scroll: focus stayed in the field',
    );

    // The frames stay in the page's Tab order: from the field, Tab goes into the frame after it (past the spacer).
    await page.keyboard.press('Tab');
    const byScript = await firstScreen(page, 'by-script');
    await byScript.waitForFunction(() => document.hasFocus());
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'by-script', 'Tab went into the frame after the field');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
