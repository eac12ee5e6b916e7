/**
 * The sandbox's hosted Link page's landmarks, in Debian's Chromium with the real sandbox. In a frame (the widget's
 * modal or inline iframe) the host page has its own `main`, banner and footer: the Link page adds none of them, only
 * one region named by the page's title. Opened as a page of its own, it has one `main` (with its banner and footer).
 * axe (the WCAG tags and `landmark-unique`) finds nothing in the host page, in the frame, and in the page on its own.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { startLinkPageHost, type LinkPageHost } from './link-page-host.js';

let axeSource: Promise<string> | undefined;

/** axe's violations in `frame`'s document, of the WCAG 2.0–2.2 A/AA tags and `landmark-unique`. */
async function wcagViolations(frame: Frame): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(await axeSource);
  return frame.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }> };
    };
    const results = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'] },
      rules: { 'landmark-unique': { enabled: true } },
    });
    return results.violations.map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
  });
}

/** How many landmarks of each role the document has (Playwright's roles: shadow roots included, frames not). */
async function landmarks(frame: Frame): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const role of ['banner', 'main', 'contentinfo', 'region'] as const) counts[role] = await frame.getByRole(role).count();
  return counts;
}

describe('Link page: landmarks that never repeat the host page’s', { timeout: 300_000 }, () => {
  let host: LinkPageHost;

  before(async () => {
    host = await startLinkPageHost({ lang: 'en', title: 'Host', frameTitle: 'Connect payroll', pendingJobDelayMs: 1_000 });
  });

  after(() => host?.close());

  for (const display of ['modal', 'inline'] as const) {
    test(`in a frame (${display}): no banner, main or contentinfo, one region named by the page's title; axe clean`, async () => {
      await host.withLinkPage(await host.createLinkToken(), display === 'inline' ? { display } : {}, async (frame, page) => {
        await frame.getByRole('heading', { level: 1, name: 'Acme Lending wants to switch your direct deposit' }).waitFor();
        assert.deepEqual(await landmarks(frame), { banner: 0, main: 0, contentinfo: 0, region: 1 });
        assert.equal(await frame.getByRole('region', { name: 'Connect your payroll account' }).count(), 1);
        assert.deepEqual(await landmarks(page.mainFrame()), { banner: 0, main: 1, contentinfo: 0, region: 0 }, 'the host page’s own');
        assert.deepEqual(await wcagViolations(frame), [], 'the frame');
        assert.deepEqual(await wcagViolations(page.mainFrame()), [], 'the host page');
      });
    });
  }

  test('in Spanish, the region is named by the Spanish title', async () => {
    await host.withLinkPage(await host.createLinkToken({ language: 'es' }), {}, async (frame) => {
      await frame.getByRole('heading', { level: 1, name: /quiere cambiar tu depósito directo/ }).waitFor();
      assert.equal(await frame.getByRole('region', { name: 'Conecta tu cuenta de nómina' }).count(), 1);
    });
  });

  test('as a page of its own: one main, with its banner and footer; axe clean', async () => {
    await host.withLinkPage(await host.createLinkToken(), {}, async (_frame, page) => {
      await page.goto(host.linkUrl);
      await page.getByRole('heading', { level: 1, name: 'Open this page from the app' }).waitFor();
      assert.deepEqual(await landmarks(page.mainFrame()), { banner: 1, main: 1, contentinfo: 1, region: 0 });
      assert.deepEqual(await wcagViolations(page.mainFrame()), []);
    });
  });
});
