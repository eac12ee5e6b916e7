/**
 * Forced colours (Windows high contrast; issue 49): the button and the modal dialog keep a visible boundary, their
 * outline, transparent in normal colours (so nothing changes there, and no room moves: an outline takes none); the
 * button's spinner keeps its own colours, so its gap stays a gap (a turning arc, not a static ring). Read from the
 * computed styles. Forced colours can be emulated only in Chromium here (Playwright's `forcedColors`; Firefox's
 * WebDriver BiDi and WebKitGTK's WebDriver have no such emulation): Firefox and WebKit check the normal half.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/index.js';
import { openLink, type PayrollLink } from '../../src/index.js';
import { engine } from './engine.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl, modalRoot } from './helpers.js';

const TRANSPARENT = 'rgba(0, 0, 0, 0)';

/** The boundary an element draws: its outline's style, width and colour, as computed. */
function boundary(element: Element) {
  const style = getComputedStyle(element);
  return { style: style.outlineStyle, width: style.outlineWidth, transparent: style.outlineColor === TRANSPARENT };
}

/** Runs `check` in normal colours, then (Chromium) in forced colours, given which mode it runs in. */
async function inBothModes(check: (forced: boolean) => void | Promise<void>) {
  await check(false);
  if (engine !== 'chromium') return;
  await emulateMedia({ forcedColors: 'active' });
  try {
    expect(matchMedia('(forced-colors: active)').matches, 'the emulation holds').to.equal(true);
    await check(true);
  } finally {
    await emulateMedia({ forcedColors: 'none' });
  }
}

describe(`forced colours: visible boundaries, transparent otherwise (${engine}${engine === 'chromium' ? '' : ': normal colours only'})`, () => {
  afterEach(() => expect(deepQueryAll('iframe')).to.have.length(0));

  it("the element's button: a 1 px outline, transparent in normal colours, drawn in forced colours", async () => {
    const el = await fixture<PayrollLink>(html`<payroll-link token-url=${fakeTokenUrl().url}></payroll-link>`);
    const button = el.shadowRoot!.querySelector('button')!;
    await inBothModes((forced) => {
      expect(boundary(button), forced ? 'forced colours' : 'normal colours').to.deep.equal({
        style: 'solid',
        width: '1px',
        transparent: !forced,
      });
    });
  });

  it("the button's spinner keeps its own colours: its gap stays transparent, its arc does not", async () => {
    // A token that never comes: the button stays loading.
    const el = await fixture<PayrollLink>(
      html`<payroll-link token-url=${fakeTokenUrl('hang').url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`,
    );
    void el.show();
    await el.updateComplete;
    const spinner = el.shadowRoot!.querySelector('[part="spinner"]')!;
    expect(spinner, 'loading').to.not.equal(null);
    try {
      await inBothModes(() => {
        const style = getComputedStyle(spinner);
        expect({ gap: style.borderRightColor === TRANSPARENT, arc: style.borderTopColor === TRANSPARENT }).to.deep.equal({
          gap: true,
          arc: false,
        });
      });
    } finally {
      el.close();
    }
  });

  it('the modal dialog: a 1 px outline, transparent in normal colours, drawn in forced colours', async () => {
    const link = openLink({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: fakeTokenUrl().url });
    await link.ready;
    try {
      const dialog = modalRoot().querySelector('dialog')!;
      await inBothModes((forced) => {
        expect(boundary(dialog), forced ? 'forced colours' : 'normal colours').to.deep.equal({
          style: 'solid',
          width: '1px',
          transparent: !forced,
        });
      });
    } finally {
      link.close();
      await link.closed;
    }
  });
});
