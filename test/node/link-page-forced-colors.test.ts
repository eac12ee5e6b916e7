/**
 * The running screen's spinner on the sandbox's hosted Link page, in Debian's Chromium with the real sandbox: under
 * `forced-colors: active` (Windows high contrast) it keeps its meaning, its turning segment distinct from its ring
 * in system colours (`forced-color-adjust: none`), where forced colours would paint one plain circle; under
 * `prefers-reduced-motion: reduce` it stands still. Read from the computed styles and the running animations.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { startLinkPageHost, toRunning, type LinkPageHost } from './link-page-host.js';

/** The spinner's computed look and how many animations run on it. */
const spinner = (frame: Frame) =>
  frame.locator('link-running .spinner').evaluate((element) => {
    const style = getComputedStyle(element);
    return {
      adjust: style.getPropertyValue('forced-color-adjust'),
      segment: style.borderTopColor,
      ring: style.borderRightColor,
      animation: style.animationName,
      running: element.getAnimations().filter((animation) => animation.playState === 'running').length,
    };
  });

describe('Link page: the spinner in forced colours and with reduced motion', { timeout: 300_000 }, () => {
  let host: LinkPageHost;

  before(async () => {
    host = await startLinkPageHost({ lang: 'en', title: 'Host', frameTitle: 'Connect payroll', pendingJobDelayMs: 60 * 60_000 });
  });

  after(() => host?.close());

  test('forced colours: the turning segment stays distinct from the ring, in system colours; it still turns', async () => {
    await host.withLinkPage(await host.createLinkToken(), {}, async (frame, page) => {
      await toRunning(frame);
      const normal = await spinner(frame);
      assert.notEqual(normal.segment, normal.ring);
      await page.emulateMedia({ forcedColors: 'active' });
      const forced = await spinner(frame);
      assert.equal(forced.adjust, 'none');
      assert.notEqual(forced.segment, forced.ring, 'segment and ring differ under forced colours');
      assert.notDeepEqual([forced.segment, forced.ring], [normal.segment, normal.ring], 'system colours, not the palette');
      assert.equal(forced.animation, 'spin');
      assert.equal(forced.running, 1);
    });
  });

  test('reduced motion: no animation runs on the spinner, and the screen still says what is going on', async () => {
    await host.withLinkPage(
      await host.createLinkToken(),
      {},
      async (frame, page) => {
        await toRunning(frame);
        const still = await spinner(frame);
        assert.equal(still.animation, 'none');
        assert.equal(still.running, 0);
        assert.ok(await frame.getByRole('status').filter({ hasText: 'This usually takes a few seconds' }).isVisible());
        await page.emulateMedia({ reducedMotion: 'no-preference' });
        assert.equal((await spinner(frame)).running, 1, 'it turns for everyone else');
      },
      { reducedMotion: 'reduce' },
    );
  });
});
