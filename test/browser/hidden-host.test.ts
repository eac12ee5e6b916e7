/**
 * A modal the page does not render still blocks it (inert, scroll locked):
 * `<payroll-link hidden>` opened by `show()` from the page's own button, a
 * button hidden at phone width, a host hidden while the flow shows. The user
 * must never be left with a blocked page and nothing on it.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { PayrollLink } from '../../src/index.js';
import { UUID, deepQueryAll, fakeLinkUrl, fakeTokenUrl } from './helpers.js';

const PAGE_CSS = `
  .gone { display: none; }
  .skipped { content-visibility: hidden; }
  .unseen { visibility: hidden; }
  .themed { --payroll-link-modal-width: 321px; --payroll-link-modal-background: rgb(1, 2, 3); }
  [data-payroll-link-modal]::part(close-button) { color: rgb(4, 5, 6); }
`;

/** Ways a page hides the element: on the element itself, or on an ancestor. */
const HIDINGS: Array<[string, (el: PayrollLink, ancestor: HTMLElement) => void]> = [
  ['the hidden attribute', (el) => (el.hidden = true)],
  ['a display: none ancestor', (_, ancestor) => ancestor.classList.add('gone')],
  ['a content-visibility: hidden ancestor', (_, ancestor) => ancestor.classList.add('skipped')],
];

const ownContainers = () => document.querySelectorAll('[data-payroll-link-modal]');

describe('a hidden <payroll-link>', () => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(PAGE_CSS);
  let trigger: HTMLButtonElement;

  beforeEach(() => {
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    trigger = document.createElement('button');
    trigger.textContent = 'My own button';
    document.body.append(trigger);
  });

  afterEach(() => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    trigger.remove();
    expect(deepQueryAll('iframe'), 'no frame outlives its test').to.have.length(0);
    expect(ownContainers()).to.have.length(0);
    expect(getComputedStyle(document.documentElement).overflow).to.not.equal('hidden');
  });

  async function themedElement(scenario: string) {
    const token = fakeTokenUrl('ok');
    const ancestor = await fixture<HTMLElement>(
      html`<div class="themed"><payroll-link token-url=${token.url} link-url=${await fakeLinkUrl(scenario)}></payroll-link></div>`,
    );
    return { el: ancestor.querySelector('payroll-link')!, ancestor };
  }

  for (const [how, hide] of HIDINGS) {
    it(`hidden by ${how}, opens its modal where it shows: in <body>, themed by its custom properties`, async () => {
      const { el, ancestor } = await themedElement('idle');
      hide(el, ancestor);
      trigger.focus();
      void el.show();
      await oneEvent(el, 'link-open');
      // Counts and booleans, not elements: a failing assertion on an element takes the test runner down.
      expect(el.shadowRoot!.querySelectorAll('dialog'), 'no dialog inside the hidden element').to.have.length(0);
      expect(ownContainers()).to.have.length(1);
      const dialog = ownContainers()[0].shadowRoot!.querySelector('dialog')!;
      expect(dialog.open).to.equal(true);
      expect(dialog.checkVisibility({ visibilityProperty: true })).to.equal(true);
      expect(dialog.querySelector('iframe')!.checkVisibility({ visibilityProperty: true })).to.equal(true);
      expect(getComputedStyle(dialog).width).to.equal('321px');
      expect(getComputedStyle(dialog).backgroundColor).to.equal('rgb(1, 2, 3)');
      // Parts are styled through the container, as the README says.
      expect(getComputedStyle(dialog.querySelector('[part="close-button"]')!).color).to.equal('rgb(4, 5, 6)');
      expect(ownContainers()[0].hasAttribute('style')).to.equal(false);
      const exit = oneEvent(el, 'link-exit');
      await sendKeys({ press: 'Escape' });
      expect((await exit).detail).to.deep.include({ reason: 'user_closed', error: null });
      expect(document.activeElement === trigger, "focus back on the page's own button").to.equal(true);
    });

    it(`hidden by ${how} while the modal shows, ends the session (closed_by_host, MODAL_HIDDEN) and frees the page`, async () => {
      const { el, ancestor } = await themedElement('login-then-wait');
      el.shadowRoot!.querySelector('button')!.click();
      await oneEvent(el, 'link-login');
      const exit = oneEvent(el, 'link-exit');
      hide(el, ancestor);
      const { detail } = await exit;
      expect(detail.reason).to.equal('closed_by_host');
      expect(detail.error).to.include({ type: 'clientError', code: 'MODAL_HIDDEN', pendingRetry: false });
      expect(detail.accountId).to.match(UUID);
      expect(deepQueryAll('dialog')).to.have.length(0);
      expect(el.open).to.equal(false);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelectorAll('[part="error"]'), 'the page hid it: not an error to show').to.have.length(0);
    });
  }

  it('hidden after the job succeeded, ends the session as completed, without an error', async () => {
    const { el } = await themedElement('success-then-wait');
    el.shadowRoot!.querySelector('button')!.click();
    await oneEvent(el, 'link-success');
    const exit = oneEvent(el, 'link-exit');
    el.hidden = true;
    expect((await exit).detail).to.deep.include({ reason: 'completed', error: null });
  });

  it('under visibility: hidden, keeps its modal in place, where it shows (a modal dialog is visibility: visible)', async () => {
    const { el, ancestor } = await themedElement('idle');
    ancestor.classList.add('unseen');
    trigger.focus();
    void el.show();
    await oneEvent(el, 'link-open');
    const dialog = el.shadowRoot!.querySelector('dialog')!;
    expect(dialog.querySelector('iframe')!.checkVisibility({ visibilityProperty: true })).to.equal(true);
    expect(ownContainers()).to.have.length(0);
    const exit = oneEvent(el, 'link-exit');
    el.close();
    await exit;
  });
});
