/**
 * Colour mode (#27 part 3): `color-scheme` on the element and `colorScheme` in `openLink` reach the modal's
 * chrome (dark defaults, axe-clean in both modes) and the Link page (in the init message, as the fake Link page
 * reports it back). A value outside light, dark and auto falls back to light, with a console warning.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import { openLink, prepareLink, type LinkEventDetail, type PayrollLink } from '../../src/index.js';
import type { FakeOpenReport } from './fake-link/fake-link.js';
import { fakeLinkUrl, fakeTokenUrl, modalRoot } from './helpers.js';

const LIGHT = 'rgb(255, 255, 255)';
const DARK = 'rgb(15, 23, 42)';

const dialog = () => modalRoot().querySelector('dialog')!;
/** What the fake Link page was told, from its `open` report. */
const told = (detail: LinkEventDetail) => (detail.payload as FakeOpenReport).init.colorScheme;

/** Opens the element with `colorScheme` (an attribute, or none) and returns what the Link page was told. */
async function openElement(attribute: string | undefined): Promise<{ el: PayrollLink; colorScheme: unknown }> {
  const token = fakeTokenUrl('ok');
  const el = await fixture<PayrollLink>(html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`);
  if (attribute !== undefined) el.setAttribute('color-scheme', attribute);
  const open = oneEvent(el, 'link-event');
  el.shadowRoot!.querySelector('button')!.click();
  return { el, colorScheme: told((await open).detail) };
}

async function closeElement(el: PayrollLink): Promise<void> {
  const exit = oneEvent(el, 'link-exit');
  el.close();
  await exit;
}

describe('colour mode', () => {
  it('color-scheme="dark": a dark modal chrome, axe clean, and the Link page told dark', async () => {
    const { el, colorScheme } = await openElement('dark');
    expect(el.colorScheme).to.equal('dark');
    expect(colorScheme).to.equal('dark');
    expect(dialog().getAttribute('data-color-scheme')).to.equal('dark');
    const style = getComputedStyle(dialog());
    expect(style.backgroundColor).to.equal(DARK);
    expect(style.colorScheme).to.equal('dark');
    await expect(modalRoot().host).to.be.accessible();
    await closeElement(el);
  });

  it('no color-scheme: light as before, axe clean, and the Link page told light', async () => {
    const { el, colorScheme } = await openElement(undefined);
    expect(colorScheme).to.equal('light');
    expect(getComputedStyle(dialog()).backgroundColor).to.equal(LIGHT);
    await expect(modalRoot().host).to.be.accessible();
    await closeElement(el);
  });

  it("the page's --payroll-link-modal-background wins in dark mode too", async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link color-scheme="dark" token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`,
    );
    el.style.setProperty('--payroll-link-modal-background', 'rgb(1, 2, 3)');
    const open = oneEvent(el, 'link-open');
    el.shadowRoot!.querySelector('button')!.click();
    await open;
    expect(getComputedStyle(dialog()).backgroundColor).to.equal('rgb(1, 2, 3)');
    await closeElement(el);
  });

  it("openLink({ colorScheme: 'auto' }) follows prefers-color-scheme, and tells the Link page auto", async () => {
    let reported!: (detail: LinkEventDetail) => void;
    const open = new Promise<LinkEventDetail>((resolve) => (reported = resolve));
    const link = openLink({
      linkUrl: await fakeLinkUrl('idle'),
      fetchToken: async () => `tok.${crypto.randomUUID()}`,
      colorScheme: 'auto',
      onEvent: (detail) => detail.name === 'open' && reported(detail),
    });
    expect(told(await open)).to.equal('auto');
    // The user's setting is outside the system: whatever this browser prefers, the chrome must match it.
    const prefersDark = matchMedia('(prefers-color-scheme: dark)').matches;
    expect(getComputedStyle(dialog()).backgroundColor).to.equal(prefersDark ? DARK : LIGHT);
    await expect(modalRoot().host).to.be.accessible();
    link.close();
    await link.closed;
  });

  it('prepareLink({ colorScheme }) built ahead shows in it, and open({ colorScheme }) may still change it', async () => {
    for (const [prepared, late, expected] of [
      ['dark', undefined, 'dark'],
      ['dark', 'light', 'light'],
    ] as const) {
      let reported!: (detail: LinkEventDetail) => void;
      const open = new Promise<LinkEventDetail>((resolve) => (reported = resolve));
      const link = prepareLink({
        linkUrl: await fakeLinkUrl('idle'),
        fetchToken: async () => `tok.${crypto.randomUUID()}`,
        colorScheme: prepared,
      });
      const handle = link.open({ onEvent: (detail) => detail.name === 'open' && reported(detail), ...(late ? { colorScheme: late } : {}) });
      expect(told(await open)).to.equal(expected);
      expect(dialog().getAttribute('data-color-scheme')).to.equal(expected);
      handle.close();
      await handle.closed;
    }
  });

  it('a value outside light, dark and auto falls back to light, with one console warning', async () => {
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args);
    try {
      const { el, colorScheme } = await openElement('blue');
      expect(colorScheme).to.equal('light');
      expect(dialog().getAttribute('data-color-scheme')).to.equal('light');
      expect(getComputedStyle(dialog()).backgroundColor).to.equal(LIGHT);
      await closeElement(el);
    } finally {
      console.warn = warn;
    }
    expect(warnings.filter((args) => String(args[0]).includes('color-scheme "blue"'))).to.have.length(1);
  });
});
