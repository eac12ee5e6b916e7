/**
 * A "Connect payroll" button often sits in the page's own modal: a settings
 * dialog, a dialog library's (Radix, React Aria). Those make everything
 * outside their dialog unclickable (`body { pointer-events: none }`), close on
 * a pointer-down outside it, or hide what is outside it from assistive
 * technology. The Link modal's container goes inside the page's open modal,
 * and takes pointer events whatever `<body>` says. The dialog libraries are
 * outside the widget: each is faked here by the one behaviour that matters.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import '../../src/index.js';
import type { PayrollLink } from '../../src/index.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl, modalRoot } from './helpers.js';

const ownContainers = () => document.querySelectorAll('[data-payroll-link-modal]');

/** Opens the element's flow with its own button and waits until the Link frame is showing. */
async function openFlow(el: PayrollLink): Promise<void> {
  const opened = oneEvent(el, 'link-open');
  el.shadowRoot!.querySelector('button')!.click();
  await opened;
}

/** Closes the flow with a real mouse click on the modal's close control, as a user would. */
async function clickClose(el: PayrollLink): Promise<string> {
  const close = modalRoot().querySelector<HTMLElement>('.close')!;
  const box = close.getBoundingClientRect();
  const exited = oneEvent(el, 'link-exit');
  await sendMouse({ type: 'click', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
  return (await exited).detail.reason;
}

async function linkElementIn(wrapper: (inner: unknown) => unknown) {
  const link = html`<payroll-link token-url=${fakeTokenUrl('ok').url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`;
  const root = await fixture<HTMLElement>(html`<div>${wrapper(link)}</div>`);
  return { root, el: root.querySelector('payroll-link')! };
}

describe('the Link modal and the page’s own modal', () => {
  afterEach(() => {
    expect(deepQueryAll('iframe'), 'no frame outlives its test').to.have.length(0);
    expect(ownContainers()).to.have.length(0);
  });

  it('goes inside a modal <dialog> the element sits in, and closes with a click', async () => {
    const { root, el } = await linkElementIn((link) => html`<dialog>${link}</dialog>`);
    const pageDialog = root.querySelector('dialog')!;
    pageDialog.showModal();
    try {
      await openFlow(el);
      expect(ownContainers()).to.have.length(1);
      expect(ownContainers()[0]!.parentElement === pageDialog, 'the container is in the page’s dialog').to.equal(true);
      expect(await clickClose(el)).to.equal('user_closed');
    } finally {
      pageDialog.close();
    }
  });

  it('goes inside an aria-modal element (a dialog library’s) the element sits in', async () => {
    const { root, el } = await linkElementIn((link) => html`<div role="dialog" aria-modal="true">${link}</div>`);
    await openFlow(el);
    expect(ownContainers()[0]!.parentElement === root.querySelector('[aria-modal]'), 'the container is in the library’s dialog').to.equal(
      true,
    );
    expect(ownContainers()[0]!.hasAttribute('data-react-aria-top-layer')).to.equal(true);
    el.close();
  });

  it('stays at the end of <body> without an open modal around it: a closed <dialog> is not one', async () => {
    const { el } = await linkElementIn((link) => html`<dialog open>${link}</dialog>`);
    await openFlow(el);
    expect(ownContainers()[0]!.parentElement === document.body).to.equal(true);
    el.close();
  });

  it('takes clicks while a menu or dialog of the page has set pointer-events: none on <body>', async () => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('body { pointer-events: none; }');
    const { el } = await linkElementIn((link) => link);
    await openFlow(el);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    try {
      expect(getComputedStyle(modalRoot().querySelector('.close')!).pointerEvents).to.equal('auto');
      expect(await clickClose(el)).to.equal('user_closed');
    } finally {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    }
  });
});
