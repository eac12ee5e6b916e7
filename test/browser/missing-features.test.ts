// #38: the element in a page without matchMedia, IntersectionObserver, ResizeObserver and requestIdleCallback
// (taken away before the element loads, by missing-features.ts): it renders, prefetches on intent, opens on a
// click, runs inline on show(), and nothing is thrown anywhere. The token endpoint and the Link page are the fakes
// of fake-servers.mjs (outside the widget).
import { MISSING_FEATURES, uncaught } from './missing-features.js';
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import type { PayrollLink } from '../../src/index.js';
import { afterRendering, deepQueryAll, fakeLinkUrl, fakeTokenUrl, modalRoot, untilCalls } from './helpers.js';

describe('without matchMedia, IntersectionObserver, ResizeObserver, requestIdleCallback', () => {
  before(() => {
    for (const name of MISSING_FEATURES) expect(name in window, `${name} is gone`).to.equal(false);
  });
  afterEach(() => {
    expect(uncaught, 'nothing thrown').to.deep.equal([]);
    expect(deepQueryAll('iframe'), 'no frame outlives its test').to.have.length(0);
  });

  it('renders its button, prefetches on a hover, and opens the modal on a click', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link prefetch token-url=${token.url} link-url=${await fakeLinkUrl('success')}></payroll-link>`,
    );
    const button = el.shadowRoot!.querySelector('button')!;
    expect(button.textContent!.trim()).to.equal('Connect payroll');
    button.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, composed: true }));
    await untilCalls(token, 1);
    const opened = oneEvent(el, 'link-open');
    const exited = oneEvent(el, 'link-exit');
    button.click();
    await opened;
    expect(modalRoot().querySelector('dialog')!.open, 'the modal shows').to.equal(true);
    expect((await exited).detail.reason).to.equal('completed');
    expect(await token.calls(), 'the click took the token fetched on hover').to.have.length(1);
  });

  it('inline, starts on show() only: nothing says it is seen', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link display="inline" token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`,
    );
    await afterRendering();
    expect(el.shadowRoot!.querySelector('.inline'), 'the box is rendered').to.not.equal(null);
    expect(await token.calls(), 'no token until show()').to.have.length(0);
    const opened = oneEvent(el, 'link-open');
    void el.show();
    await opened;
    expect(deepQueryAll('iframe', el.shadowRoot!)).to.have.length(1);
    el.remove();
  });
});
