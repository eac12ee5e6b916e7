// An app's own unit test of a page that renders <payroll-link>, as its developers would write it, run by Vitest
// (jsdom: Angular's `ng test`; happy-dom) and by Jest (jsdom): the same file, with the globals both runners give
// (describe, it, expect). jsdom has no matchMedia, IntersectionObserver, ResizeObserver, requestIdleCallback,
// <dialog>.showModal() or adopted stylesheets: the element must render, take a click and never throw.
/* global afterEach, describe, expect, it -- given by both runners (Vitest's `globals: true`, Jest's own) */
import 'payroll-link';

/** Renders `markup` in the page and waits for the element's first render. */
async function mount(markup) {
  document.body.innerHTML = markup;
  const element = document.querySelector('payroll-link');
  await element.updateComplete;
  return element;
}

/** The next `type` event on `target`. */
const next = (target, type) => new Promise((resolve) => target.addEventListener(type, resolve, { once: true }));

afterEach(() => {
  document.body.innerHTML = '';
});

describe('a page with <payroll-link>', () => {
  it('renders the button of an element with prefetch, takes a hover and a click, and ends its session without throwing', async () => {
    const element = await mount(
      '<payroll-link prefetch token-url="/api/link-token" link-url="https://link.example.com/link"></payroll-link>',
    );
    // No request leaves a unit test: the token comes from a stand-in (token-url stays the app's own).
    element.fetchToken = async () => 'a-token';
    const button = element.shadowRoot.querySelector('button');
    expect(button.textContent.trim()).toBe('Connect payroll');
    button.dispatchEvent(new Event('pointermove', { bubbles: true, composed: true }));
    const exit = next(element, 'link-exit');
    button.click();
    expect(element.open).toBe(true);
    // jsdom cannot show a modal dialog: the session ends by itself, with the documented error, not an exception.
    // happy-dom can, and its Link page would never load in a test's DOM: the page closes it.
    const canShowModal = typeof HTMLDialogElement.prototype.showModal === 'function';
    if (canShowModal) element.close();
    const { detail } = await exit;
    expect(detail.reason).toBe(canShowModal ? 'closed_by_host' : 'error');
    if (!canShowModal) expect(detail.error.code).toBe('MODAL_UNAVAILABLE');
    expect(element.open).toBe(false);
  });

  it('renders an inline element, which waits for show() where nothing says it is seen', async () => {
    const fetched = [];
    const element = await mount('<payroll-link display="inline" link-url="https://link.example.com/link"></payroll-link>');
    element.fetchToken = async () => {
      fetched.push('token');
      return 'a-token';
    };
    await element.updateComplete;
    expect(element.shadowRoot.querySelector('[part="inline"]')).not.toBeNull();
    if (typeof IntersectionObserver === 'undefined') expect(fetched).toEqual([]);
    element.remove();
  });
});
