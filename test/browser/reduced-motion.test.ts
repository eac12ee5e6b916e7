/**
 * Reduced motion (issue 49): under `prefers-reduced-motion: reduce` the button's spinner stands still (no running
 * animation in the element's shadow root), and the loading state still says "loading" to a screen reader: the
 * spinner is an image named with the widget's `loading` words, inside the busy button, in any motion setting.
 * The emulation exists only in Chromium here (Playwright; Firefox over WebDriver BiDi refuses it, "CDP support is
 * required", and WebKitGTK's WebDriver has none): Firefox and WebKit check the normal half (the spinner turns) and
 * the words.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/index.js';
import type { PayrollLink } from '../../src/index.js';
import { engine } from './engine.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl } from './helpers.js';

/** A loading button: its token never comes. */
async function loadingElement(lang = 'en') {
  const el = await fixture<PayrollLink>(
    html`<payroll-link lang=${lang} token-url=${fakeTokenUrl('hang').url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`,
  );
  void el.show();
  await el.updateComplete;
  return el;
}

/** The animations running in the element's shadow root (the spinner's, if it turns). */
const running = (el: PayrollLink) => el.shadowRoot!.getAnimations().filter((animation) => animation.playState === 'running');

describe(`reduced motion: the button's spinner stands still and still says "loading" (${engine})`, () => {
  afterEach(() => expect(deepQueryAll('iframe')).to.have.length(0));

  it('the loading button holds the loading words for a screen reader: the spinner is an image named with them', async () => {
    for (const [lang, words] of [
      ['en', 'Loading…'],
      ['es', 'Cargando…'],
    ] as const) {
      const el = await loadingElement(lang);
      try {
        const button = el.shadowRoot!.querySelector('button')!;
        const spinner = button.querySelector('[part="spinner"]')!;
        expect(button.getAttribute('aria-busy')).to.equal('true');
        expect(
          { role: spinner.getAttribute('role'), name: spinner.getAttribute('aria-label'), hidden: spinner.closest('[aria-hidden]') },
          lang,
        ).to.deep.equal({ role: 'img', name: words, hidden: null });
      } finally {
        el.close();
      }
    }
  });

  it(`turns in normal motion; ${engine === 'chromium' ? 'stands still under reduce' : `(reduce: no emulation in ${engine})`}`, async () => {
    const el = await loadingElement();
    try {
      expect(running(el), 'no preference: the spinner turns').to.have.length(1);
      if (engine !== 'chromium') return;
      await emulateMedia({ reducedMotion: 'reduce' });
      try {
        expect(matchMedia('(prefers-reduced-motion: reduce)').matches, 'the emulation holds').to.equal(true);
        expect(running(el), 'reduce: nothing turns').to.have.length(0);
      } finally {
        await emulateMedia({ reducedMotion: 'no-preference' });
      }
    } finally {
      el.close();
    }
  });
});
