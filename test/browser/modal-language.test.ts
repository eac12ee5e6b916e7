/**
 * 3.1.2 Language of Parts (issue 49): the modal's container sits at the end of `<body>`, maybe far from the element,
 * so it carries the element's language (`lang`, the one the session speaks) and its `dir` when one is set: a
 * Spanish part of an English page gets a dialog a screen reader reads in Spanish.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import type { PayrollLink } from '../../src/index.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl, modalRoot } from './helpers.js';

const container = () => document.querySelector('[data-payroll-link-modal]')!;

async function openIn(wrapper: HTMLElement) {
  const el = wrapper.querySelector('payroll-link') as PayrollLink;
  const opened = oneEvent(el, 'link-open');
  void el.show();
  await opened;
  return el;
}

describe("the modal's container carries the element's language and direction", () => {
  const pageLang = document.documentElement.lang;
  before(() => (document.documentElement.lang = 'en'));
  after(() => (document.documentElement.lang = pageLang));
  afterEach(() => expect(deepQueryAll('iframe')).to.have.length(0));

  it('an element inside <div lang="es"> on an English page: the container says es, and the dialog is named in Spanish', async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div lang="es"><payroll-link token-url=${fakeTokenUrl().url} link-url=${await fakeLinkUrl('idle')}></payroll-link></div>`,
    );
    const el = await openIn(wrapper);
    expect(container().getAttribute('lang')).to.equal('es');
    expect(container().getAttribute('dir'), "no dir set anywhere: the page's").to.equal('ltr');
    expect(modalRoot().querySelector('dialog')!.getAttribute('aria-label')).to.equal('Conecta tu cuenta de nómina');
    el.close();
  });

  it("the nearest dir, across a shadow root, goes with it; the page's own language when nothing nearer says", async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div dir="rtl"><div class="host"></div></div>`);
    // The element inside another component's shadow root, as in a design system's card.
    const root = wrapper.querySelector('.host')!.attachShadow({ mode: 'open' });
    const el = document.createElement('payroll-link');
    el.tokenUrl = fakeTokenUrl().url;
    el.linkUrl = await fakeLinkUrl('idle');
    root.append(el);
    const opened = oneEvent(el, 'link-open');
    void el.show();
    await opened;
    expect(container().getAttribute('dir')).to.equal('rtl');
    expect(container().getAttribute('lang')).to.equal('en');
    expect(modalRoot().querySelector('dialog')!.getAttribute('aria-label')).to.equal('Connect your payroll account');
    el.close();
  });
});
