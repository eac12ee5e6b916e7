/**
 * The WCAG 2.2 criteria of docs/accessibility.md that axe cannot judge and a script can, on every screen of the
 * sandbox's Link page in its frame at 320 CSS px (a 1280 px window at 400 %): 1.4.10 Reflow (no sideways scroll),
 * 1.4.12 Text Spacing (WCAG's own spacing overrides clip nothing), 2.4.7 Focus Visible (every Tab stop draws an
 * outline), and 1.3.5 Identify Input Purpose (the login's fields say what they are). Chromium through Playwright,
 * the real sandbox.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { startLinkPageHost, type LinkPageHost } from './link-page-host.js';

/** The text-spacing overrides of WCAG 2.2's Understanding 1.4.12, as the bookmarklet applies them. */
const TEXT_SPACING = `*{line-height:1.5!important;letter-spacing:0.12em!important;word-spacing:0.16em!important}p{margin-bottom:2em!important}`;

describe('WCAG checks beyond axe, on every screen at 320 px', { timeout: 300_000 }, () => {
  let host: LinkPageHost;

  before(async () => {
    host = await startLinkPageHost({ lang: 'en', title: 'Host page', frameTitle: 'Connect payroll', pendingJobDelayMs: 1_000 });
  });

  after(async () => {
    await host?.close();
  });

  /** The frame's open shadow roots' elements too: the page is Lit elements all the way down. */
  // No named functions inside `evaluate`: tsx names them through a helper (`__name`) the page does not have.
  const deepQuery = (frame: Frame, selector: string) =>
    frame.evaluate((css) => {
      let found = 0;
      const roots: Array<Document | ShadowRoot> = [document];
      for (let root = roots.pop(); root; root = roots.pop()) {
        found += root.querySelectorAll(css).length;
        for (const element of root.querySelectorAll('*')) if (element.shadowRoot) roots.push(element.shadowRoot);
      }
      return found;
    }, selector);

  /** Reflow and text spacing on the screen showing: nothing scrolls sideways, no text box cuts its text. */
  async function expectReflowsWithSpacing(frame: Frame, screen: string): Promise<void> {
    const overflow = await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${screen}: ${overflow}px wider than the 320px frame`);
    const clipped = await frame.evaluate((spacing) => {
      const problems: string[] = [];
      const roots: Array<Document | ShadowRoot> = [document];
      for (let root = roots.pop(); root; root = roots.pop()) {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(spacing);
        root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
        for (const element of root.querySelectorAll<HTMLElement>('*')) if (element.shadowRoot) roots.push(element.shadowRoot);
      }
      const all: Array<Document | ShadowRoot> = [document];
      for (let root = all.pop(); root; root = all.pop()) {
        for (const element of root.querySelectorAll<HTMLElement>('*')) {
          if (element.shadowRoot) all.push(element.shadowRoot);
          // Text for screen readers only is a 1px box on purpose.
          if (!element.textContent?.trim() || element.clientHeight <= 1) continue;
          const style = getComputedStyle(element);
          const name = `${element.tagName.toLowerCase()}.${element.className}`;
          if (/hidden|clip/.test(style.overflowY) && element.scrollHeight > element.clientHeight + 1)
            problems.push(`${name}: ${element.scrollHeight} > ${element.clientHeight}`);
          if (/hidden|clip/.test(style.overflowX) && element.scrollWidth > element.clientWidth + 1)
            problems.push(`${name} (wide): ${element.scrollWidth} > ${element.clientWidth}`);
        }
      }
      const wide = document.documentElement.scrollWidth - document.documentElement.clientWidth;
      if (wide > 0) problems.push(`the page scrolls sideways by ${wide}px`);
      return problems;
    }, TEXT_SPACING);
    assert.deepEqual(clipped, [], `${screen}: text cut with WCAG's text spacing`);
  }

  /** Tabs through the screen: every stop inside the page draws a visible outline or ring. */
  async function expectFocusVisible(frame: Frame, screen: string, stops: number): Promise<void> {
    let checked = 0;
    for (let stop = 0; stop < stops; stop++) {
      await frame.page().keyboard.press('Tab');
      const focus = await frame.evaluate(() => {
        let element = document.activeElement;
        while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
        if (!element || element === document.body) return null;
        const style = getComputedStyle(element);
        const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1) || style.boxShadow !== 'none';
        return { name: `${element.tagName.toLowerCase()} ${element.textContent?.trim().slice(0, 30) ?? ''}`, ring };
      });
      // Focus left the frame (the host page's turn): the stops of this screen are done.
      if (focus === null) break;
      assert.ok(focus.ring, `${screen}: ${focus.name} has focus and no visible indicator`);
      checked++;
    }
    assert.ok(checked > 0, `${screen}: Tab reached no control in the page`);
  }

  test('intro, search, login, one-time code, allocation and the result: reflow, text spacing, focus visible, input purpose', async () => {
    const token = await host.createLinkToken();
    await host.withLinkPage(token, { hostCloseControl: false }, async (frame, page) => {
      await page.evaluate(() => {
        const iframe = document.querySelector('iframe')!;
        iframe.width = '320';
        iframe.height = '256';
      });
      const screen = async (heading: string | RegExp) => frame.getByRole('heading', { level: 1, name: heading }).waitFor();

      await screen(/wants to switch your direct deposit/);
      await expectFocusVisible(frame, 'intro', 4);
      await expectReflowsWithSpacing(frame, 'intro');
      await frame.getByRole('button', { name: 'Continue' }).press('Enter');

      await screen('Find your employer');
      await frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first().waitFor();
      await expectFocusVisible(frame, 'search', 6);
      await expectReflowsWithSpacing(frame, 'search');
      await frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first().press('Enter');

      await screen(/^Log in to /);
      assert.equal(await frame.getByLabel('Username').getAttribute('autocomplete'), 'username');
      assert.equal(await frame.getByLabel('Password').getAttribute('autocomplete'), 'current-password');
      await expectFocusVisible(frame, 'login', 6);
      await expectReflowsWithSpacing(frame, 'login');
      await frame.getByLabel('Username').fill('user_mfa');
      await frame.getByLabel('Password').fill('pass_good');
      await frame.getByLabel('Password').press('Enter');

      await screen('Enter your one-time code');
      assert.equal(await frame.getByLabel('One-time code').getAttribute('autocomplete'), 'one-time-code');
      await expectFocusVisible(frame, 'one-time code', 4);
      await expectReflowsWithSpacing(frame, 'one-time code');
      await frame.getByLabel('One-time code').fill('mfa_code');
      await frame.getByLabel('One-time code').press('Enter');

      await screen('Choose your deposit');
      await expectFocusVisible(frame, 'allocation', 5);
      await expectReflowsWithSpacing(frame, 'allocation');
      await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');

      await screen('Your direct deposit is switched');
      await expectFocusVisible(frame, 'success', 3);
      await expectReflowsWithSpacing(frame, 'success');
      assert.ok((await deepQuery(frame, 'h1')) === 1, 'one heading on the screen');
    });
  });
});
