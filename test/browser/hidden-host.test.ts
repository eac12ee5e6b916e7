/**
 * The modal always opens in a container of its own at the end of `<body>`,
 * never inside the element: pages hide their buttons as readily as they show
 * them (`<payroll-link hidden>` opened by `show()` from the page's own button,
 * a dropdown menu that closes on click, a breakpoint, a Suspense fallback), and
 * that must not hide the flow. A modal the page does hide still blocks it
 * (inert, scroll locked): that session ends, reported like any other failure.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import { openLink, type PayrollLink } from '../../src/index.js';
import { UUID, afterRendering, deepQueryAll, fakeLinkUrl, fakeTokenUrl, modalRoot, recordEvents } from './helpers.js';

const PAGE_CSS = `
  .gone { display: none !important; }
  .skipped { content-visibility: hidden; }
  .unseen { visibility: hidden; }
  .themed { --payroll-link-modal-width: 321px; --payroll-link-modal-background: rgb(1, 2, 3); }
  .rethemed { --payroll-link-modal-width: 345px; }
  [data-payroll-link-modal]::part(close-button) { color: rgb(4, 5, 6); }
  .modal-hidden [data-payroll-link-modal] { display: none; }
`;

/** Ways a page hides the element: on the element itself, or on an ancestor. */
const HIDINGS: Array<[string, (el: PayrollLink, ancestor: HTMLElement) => void]> = [
  ['the hidden attribute', (el) => (el.hidden = true)],
  ['a display: none !important ancestor', (_, ancestor) => ancestor.classList.add('gone')],
  ['a content-visibility: hidden ancestor', (_, ancestor) => ancestor.classList.add('skipped')],
  ['a visibility: hidden ancestor', (_, ancestor) => ancestor.classList.add('unseen')],
];

const ownContainers = () => document.querySelectorAll('[data-payroll-link-modal]');
/** The page's CSS hides the modal's own container (what the element cannot protect against). */
const hideModal = (hidden: boolean) => document.body.classList.toggle('modal-hidden', hidden);

describe('the Link modal, always in <body>', () => {
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
    hideModal(false);
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

  /** The open modal's dialog, checked to be in <body>'s own container, shown and rendered. */
  function shownDialog(el: PayrollLink): HTMLDialogElement {
    // Counts and booleans, not elements: a failing assertion on an element takes the test runner down.
    expect(el.shadowRoot!.querySelectorAll('dialog'), 'no dialog inside the element').to.have.length(0);
    expect(ownContainers()).to.have.length(1);
    const dialog = modalRoot().querySelector('dialog')!;
    expect(dialog.open).to.equal(true);
    expect(dialog.checkVisibility({ visibilityProperty: true })).to.equal(true);
    expect(dialog.querySelector('iframe')!.checkVisibility({ visibilityProperty: true })).to.equal(true);
    return dialog;
  }

  it('opens its modal in <body>, themed by its custom properties, its parts styled through the container', async () => {
    const { el } = await themedElement('idle');
    el.shadowRoot!.querySelector('button')!.click();
    await oneEvent(el, 'link-open');
    const dialog = shownDialog(el);
    expect(getComputedStyle(dialog).width).to.equal('321px');
    expect(getComputedStyle(dialog).backgroundColor).to.equal('rgb(1, 2, 3)');
    expect(getComputedStyle(dialog.querySelector('[part="close-button"]')!).color).to.equal('rgb(4, 5, 6)');
    expect(ownContainers()[0].hasAttribute('style')).to.equal(false);
    await expect(ownContainers()[0]).to.be.accessible();
    const exit = oneEvent(el, 'link-exit');
    el.close();
    await exit;
  });

  it('copies the theme when the flow opens: a change reaches the next session, not the one on screen', async () => {
    const { el, ancestor } = await themedElement('idle');
    el.shadowRoot!.querySelector('button')!.click();
    await oneEvent(el, 'link-open');
    ancestor.classList.add('rethemed');
    expect(getComputedStyle(shownDialog(el)).width).to.equal('321px');
    let exit = oneEvent(el, 'link-exit');
    el.close();
    await exit;
    el.shadowRoot!.querySelector('button')!.click();
    await oneEvent(el, 'link-open');
    expect(getComputedStyle(shownDialog(el)).width).to.equal('345px');
    exit = oneEvent(el, 'link-exit');
    el.close();
    await exit;
  });

  for (const [how, hide] of HIDINGS) {
    it(`hidden by ${how}, opens from the page's own button (show()) and gives focus back to it`, async () => {
      const { el, ancestor } = await themedElement('idle');
      hide(el, ancestor);
      trigger.focus();
      void el.show();
      await oneEvent(el, 'link-open');
      expect(getComputedStyle(shownDialog(el)).width).to.equal('321px');
      const exit = oneEvent(el, 'link-exit');
      await sendKeys({ press: 'Escape' });
      expect((await exit).detail).to.deep.include({ reason: 'user_closed', error: null });
      expect(document.activeElement === trigger, "focus back on the page's own button").to.equal(true);
    });

    it(`hidden by ${how} while the modal shows (a menu closing after the click), keeps the session going`, async () => {
      const { el, ancestor } = await themedElement('login-then-wait');
      const events = recordEvents(el);
      el.shadowRoot!.querySelector('button')!.click();
      await oneEvent(el, 'link-login');
      hide(el, ancestor);
      await afterRendering();
      shownDialog(el);
      expect(el.open).to.equal(true);
      const exit = oneEvent(el, 'link-exit');
      (modalRoot().querySelector('[part="close-button"]') as HTMLButtonElement).click();
      const { detail } = await exit;
      events.stop();
      expect(events.types()).to.deep.equal(['link-open', 'link-login', 'link-exit']);
      expect(detail).to.deep.include({ reason: 'user_closed', error: null });
      expect(detail.accountId).to.match(UUID);
    });
  }

  it('ends the session when the page hides the modal itself: link-error (MODAL_HIDDEN), then link-exit (closed_by_host)', async () => {
    const { el } = await themedElement('login-then-wait');
    const events = recordEvents(el);
    const errors: unknown[] = [];
    el.onError = (error) => errors.push(error);
    el.shadowRoot!.querySelector('button')!.click();
    await oneEvent(el, 'link-login');
    const exit = oneEvent(el, 'link-exit');
    hideModal(true);
    const { detail } = await exit;
    events.stop();
    expect(events.types()).to.deep.equal(['link-open', 'link-login', 'link-error', 'link-exit']);
    const [error] = events.of('link-error');
    expect(error.detail).to.include({ type: 'clientError', code: 'MODAL_HIDDEN', pendingRetry: false });
    expect(errors).to.deep.equal([error.detail]);
    expect(detail).to.deep.equal({
      reason: 'closed_by_host',
      error: error.detail,
      linkTokenId: detail.linkTokenId,
      accountId: detail.accountId,
    });
    expect(detail.accountId).to.match(UUID);
    expect(deepQueryAll('dialog')).to.have.length(0);
    expect(el.open).to.equal(false);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelectorAll('[part="error"]'), 'the page hid it: not an error to show').to.have.length(0);
  });

  it('ends a session whose modal the page hides after the job succeeded as completed, without an error', async () => {
    const { el } = await themedElement('success-then-wait');
    const events = recordEvents(el);
    el.shadowRoot!.querySelector('button')!.click();
    await oneEvent(el, 'link-success');
    const exit = oneEvent(el, 'link-exit');
    hideModal(true);
    expect((await exit).detail).to.deep.include({ reason: 'completed', error: null });
    events.stop();
    expect(events.of('link-error')).to.have.length(0);
  });

  describe('without checkVisibility() (Safari before 17.4)', () => {
    const checkVisibility = Object.getOwnPropertyDescriptor(Element.prototype, 'checkVisibility')!;
    beforeEach(() => delete (Element.prototype as Partial<Element>).checkVisibility);
    afterEach(() => Object.defineProperty(Element.prototype, 'checkVisibility', checkVisibility));

    it('opens the flow from the element, hidden or not: never a stuck spinner', async () => {
      const { el } = await themedElement('idle');
      el.shadowRoot!.querySelector('button')!.click();
      await oneEvent(el, 'link-open');
      let exit = oneEvent(el, 'link-exit');
      el.close();
      expect((await exit).detail).to.deep.include({ reason: 'closed_by_host', error: null });
      el.hidden = true;
      trigger.focus();
      void el.show();
      await oneEvent(el, 'link-open');
      exit = oneEvent(el, 'link-exit');
      await sendKeys({ press: 'Escape' });
      expect((await exit).detail).to.deep.include({ reason: 'user_closed', error: null });
      expect(el.open).to.equal(false);
    });

    it('still ends a session whose modal the page hides (MODAL_HIDDEN), from its client rects', async () => {
      const box = document.createElement('div');
      document.body.append(box);
      try {
        const errors: unknown[] = [];
        const link = openLink({
          linkUrl: await fakeLinkUrl('idle'),
          tokenUrl: fakeTokenUrl('ok').url,
          container: box,
          onError: (e) => errors.push(e),
        });
        await link.ready;
        box.hidden = true;
        const exit = await link.closed;
        expect(exit.reason).to.equal('closed_by_host');
        expect(exit.error).to.include({ type: 'clientError', code: 'MODAL_HIDDEN' });
        expect(errors).to.deep.equal([exit.error]);
      } finally {
        box.remove();
      }
    });
  });
});
