/**
 * A close that can ask first (#27 part 2): Escape, the close control and `requestClose()` send the Link flow a
 * close request; it ends, or asks its user first and the session waits; a flow that does not answer within the
 * bound is ended anyway; `close()` still ends at once. The Link page is the fake (outside the system under test).
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { openLink } from '../../src/core/index.js';
import '../../src/index.js';
import type { PayrollLink } from '../../src/index.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl, modalRoot } from './helpers.js';

/** Resolves when the fake Link page tells the host window `type` (its close request seen, its confirmation shown). */
function fakeSays(type: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = ({ data }: MessageEvent) => {
      if (data?.type !== type) return;
      window.removeEventListener('message', listener);
      resolve();
    };
    window.addEventListener('message', listener);
  });
}

/** Tells the fake Link page (the session's frame) what its user chose. */
const answer = (choice: 'leave' | 'stay') =>
  (deepQueryAll('iframe')[0] as HTMLIFrameElement).contentWindow!.postMessage({ type: `fake-link:${choice}` }, '*');

async function openElement(query: string) {
  const el = await fixture<PayrollLink>(
    html`<payroll-link token-url=${fakeTokenUrl('ok').url} link-url=${await fakeLinkUrl(query)}></payroll-link>`,
  );
  const opened = oneEvent(el, 'link-open');
  // A real click, as the user's: a browser fires a cancelable `cancel` on Escape only after a user activation
  // (without one, Chromium and Firefox close the dialog themselves, and the session ends at once: nothing to ask in).
  const box = el.shadowRoot!.querySelector('button')!.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
  await resetMouse();
  await opened;
  return el;
}

/**
 * Records the timers `act` sets, calling the browser's own (the bound is a timer), and resolves `cleared(id)`
 * when that timer is cleared: a test waits for the clearing itself, never for time.
 */
function watchTimers(act: () => void) {
  const [set, clear] = [window.setTimeout, window.clearTimeout];
  const started: unknown[] = [];
  const waiting = new Map<unknown, () => void>();
  window.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    const id = set(...args);
    started.push(id);
    return id;
  }) as typeof setTimeout;
  try {
    act();
  } finally {
    window.setTimeout = set;
  }
  window.clearTimeout = ((id?: number) => {
    waiting.get(id)?.();
    clear(id);
  }) as typeof clearTimeout;
  return {
    started,
    cleared: (id: unknown) => new Promise<void>((resolve) => waiting.set(id, resolve)),
    restore: () => (window.clearTimeout = clear),
  };
}

describe('requestClose(): a close that can ask first', () => {
  afterEach(() => {
    expect(deepQueryAll('iframe')).to.have.length(0);
  });

  it('Escape asks the flow, which ends the session as user_closed', async () => {
    const el = await openElement('idle');
    const asked = fakeSays('fake-link:close-requested');
    const exit = oneEvent(el, 'link-exit');
    await sendKeys({ press: 'Escape' });
    await asked;
    expect((await exit).detail).to.deep.include({ reason: 'user_closed', error: null });
  });

  it('the close control asks the flow too', async () => {
    const el = await openElement('idle');
    const asked = fakeSays('fake-link:close-requested');
    const exit = oneEvent(el, 'link-exit');
    modalRoot().querySelector<HTMLButtonElement>('[part="close-button"]')!.click();
    await asked;
    expect((await exit).detail.reason).to.equal('user_closed');
  });

  it('waits while the flow asks its user (no bound on a person), goes on when they stay, ends when they leave', async () => {
    const el = await openElement('idle&close=confirm');
    const confirming = fakeSays('fake-link:confirming');
    const timers = watchTimers(() => el.requestClose());
    try {
      // The bound started with the request, and the flow's `confirming` stops it.
      expect(timers.started).to.have.length(1);
      await Promise.all([confirming, timers.cleared(timers.started[0])]);
      const stayed = fakeSays('fake-link:close-requested');
      answer('stay');
      // The user stayed: the session runs on, and a second request reaches the flow again.
      el.requestClose();
      await stayed;
      expect(el.open).to.equal(true);
      await fakeSays('fake-link:confirming');
    } finally {
      timers.restore();
    }
    const exit = oneEvent(el, 'link-exit');
    answer('leave');
    expect((await exit).detail).to.deep.include({ reason: 'user_closed', error: null });
  });

  it('ends a flow that does not answer within the bound: closed_by_host from requestClose(), user_closed from Escape', async () => {
    const deaf = await fakeLinkUrl('idle&close=deaf');
    const link = openLink({ linkUrl: deaf, tokenUrl: fakeTokenUrl('ok').url, closeRequestTimeoutMs: 0 });
    await link.ready;
    // (Whether the request itself reached the fake is not asked: ending the session closes the port, and a browser
    // may drop a message still in flight on a closed port.)
    link.requestClose();
    expect(await link.closed).to.deep.include({ reason: 'closed_by_host', error: null });

    const byUser = openLink({ linkUrl: deaf, tokenUrl: fakeTokenUrl('ok').url, closeRequestTimeoutMs: 0 });
    await byUser.ready;
    modalRoot().querySelector<HTMLButtonElement>('[part="close-button"]')!.click();
    expect((await byUser.closed).reason).to.equal('user_closed');
  });

  it('close() still ends at once, even a flow that would ask its user', async () => {
    const el = await openElement('idle&close=confirm');
    const exit = oneEvent(el, 'link-exit');
    el.close();
    // Synchronously: nothing was asked, the modal is gone.
    expect(document.querySelector('[data-payroll-link-modal]')).to.equal(null);
    expect((await exit).detail.reason).to.equal('closed_by_host');
  });

  it('ends at once when no flow holds the port yet (the token not handed over)', async () => {
    const link = openLink({ linkUrl: await fakeLinkUrl('idle&close=confirm'), token: new Promise(() => {}) });
    link.requestClose();
    expect(document.querySelector('[data-payroll-link-modal]')).to.equal(null);
    expect((await link.closed).reason).to.equal('closed_by_host');
  });
});
