/**
 * The sandbox's hosted Link page in its colour modes, end to end in Debian's Chromium: the real sandbox serves
 * the page and its API; a host page on a second loopback server embeds it and sends `init` with `colorScheme`,
 * as the widget does. In `dark`, every screen is dark and axe-clean (contrast included); `auto` follows the
 * browser's `prefers-color-scheme` (Playwright's emulation: the user's setting is outside the system); `light`
 * and an init without the field stay light.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { axeViolations } from './axe-violations.js';
import { startLinkPageHost, type LinkPageHost } from './link-page-host.js';

const DARK_BACKGROUND = 'rgb(17, 24, 39)';
const LIGHT_BACKGROUND = 'rgb(255, 255, 255)';

describe('hosted Link page colour modes', { timeout: 300_000 }, () => {
  let host: LinkPageHost;

  before(async () => {
    // A long pending phase, so user_pending holds the running screen however loaded the machine is; close() cancels it.
    host = await startLinkPageHost({ lang: 'en', title: 'Integrator page', frameTitle: 'Connect payroll', pendingJobDelayMs: 120_000 });
  });

  after(async () => {
    await host?.close();
  });

  const createLinkToken = (extra?: Record<string, unknown>) => host.createLinkToken(extra);

  /** Opens the Link page with `colorScheme` in the init (none when null), the browser preferring `prefers`; closes it after `steps`. */
  const withLinkPage = (
    token: string,
    colorScheme: string | null,
    prefers: 'light' | 'dark',
    steps: (frame: Frame, page: Page) => Promise<void>,
  ) => host.withLinkPage(token, { hostCloseControl: true, ...(colorScheme ? { colorScheme } : {}) }, steps, { colorScheme: prefers });

  const heading = (frame: Frame, name: string | RegExp) => frame.getByRole('heading', { level: 1, name }).waitFor();

  /** The page's background (the document's and the app's) and its text colour, as drawn. */
  const colours = (frame: Frame) =>
    frame.evaluate(() => {
      const app = document.querySelector('link-app')!;
      return {
        body: getComputedStyle(document.body).backgroundColor,
        app: getComputedStyle(app).backgroundColor,
        scheme: getComputedStyle(document.documentElement).colorScheme,
      };
    });

  /** Dark on this screen (the document and the app), and axe finds no violation, colour contrast included. */
  async function expectDarkAndAccessible(frame: Frame, screen: string): Promise<void> {
    assert.deepEqual(await colours(frame), { body: DARK_BACKGROUND, app: DARK_BACKGROUND, scheme: 'dark' }, `dark on the ${screen} screen`);
    assert.deepEqual(await axeViolations(frame), [], `axe violations on the ${screen} screen (dark)`);
  }

  test('dark: a whole session, every screen dark and axe clean', async () => {
    const token = await createLinkToken();
    // The browser prefers light: `dark` is the widget's choice, not the user's setting.
    await withLinkPage(token, 'dark', 'light', async (frame, page) => {
      await heading(frame, 'Acme Lending wants to switch your direct deposit');
      await expectDarkAndAccessible(frame, 'intro');
      await frame.getByRole('button', { name: 'Continue' }).press('Enter');
      await heading(frame, 'Find your employer');
      const hit = frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first();
      await hit.waitFor();
      await expectDarkAndAccessible(frame, 'search');
      await hit.press('Enter');
      await heading(frame, /^Log in to /);
      await frame.getByLabel('Username').fill('user_good');
      await frame.getByLabel('Password').fill('wrong_password');
      await frame.getByLabel('Password').press('Enter');
      await frame.getByRole('alert').filter({ hasText: 'did not work' }).waitFor();
      await expectDarkAndAccessible(frame, 'login with an error');
      await frame.getByLabel('Password').fill('pass_good');
      await frame.getByLabel('Password').press('Enter');
      await heading(frame, 'Choose your deposit');
      await frame.getByRole('radio', { name: /A fixed amount/ }).check();
      await expectDarkAndAccessible(frame, 'allocation');
      await frame.getByLabel('Amount per paycheck (USD)').fill('250.50');
      await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');
      await heading(frame, 'Your direct deposit is switched');
      await expectDarkAndAccessible(frame, 'success');
      await frame.getByRole('button', { name: 'Done' }).press('Enter');
      await page.waitForFunction(() => window.hostEvents.some((event) => event.name === 'exit'));
    });
  });

  test('dark: the one-time code, running, job error and invalid token screens, axe clean', async () => {
    const logInAs = async (frame: Frame, username: string) => {
      await heading(frame, 'Find your employer');
      await frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first().press('Enter');
      await frame.getByLabel('Username').fill(username);
      await frame.getByLabel('Password').fill('pass_good');
      await frame.getByLabel('Password').press('Enter');
    };
    await withLinkPage(await createLinkToken({ skip_intro_screen: true }), 'dark', 'light', async (frame) => {
      await logInAs(frame, 'user_mfa');
      await heading(frame, 'Enter your one-time code');
      await expectDarkAndAccessible(frame, 'mfa');
    });
    await withLinkPage(
      await createLinkToken({ skip_intro_screen: true, allocation: { type: 'remainder' } }),
      'dark',
      'light',
      async (frame) => {
        await logInAs(frame, 'user_pending');
        await heading(frame, 'Switching your direct deposit');
        await expectDarkAndAccessible(frame, 'running');
      },
    );
    const token = await createLinkToken({ skip_intro_screen: true });
    await withLinkPage(token, 'dark', 'light', async (frame) => {
      await logInAs(frame, 'user_error');
      await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');
      await heading(frame, 'Your payroll provider could not finish');
      await expectDarkAndAccessible(frame, 'job error');
    });
    await withLinkPage(token, 'dark', 'light', async (frame) => {
      await heading(frame, 'This link is no longer valid');
      await expectDarkAndAccessible(frame, 'invalid token');
    });
  });

  test('auto follows prefers-color-scheme; light, and an init without colorScheme, stay light whatever the user prefers', async () => {
    const cases = [
      { colorScheme: 'auto', prefers: 'dark', background: DARK_BACKGROUND },
      { colorScheme: 'auto', prefers: 'light', background: LIGHT_BACKGROUND },
      { colorScheme: 'light', prefers: 'dark', background: LIGHT_BACKGROUND },
      { colorScheme: null, prefers: 'dark', background: LIGHT_BACKGROUND },
    ] as const;
    for (const { colorScheme, prefers, background } of cases) {
      await withLinkPage(await createLinkToken(), colorScheme, prefers, async (frame) => {
        await heading(frame, 'Acme Lending wants to switch your direct deposit');
        const seen = await colours(frame);
        assert.deepEqual([seen.body, seen.app], [background, background], `${colorScheme} with the user preferring ${prefers}`);
        assert.deepEqual(await axeViolations(frame), [], `axe violations, ${colorScheme} with the user preferring ${prefers}`);
      });
    }
  });
});
