/**
 * External windows (#27 part 1): the Link page asks over its port for a window (`open-url`); the widget checks
 * the URL, hands it to `onOpenUrl` or opens a popup with `noopener` semantics, and tells the Link page what came
 * of it. The Link page is the fake (outside the system under test); the popup blocker is the browser's own,
 * except where a test says it stands in for a blocker with a `window.open` that refuses.
 */
import { expect } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import { openLink, type LinkError, type LinkHandle } from '../../src/core/index.js';
import { engine } from './engine.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl } from './helpers.js';

/** What the fake Link page was told of its `open-url`: resolves with the first outcome it reports. */
function outcomeReported(): Promise<{ outcome: string; url: string }> {
  return new Promise((resolve) => {
    const listener = ({ data }: MessageEvent) => {
      if (data?.type !== 'fake-link:open-url-result') return;
      window.removeEventListener('message', listener);
      resolve(data);
    };
    window.addEventListener('message', listener);
  });
}

/** Records each `window.open` call and calls the browser's own, or (`refuse`) stands in for a blocker that refuses. */
function watchWindowOpen(refuse = false) {
  const real = window.open;
  const calls: unknown[][] = [];
  const opened: Window[] = [];
  window.open = (...args: Parameters<typeof window.open>) => {
    calls.push(args);
    const result = refuse ? null : real.apply(window, args);
    if (result) opened.push(result);
    return result;
  };
  return {
    calls,
    restore: () => {
      window.open = real;
      for (const popup of opened) popup.close();
    },
  };
}

async function session(open: string, extra: { onOpenUrl?: (url: string) => void; onClick?: boolean } = {}) {
  const errors: LinkError[] = [];
  const reported = outcomeReported();
  const query = `idle&open=${encodeURIComponent(open)}${extra.onClick ? '&on-click' : ''}`;
  let opened!: () => void;
  const linkOpen = new Promise<void>((resolve) => (opened = resolve));
  const link: LinkHandle = openLink({
    linkUrl: await fakeLinkUrl(query),
    tokenUrl: fakeTokenUrl('ok').url,
    onError: (error) => errors.push(error),
    onOpenUrl: extra.onOpenUrl,
    onOpen: () => opened(),
  });
  // Its `open` event, not `ready`: `ready` settles when the token is handed over, and the fake (in a process of its
  // own in Chromium) listens for a click only once it has taken that token, in the task that sends `open`. A click
  // sent at `ready` was lost on a loaded machine, and the test waited for an outcome that never came.
  await linkOpen;
  return { link, errors, reported };
}

describe('external windows (open-url)', () => {
  let watch: ReturnType<typeof watchWindowOpen>;
  afterEach(() => {
    watch.restore();
    expect(deepQueryAll('iframe')).to.have.length(0);
  });

  it('lets the frame open popups that escape its sandbox, still without top navigation', async () => {
    watch = watchWindowOpen();
    const link = openLink({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: fakeTokenUrl('ok').url });
    const frame = deepQueryAll('iframe')[0] as HTMLIFrameElement;
    const tokens = [...frame.sandbox];
    expect(tokens).to.include.members(['allow-popups', 'allow-popups-to-escape-sandbox', 'allow-scripts', 'allow-same-origin']);
    expect(tokens.filter((token) => token.startsWith('allow-top-navigation'))).to.deep.equal([]);
    link.close();
    await link.closed;
  });

  const refused: Array<[string, string]> = [
    ['plain http off loopback', 'http://login.example.com/oauth'],
    ['a user name and password', 'https://user:secret@login.example.com/oauth'],
    ['javascript:', 'javascript:alert(1)'],
    ['a relative URL', '/oauth/start'],
    ['the Link token', 'https://login.example.com/oauth?t={token}'],
    ['over 2,000 characters', 'https://login.example.com/{long}'],
  ];
  for (const [what, url] of refused) {
    it(`refuses a URL with ${what}: a typed, non-terminal error, nothing opened, the Link page told`, async () => {
      watch = watchWindowOpen();
      const hooked: string[] = [];
      const { link, errors, reported } = await session(url, { onOpenUrl: (given) => hooked.push(given) });
      expect(await reported).to.include({ outcome: 'refused' });
      expect(errors).to.have.length(1);
      expect(errors[0]).to.include({ type: 'systemError', code: 'OPEN_URL_REFUSED', pendingRetry: true });
      expect(hooked).to.deep.equal([]);
      expect(watch.calls).to.deep.equal([]);
      // The session goes on: a refused window is not the end of the flow.
      link.close();
      expect((await link.closed).reason).to.equal('closed_by_host');
    });
  }

  it('hands a good URL to onOpenUrl, and opens no popup of its own', async () => {
    watch = watchWindowOpen();
    const hooked: string[] = [];
    const { link, errors, reported } = await session('https://login.example.com/oauth?state=abc', { onOpenUrl: (url) => hooked.push(url) });
    expect(await reported).to.deep.include({ outcome: 'opened', url: 'https://login.example.com/oauth?state=abc' });
    expect(hooked).to.deep.equal(['https://login.example.com/oauth?state=abc']);
    expect(watch.calls).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    link.close();
    await link.closed;
  });

  it('reports a blocked popup as POPUP_BLOCKED, and tells the Link page, which offers its own button', async () => {
    // A stand-in for the browser's blocker: window.open answers null, as it does when a popup is refused.
    watch = watchWindowOpen(true);
    const { link, errors, reported } = await session('https://login.example.com/oauth');
    expect(await reported).to.include({ outcome: 'blocked' });
    expect(watch.calls).to.have.length(1);
    expect(errors.map((error) => [error.code, error.type, error.pendingRetry])).to.deep.equal([['POPUP_BLOCKED', 'clientError', true]]);
    link.close();
    expect((await link.closed).reason).to.equal('closed_by_host');
  });

  it('opens the popup within the gesture of a click inside the frame, where the browser carries it to the page', async () => {
    watch = watchWindowOpen();
    // A page of the Link origin that does nothing: a window that loads quietly, closed by the test.
    const target = await fakeLinkUrl('silent');
    const { link, errors, reported } = await session(target, { onClick: true });
    const frame = deepQueryAll('iframe')[0] as HTMLIFrameElement;
    const box = frame.getBoundingClientRect();
    await sendMouse({ type: 'click', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
    await resetMouse();
    const { outcome } = await reported;
    // The popup itself: a blank window first (so its opener can be cut), then sent to the URL.
    expect(watch.calls).to.deep.equal([['', '_blank']]);
    // Chromium and Firefox give the page the frame's activation (HTML's activation notification reaches ancestors).
    // WebKit does not carry it over the message: blocked, and the Link page's own button is the way on.
    if (engine === 'webkit') expect([outcome, errors.map((e) => e.code)]).to.deep.equal(['blocked', ['POPUP_BLOCKED']]);
    else expect([outcome, errors]).to.deep.equal(['opened', []]);
    link.close();
    await link.closed;
  });
});
