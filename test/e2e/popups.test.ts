/**
 * #27 end to end, in the demo as a user meets it (the real sandbox and its Link page, the example backend, the
 * demo page in Debian's Chromium; nothing faked): a login on the OAuth-style platform's own page in a new window,
 * and a close that asks first while a job runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { startDemo, type Demo } from '../../scripts/start-demo.js';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';

/** Bound on each wait; generous because CI machines are small and shared. */
const WAIT_MS = 60_000;

describe('external windows and a close that asks first, end to end', { timeout: 600_000 }, () => {
  let demo: Demo;
  let browser: Browser;

  before(async () => {
    // user_pending's job runs until the test ends it: the confirmation is asked while it runs.
    demo = await startDemo({ sandboxPort: 0, backendPort: 0, demoPort: 0, live: false, pendingJobDelayMs: 600_000 });
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  });

  after(async () => {
    await browser?.close();
    await demo?.close();
  });

  async function open(): Promise<{ page: Page; frame: Frame; errors: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    context.setDefaultTimeout(WAIT_MS);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(demo.url);
    await page.locator('payroll-link#element-demo').getByRole('button', { name: 'Connect payroll' }).click();
    const frame = await (await page.waitForSelector('[data-payroll-link-modal] iframe')).contentFrame();
    assert.ok(frame);
    await frame.getByRole('button', { name: 'Continue' }).click();
    return { page, frame, errors, close: () => context.close() };
  }

  /** The `link-*` DOM events the demo's timeline shows, oldest first. */
  const events = async (page: Page) =>
    (
      await page.locator('#timeline > li[data-source="event"]').evaluateAll((items) =>
        items.map((item) => ({
          name: (item as HTMLElement).dataset.name!,
          detail: JSON.parse((item as HTMLElement).dataset.detail ?? 'null'),
        })),
      )
    )
      .reverse()
      .filter((entry) => entry.name !== 'link-event');

  test('a platform that logs in on its own page: a popup without opener; the Link page goes on when the sandbox says so', async () => {
    const { page, frame, errors, close } = await open();
    try {
      await frame.getByLabel('Employer or payroll provider').fill('OAuth');
      await frame.locator('button.hit[data-kind="platform"]', { hasText: 'OAuth Payroll' }).click();
      const popupOpened = page.context().waitForEvent('page');
      // The click inside the frame is the gesture: the Link page asks the widget (open-url), which opens the window.
      await frame.getByRole('button', { name: 'Log in with OAuth Payroll' }).click();
      const popup = await popupOpened;
      // A blank window first (its opener cut), then sent to the login page.
      await popup.waitForURL(/\/link\/oauth\?state=[0-9a-f-]{36}$/);
      // noopener semantics: the login page cannot reach the app's page.
      assert.equal(await popup.evaluate(() => window.opener), null);
      await frame.getByText('Finish logging in in the new window').waitFor();
      await popup.getByLabel('Username').fill('user_good');
      await popup.getByLabel('Password').fill('pass_good');
      await popup.getByRole('button', { name: 'Log in' }).click();
      await popup.getByText('Return to the app').waitFor();
      await popup.close();
      // The Link page learned it from the sandbox, not from the window.
      await frame.getByRole('heading', { level: 1, name: 'Choose your deposit' }).waitFor();
      await frame.getByRole('button', { name: 'Switch my deposit' }).click();
      await frame.getByRole('heading', { level: 1, name: 'Your direct deposit is switched' }).waitFor();
      await frame.getByRole('button', { name: 'Done' }).focus();
      void frame
        .getByRole('button', { name: 'Done' })
        .press('Enter')
        .catch(() => {});
      await page.locator('#timeline > li[data-name="link-exit"]').first().waitFor();
      const seen = await events(page);
      assert.deepEqual(
        seen.map((e) => e.name),
        ['link-open', 'link-login', 'link-success', 'link-exit'],
      );
      assert.equal(seen[3]!.detail.reason, 'completed');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test('the close control asks first while a job runs: stay goes on, leave ends as user_closed', async () => {
    const { page, frame, errors, close } = await open();
    try {
      await frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first().click();
      await frame.getByLabel('Username').fill('user_pending');
      await frame.getByLabel('Password').fill('pass_good');
      await frame.getByLabel('Password').press('Enter');
      await frame.getByRole('button', { name: 'Switch my deposit' }).click();
      await frame.getByRole('heading', { level: 1, name: 'Switching your direct deposit' }).waitFor();

      const closeControl = page.locator('[data-payroll-link-modal] [part="close-button"]');
      await closeControl.click();
      const question = frame.getByRole('alertdialog');
      await question.getByText('Your direct deposit switch is still running. Leave anyway?').waitFor();
      await question.getByRole('button', { name: 'Stay' }).click();
      await question.waitFor({ state: 'detached' });
      // Stayed: the session goes on, the job still runs.
      assert.equal(await page.locator('[data-payroll-link-modal] iframe').count(), 1);
      assert.equal(await page.locator('#timeline > li[data-name="link-exit"]').count(), 0);

      await closeControl.click();
      await question.getByRole('button', { name: 'Leave' }).focus();
      void question
        .getByRole('button', { name: 'Leave' })
        .press('Enter')
        .catch(() => {});
      await page.locator('#timeline > li[data-name="link-exit"]').first().waitFor();
      const seen = await events(page);
      assert.deepEqual(
        seen.map((e) => e.name),
        ['link-open', 'link-login', 'link-exit'],
      );
      assert.equal(seen[2]!.detail.reason, 'user_closed');
      // No modal shows (the element builds a hidden one ahead again after a user_closed: it fetches on intent).
      assert.equal(await page.locator('[data-payroll-link-modal] dialog[open]').count(), 0);
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
});
