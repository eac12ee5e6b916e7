/**
 * The docs site (`npm run docs`), end to end: the real sandbox, the real example backend and
 * VitePress's dev server over docs/, on free loopback ports, in Debian's Chromium. A reader opens
 * "Getting started", and completes a session in its live example. Nothing faked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startDocsSite, type DocsSite } from '../../scripts/start-docs.js';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { pressDone, switchDeposit } from '../sandbox-link-flow.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** Bound on each wait; generous because CI machines are small and shared. */
const WAIT_MS = 90_000;
/** Bound on the first page of the cold dev server. */
const FIRST_PAGE_MS = 300_000;

describe('npm run docs, end to end', { timeout: 600_000 }, () => {
  let site: DocsSite;
  let browser: Browser;

  before(async () => {
    site = await startDocsSite({ port: 0, live: false });
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
  });

  test("Getting started: the live example connects an account through the sandbox's Link page", async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    context.setDefaultTimeout(WAIT_MS);
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // The first page of a cold dev server is the costly one (Vite pre-bundles VitePress's dependencies and
      // transforms its theme on this request): it took over 90 s with the machine at load 22 on 2 cores. A bound
      // of its own, not a wait: the load event ends it.
      await page.goto(`${site.url}getting-started.html`, { timeout: FIRST_PAGE_MS });
      await page.getByRole('heading', { level: 1, name: 'Getting started' }).waitFor();
      const example = page.locator('[data-live-example]');
      await example.getByRole('button', { name: 'Connect payroll' }).click();

      // The element's modal, with the sandbox's hosted Link page in its frame.
      const frame = await (await page.waitForSelector('[data-payroll-link-modal] iframe')).contentFrame();
      assert.ok(frame);
      assert.ok(frame.url().startsWith(`${site.sandboxUrl}/link`), frame.url());
      await switchDeposit(frame);
      await pressDone(frame);

      const outcome = example.locator('[data-outcome]');
      await page.waitForFunction(() => document.querySelector('[data-outcome]')?.textContent?.includes('link-exit'));
      assert.match((await outcome.textContent()) ?? '', new RegExp(`^link-success: account ${UUID}, job ${UUID}; link-exit: completed$`));
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
