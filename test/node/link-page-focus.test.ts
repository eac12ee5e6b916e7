/**
 * Focus on the sandbox's hosted Link page, in Debian's Chromium with the real sandbox. WCAG 2.4.3 (Focus Order):
 * when the control that has focus goes, focus moves to what replaced it, never to `<body>`. And the leave
 * confirmation is an alert dialog: focus starts on Stay, nothing else in the page can be reached while it asks, Escape
 * inside it is Stay, and the widget hears `confirming` each time it asks and `stay` when the user stays (the
 * helpers' agreement on the close answers).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { focused, hostMessages, startLinkPageHost, toOAuthLogin, toRunning, type LinkPageHost } from './link-page-host.js';

/** The close answers the widget has heard, in order. */
const closeAnswers = async (frame: Frame) =>
  (await frame.page().evaluate(() => window.hostEvents.filter((m) => m.type === 'payroll-link:close-answer'))).map((m) => m['answer']);

describe('Link page: focus never falls to <body> (WCAG 2.4.3), and the leave question is an alert dialog', { timeout: 300_000 }, () => {
  let host: LinkPageHost;

  before(async () => {
    host = await startLinkPageHost({ lang: 'en', title: 'Host', frameTitle: 'Connect payroll', pendingJobDelayMs: 60 * 60_000 });
  });

  after(() => host?.close());

  test('"Log in with OAuth Payroll" becomes a status message, and focus moves to it', async () => {
    await host.withLinkPage(await host.createLinkToken(), {}, async (frame, page) => {
      await toOAuthLogin(frame);
      await frame.getByRole('button', { name: 'Log in with OAuth Payroll' }).press('Enter');
      await hostMessages(page, 'payroll-link:open-url');
      await frame.getByRole('status').filter({ hasText: 'Finish logging in' }).waitFor();
      await frame.waitForFunction(() => {
        let element = document.activeElement;
        while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
        return element?.getAttribute('role') === 'status';
      });
      assert.deepEqual(await focused(frame), {
        tag: 'P',
        role: 'status',
        text: 'Finish logging in in the new window. This page goes on by itself.',
      });
    });
  });

  test('the leave question: focus on Stay, only Leave and Stay reachable, Escape is Stay, focus back on the heading; "confirming" each time it asks', async () => {
    await host.withLinkPage(await host.createLinkToken(), {}, async (frame, page) => {
      await toRunning(frame);
      const question = frame.getByRole('alertdialog');
      // Asked from inside the frame (Escape): the widget hears the page asks.
      await frame.locator('h1').press('Escape');
      await question.waitFor();
      assert.deepEqual(await focused(frame), { tag: 'BUTTON', role: null, text: 'Stay' });
      await hostMessages(page, 'payroll-link:close-answer');
      assert.deepEqual(await closeAnswers(frame), ['confirming']);

      // Tab and Shift+Tab reach Leave and Stay only: the header's close control and the rest are inert.
      const reached = new Set<string>();
      for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
        await page.keyboard.press(key);
        const { tag, text } = await focused(frame);
        if (tag !== 'BODY') reached.add(`${tag} ${text}`);
      }
      assert.deepEqual([...reached].sort(), ['BUTTON Leave', 'BUTTON Stay']);
      const closeControl = frame.getByRole('button', { name: 'Close Payroll Link' });
      assert.ok(await closeControl.evaluate((button) => button.closest('[inert]') !== null), 'the close control is inert');

      // Escape inside the question: Stay. The widget hears it, and focus goes to the screen's heading.
      await question.getByRole('button', { name: 'Leave' }).focus();
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'detached' });
      await hostMessages(page, 'payroll-link:close-answer', 2);
      assert.deepEqual(await closeAnswers(frame), ['confirming', 'stay']);
      assert.deepEqual(await focused(frame), { tag: 'H1', role: null, text: 'Switching your direct deposit' });
      assert.ok(await closeControl.evaluate((button) => button.closest('[inert]') === null), 'the close control is back');

      // Asked by the widget: confirming again; Stay by its button; focus back on the heading, never <body>.
      await page.evaluate(() => window.hostPort.postMessage({ type: 'payroll-link:close-request' }));
      await question.waitFor();
      await hostMessages(page, 'payroll-link:close-answer', 3);
      assert.deepEqual(await focused(frame), { tag: 'BUTTON', role: null, text: 'Stay' });
      await page.keyboard.press('Enter');
      await question.waitFor({ state: 'detached' });
      await hostMessages(page, 'payroll-link:close-answer', 4);
      assert.deepEqual(await closeAnswers(frame), ['confirming', 'stay', 'confirming', 'stay']);
      assert.deepEqual(await focused(frame), { tag: 'H1', role: null, text: 'Switching your direct deposit' });
      // Nobody left: no exit.
      assert.ok(!(await page.evaluate(() => window.hostEvents.some((m) => m.name === 'exit'))));
    });
  });

  test('inline, Escape inside the question is Stay too (the page’s own Escape is not the flow’s there)', async () => {
    await host.withLinkPage(await host.createLinkToken(), { display: 'inline' }, async (frame, page) => {
      await toRunning(frame);
      await frame.getByRole('button', { name: 'Close Payroll Link' }).press('Enter');
      const question = frame.getByRole('alertdialog');
      await question.waitFor();
      assert.deepEqual(await focused(frame), { tag: 'BUTTON', role: null, text: 'Stay' });
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'detached' });
      await hostMessages(page, 'payroll-link:close-answer', 2);
      assert.deepEqual(await closeAnswers(frame), ['confirming', 'stay']);
      assert.deepEqual(await focused(frame), { tag: 'H1', role: null, text: 'Switching your direct deposit' });
    });
  });

  test('inline, the final screen stays once the session exited: Close (or the header’s close control) goes, focus moves to the heading', async () => {
    for (const control of ['Close', 'Close Payroll Link']) {
      await host.withLinkPage('not-a-real-token', { display: 'inline' }, async (frame, page) => {
        await frame.getByRole('heading', { level: 1, name: 'This link is no longer valid' }).waitFor();
        await frame.getByRole('button', { name: control, exact: true }).press('Enter');
        await page.waitForFunction(() => window.hostEvents.some((m) => m.name === 'exit'));
        await frame.getByRole('button', { name: control, exact: true }).waitFor({ state: 'detached' });
        await frame.waitForFunction(() => {
          let element = document.activeElement;
          while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
          return element?.tagName === 'H1';
        });
        assert.deepEqual(await focused(frame), { tag: 'H1', role: null, text: 'This link is no longer valid' }, control);
      });
    }
  });
});
