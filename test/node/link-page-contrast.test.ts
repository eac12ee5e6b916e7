/**
 * WCAG 1.4.11 (Non-text Contrast) on the sandbox's hosted Link page, in Debian's Chromium with the real sandbox, in
 * the light and the dark colour scheme: on every screen with controls, each control's own boundary (its border, or
 * its fill where it has one) is at least 3:1 against the background around it, read from the computed colours
 * (walking up, through shadow roots, to the first opaque background); and so is the focus ring of every control
 * Tab reaches. A control with no boundary at all (a text-only link button, the close ×, a search hit's row) is
 * identified by its text, which 1.4.3 covers (axe, in the other tests). Native radios draw their own ring.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { startLinkPageHost, toAllocation, toSearch, type LinkPageHost } from './link-page-host.js';

/** What the page reports of one control: a name for messages, and its computed colours. */
interface Control {
  name: string;
  border: { color: string; width: number; style: string };
  own: string;
  outside: string;
}

type Rgba = [number, number, number, number];

function parse(color: string): Rgba {
  const match = /^rgba?\(([\d.]+),?\s*([\d.]+),?\s*([\d.]+)(?:\s*[,/]\s*([\d.]+))?\)$/.exec(color.trim());
  assert.ok(match, `a colour Chromium computes as rgb(): ${color}`);
  return [Number(match[1]), Number(match[2]), Number(match[3]), match[4] === undefined ? 1 : Number(match[4])];
}

/** `top` over `under` (an opaque colour). */
const over = ([r, g, b, a]: Rgba, [ur, ug, ub]: Rgba): Rgba => [r * a + ur * (1 - a), g * a + ug * (1 - a), b * a + ub * (1 - a), 1];

const luminance = ([r, g, b]: Rgba): number => {
  const [lr, lg, lb] = [r, g, b].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
};

/** WCAG's contrast ratio of `a` over the opaque `background`. */
function contrast(a: string, background: string): number {
  const under = parse(background);
  const [x, y] = [luminance(over(parse(a), under)), luminance(under)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

/** Whether `a` painted over `b` changes nothing (a fill the same as its surroundings is no boundary). */
const same = (a: string, b: string) => over(parse(a), parse(b)).join() === parse(b).join();

/** Every visible, reachable control of the frame (through shadow roots), with its colours. */
const controls = (frame: Frame): Promise<Control[]> =>
  frame.evaluate(() => {
    const found: Control[] = [];
    const roots: Array<Document | ShadowRoot> = [document];
    while (roots.length > 0) {
      const root = roots.pop()!;
      for (const element of root.querySelectorAll('*')) {
        if (element.shadowRoot) roots.push(element.shadowRoot);
        const type = element.getAttribute('type');
        const isControl = ['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(element.tagName) && type !== 'radio' && type !== 'checkbox';
        if (!isControl || element.getClientRects().length === 0 || element.closest('[inert]')) continue;
        const style = getComputedStyle(element);
        // The background around the control: the first opaque one above it, through shadow roots.
        let outside = 'rgb(255, 255, 255)';
        let node: Node | null = element.parentNode;
        while (node) {
          if (node instanceof ShadowRoot) {
            node = node.host;
            continue;
          }
          if (node instanceof Element) {
            const background = getComputedStyle(node).backgroundColor;
            if (background !== 'transparent' && !/,\s*0\)$/.test(background)) {
              outside = background;
              break;
            }
          }
          node = node.parentNode;
        }
        found.push({
          name: `${element.tagName.toLowerCase()}.${element.className} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 30)}"`,
          border: { color: style.borderTopColor, width: parseFloat(style.borderTopWidth), style: style.borderTopStyle },
          own: style.backgroundColor,
          outside,
        });
      }
    }
    return found;
  });

/** Asserts each control's boundary is at least 3:1; returns how many had one (the rest have none to measure). */
async function expectBoundaries(frame: Frame, screen: string): Promise<number> {
  let measured = 0;
  for (const control of await controls(frame)) {
    const { border, own, outside } = control;
    const bordered = border.width > 0 && border.style !== 'none' && border.style !== 'hidden' && parse(border.color)[3] > 0;
    const filled = parse(own)[3] > 0 && !same(own, outside);
    if (!bordered && !filled) continue;
    measured++;
    const ratio = bordered ? contrast(border.color, outside) : contrast(own, outside);
    assert.ok(
      ratio >= 3,
      `${screen}: ${control.name}'s boundary is ${ratio.toFixed(2)}:1 (${bordered ? border.color : own} on ${outside})`,
    );
  }
  return measured;
}

/** Tabs through the page (until the first control comes round again) and asserts each focus ring is at least 3:1. */
async function expectFocusRings(page: Page, frame: Frame, screen: string): Promise<number> {
  const seen = new Set<string>();
  for (let step = 0; step < 40; step++) {
    await page.keyboard.press('Tab');
    const ring = await frame.evaluate(() => {
      let element = document.activeElement;
      while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
      if (!element || element === document.body) return null;
      const style = getComputedStyle(element);
      let background = style.backgroundColor;
      let node: Node | null = parseFloat(style.outlineOffset) < 0 && !/,\s*0\)$/.test(background) ? null : element.parentNode;
      while (node) {
        if (node instanceof ShadowRoot) {
          node = node.host;
          continue;
        }
        if (node instanceof Element) {
          const own = getComputedStyle(node).backgroundColor;
          if (own !== 'transparent' && !/,\s*0\)$/.test(own)) {
            background = own;
            break;
          }
        }
        node = node.parentNode;
      }
      if (/,\s*0\)$/.test(background)) background = 'rgb(255, 255, 255)';
      const label = `${element.tagName.toLowerCase()}.${element.className} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 30)}"`;
      return { label, color: style.outlineColor, style: style.outlineStyle, width: parseFloat(style.outlineWidth), background };
    });
    if (!ring) continue;
    if (seen.has(ring.label)) break;
    seen.add(ring.label);
    assert.notEqual(ring.style, 'none', `${screen}: ${ring.label} shows a focus ring`);
    assert.ok(ring.width >= 2, `${screen}: ${ring.label}'s ring is ${ring.width}px`);
    const ratio = contrast(ring.color, ring.background);
    assert.ok(ratio >= 3, `${screen}: ${ring.label}'s focus ring is ${ratio.toFixed(2)}:1 (${ring.color} on ${ring.background})`);
  }
  return seen.size;
}

describe('Link page: controls and focus rings are at least 3:1 (WCAG 1.4.11), light and dark', { timeout: 300_000 }, () => {
  let host: LinkPageHost;

  before(async () => {
    host = await startLinkPageHost({ lang: 'en', title: 'Host', frameTitle: 'Connect payroll', pendingJobDelayMs: 60 * 60_000 });
  });

  after(() => host?.close());

  test('the colour contrast helper measures as WCAG does (#9ca3af on white, the old field border, is 2.54:1)', () => {
    assert.equal(contrast('rgb(156, 163, 175)', 'rgb(255, 255, 255)').toFixed(2), '2.54');
    assert.equal(contrast('rgb(0, 0, 0)', 'rgb(255, 255, 255)').toFixed(0), '21');
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`${scheme}: intro, search, login (with an error), one-time code, allocation, leave question and success`, async () => {
      const check = async (page: Page, frame: Frame, screen: string, rings = true) => {
        const measured = await expectBoundaries(frame, `${scheme} ${screen}`);
        assert.ok(measured > 0, `${screen}: some control has a boundary to measure`);
        if (rings) assert.ok((await expectFocusRings(page, frame, `${scheme} ${screen}`)) > 0, `${screen}: Tab reaches a control`);
      };
      await host.withLinkPage(await host.createLinkToken(), { colorScheme: scheme }, async (frame, page) => {
        await frame.getByRole('button', { name: 'Continue' }).waitFor();
        await check(page, frame, 'intro');
        await toSearch(frame);
        await frame.locator('button.hit').first().waitFor();
        await check(page, frame, 'search');
        await frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first().press('Enter');
        await frame.getByLabel('Username').fill('user_mfa');
        await frame.getByLabel('Password').fill('wrong');
        await frame.getByLabel('Password').press('Enter');
        await frame.getByRole('alert').filter({ hasText: 'did not work' }).waitFor();
        await check(page, frame, 'login with an error');
        await frame.getByLabel('Password').fill('pass_good');
        await frame.getByLabel('Password').press('Enter');
        await frame.getByLabel('One-time code').waitFor();
        await check(page, frame, 'one-time code');
        await frame.getByLabel('One-time code').fill('mfa_code');
        await frame.getByLabel('One-time code').press('Enter');
        await frame.getByRole('radio', { name: /A fixed amount/ }).check();
        await frame.getByLabel('Amount per paycheck (USD)').waitFor();
        await check(page, frame, 'allocation');
        await frame.getByLabel('Amount per paycheck (USD)').fill('100');
        await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');
        await frame.getByRole('button', { name: 'Done' }).waitFor();
        await check(page, frame, 'success');
      });
      await host.withLinkPage(await host.createLinkToken(), { colorScheme: scheme }, async (frame, page) => {
        await toAllocation(frame, 'user_pending');
        await frame.getByRole('button', { name: 'Switch my deposit' }).press('Enter');
        await frame.locator('h1').filter({ hasText: 'Switching your direct deposit' }).press('Escape');
        await frame.getByRole('alertdialog').waitFor();
        await check(page, frame, 'leave question');
      });
    });
  }
});
