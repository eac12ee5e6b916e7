/**
 * A close that can ask first (#27 part 2): Escape, the close control and `requestClose()` send the Link flow a
 * close request; it ends, or asks its user first and the session waits; a flow that does not answer within the
 * bound is ended anyway; `close()` still ends at once. The Link page is the fake (outside the system under test).
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { openLink, type LinkHandle } from '../../src/core/index.js';
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

/** A real click at the middle of `target`, as the user's. */
async function clickAsUser(target: Element) {
  const box = target.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
  await resetMouse();
}

/**
 * The fake flow opened by `openLink()` from a real click, as a user opens it: a browser fires a cancelable `cancel`
 * on Escape only after a user activation (without one, Chromium and Firefox close the dialog themselves, and the
 * session ends at once: nothing to ask in). The close request's bound is longer than any test, so these tests see
 * the flow's answer however loaded the machine: with the default 2 s, a frame starved of CPU in CI answered too
 * late once, and the session, rightly, ended without it (the bound itself is tested below, with a deaf flow).
 * `asked` settles when the flow says, over the session's own port, that a close request reached it: ordered before
 * its answer, where the fake's window message (`fakeSays`) may be dropped once that answer has removed its frame.
 */
async function openByClick(query: string): Promise<{ link: LinkHandle; asked: Promise<void> }> {
  const linkUrl = await fakeLinkUrl(query);
  const button = await fixture<HTMLButtonElement>(html`<button>Connect</button>`);
  let heard!: () => void;
  const asked = new Promise<void>((resolve) => (heard = resolve));
  const onEvent = ({ name, payload }: { name: string; payload: unknown }) => {
    if (name === 'screen_transition' && (payload as { screenName?: unknown }).screenName === 'close-requested') heard();
  };
  const opened = new Promise<LinkHandle>((resolve) =>
    button.addEventListener(
      'click',
      () => resolve(openLink({ linkUrl, tokenUrl: fakeTokenUrl('ok').url, closeRequestTimeoutMs: 10 * 60_000, onEvent })),
      { once: true },
    ),
  );
  await clickAsUser(button);
  const link = await opened;
  await link.ready;
  return { link, asked };
}

async function openElement(query: string) {
  const el = await fixture<PayrollLink>(
    html`<payroll-link token-url=${fakeTokenUrl('ok').url} link-url=${await fakeLinkUrl(query)}></payroll-link>`,
  );
  const opened = oneEvent(el, 'link-open');
  await clickAsUser(el.shadowRoot!.querySelector('button')!);
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
    const { link, asked } = await openByClick('idle');
    await sendKeys({ press: 'Escape' });
    await asked;
    expect(await link.closed).to.deep.include({ reason: 'user_closed', error: null });
  });

  it('the close control asks the flow too', async () => {
    const { link, asked } = await openByClick('idle');
    modalRoot().querySelector<HTMLButtonElement>('[part="close-button"]')!.click();
    await asked;
    expect((await link.closed).reason).to.equal('user_closed');
  });

  it('waits while the flow asks its user (no bound on a person), goes on when they stay, ends when they leave', async () => {
    const { link } = await openByClick('idle&close=confirm');
    const confirming = fakeSays('fake-link:confirming');
    const timers = watchTimers(() => link.requestClose());
    try {
      // The bound started with the request, and the flow's `confirming` stops it.
      expect(timers.started).to.have.length(1);
      await Promise.all([confirming, timers.cleared(timers.started[0])]);
      const stayed = fakeSays('fake-link:close-requested');
      answer('stay');
      // The user stayed: the session runs on, and a second request reaches the flow again.
      link.requestClose();
      await stayed;
      expect(document.querySelector('[data-payroll-link-modal]'), 'the flow still shows').to.not.equal(null);
      await fakeSays('fake-link:confirming');
    } finally {
      timers.restore();
    }
    answer('leave');
    expect(await link.closed).to.deep.include({ reason: 'user_closed', error: null });
  });

  it("the element's requestClose() asks rather than ends: the modal stays until the flow answers or the bound ends it", async () => {
    // A deaf flow, so the default bound (2 s) always ends it, whatever the machine's load.
    const el = await openElement('idle&close=deaf');
    const exit = oneEvent(el, 'link-exit');
    el.requestClose();
    expect(document.querySelector('[data-payroll-link-modal]'), 'not closed at once, as close() does').to.not.equal(null);
    expect(el.open).to.equal(true);
    expect((await exit).detail).to.deep.include({ reason: 'closed_by_host', error: null });
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
