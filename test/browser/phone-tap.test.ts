/**
 * A phone's tap (issue #28): without hover, the session's code loads when the element is first seen, and the
 * tap's press starts the token and the frame together; a desktop page loads nothing before intent. This file's
 * page has not loaded the session code before it starts (web-test-runner opens a page per test file), and its
 * tests run in order: the code loads once per page.
 *
 * No test runner emulates `(hover: none)` in every engine, so the page's `matchMedia` answers that query as the
 * test says (the device is outside the system; any other query goes to the browser); the benchmark
 * (bench/phone-tap.ts) checks the real media query in a Chromium touch context. The token endpoint and the Link page are the fakes of fake-servers.mjs (outside the system).
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import type { PayrollLink } from '../../src/index.js';
import { loadSessionCode } from '../../src/element/load-session.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl, untilCalls } from './helpers.js';

const frames = () => deepQueryAll('iframe') as HTMLIFrameElement[];
const isSessionCode = (name: string) => /\/session-code\.(js|ts)\b/.test(name);
const sessionCodeRequested = () => performance.getEntriesByType('resource').some((entry) => isSessionCode(entry.name));

/** Resolves when the session code's request has completed (its resource timing entry is recorded). */
function untilSessionCode(): Promise<void> {
  return new Promise((resolve) => {
    const observer = new PerformanceObserver(() => {
      if (!sessionCodeRequested()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'resource', buffered: true });
  });
}

/**
 * Resolves once `element` has been seen and the page has been idle after that: the element's own observer
 * (created first) is told first, and its idle-time callback runs before the one this queues after it.
 */
function untilSeenAndIdle(element: Element): Promise<void> {
  return new Promise((resolve) => {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      (window.requestIdleCallback ?? setTimeout)(() => resolve());
    });
    observer.observe(element);
  });
}

const realMatchMedia = window.matchMedia;

/** Makes the page a device with hover (a desktop) or without (a phone), as `matchMedia('(hover: none)')` says. */
function device(noHover: boolean): void {
  window.matchMedia = (query) =>
    query === '(hover: none)' ? ({ matches: noHover } as MediaQueryList) : realMatchMedia.call(window, query);
}

describe('a tap on a phone', () => {
  afterEach(() => {
    window.matchMedia = realMatchMedia;
  });

  it('on a desktop, or for an element gone before it was seen, nothing loads before intent', async () => {
    const linkUrl = await fakeLinkUrl('idle');
    device(true);
    const gone = document.createElement('payroll-link');
    document.body.append(gone);
    gone.remove();
    device(false);
    const token = fakeTokenUrl('ok');
    const desktop = await fixture<PayrollLink>(html`<payroll-link prefetch token-url=${token.url} link-url=${linkUrl}></payroll-link>`);
    await untilSeenAndIdle(desktop);
    expect(sessionCodeRequested(), 'no session code before intent').to.equal(false);
    expect(frames()).to.have.length(0);
    expect(await token.calls()).to.have.length(0);
  });

  it('loads the code when the element is seen, and starts the token and the frame at the press, before the click', async () => {
    device(true);
    const token = fakeTokenUrl('ok');
    const element = await fixture<PayrollLink>(
      html`<payroll-link prefetch token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`,
    );

    // 1. Seen: the code, and nothing that costs (no token, no frame). Requested on its own (the entry), then
    // awaited as the element's load (the same promise: it loads nothing more): evaluated, not only fetched.
    await untilSessionCode();
    await loadSessionCode();
    expect(frames(), 'no frame before the tap').to.have.length(0);
    expect(await token.calls(), 'no token before the tap').to.have.length(0);

    // 2. The tap's press: the frame at once (the code is here), and the token's fetch.
    const button = element.shadowRoot!.querySelector('button')!;
    button.dispatchEvent(new PointerEvent('pointerdown', { pointerType: 'touch', bubbles: true, composed: true }));
    const built = frames();
    expect(built, 'the frame starts at the press').to.have.length(1);
    await untilCalls(token, 1);

    // 3. The click: the frame and the token of the press, nothing more.
    const opened = oneEvent(element, 'link-open');
    button.click();
    await opened;
    expect(frames(), 'the frame built at the press, shown').to.deep.equal(built);
    expect(await token.calls(), 'one token per tap').to.have.length(1);
    const closed = oneEvent(element, 'link-exit');
    element.close();
    await closed;
  });
});
