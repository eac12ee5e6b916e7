import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import { openLink, prepareLink, type PayrollLink } from '../../src/index.js';
import { loadSessionCode } from '../../src/element/load-session.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl, recordEvents, untilCalls } from './helpers.js';

const frames = () => deepQueryAll('iframe') as HTMLIFrameElement[];

/** Resolves when `frame` posts a message of `type` to this window (listen before it can have been sent). */
function untilMessage(frame: HTMLIFrameElement, type: string): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow || event.data?.type !== type) return;
      window.removeEventListener('message', onMessage);
      resolve();
    };
    window.addEventListener('message', onMessage);
  });
}

/** Resolves when `frame`'s Link page says it is ready (listen before it can have loaded). */
const untilReady = (frame: HTMLIFrameElement) => untilMessage(frame, 'payroll-link:ready');

/** Counts the tokens that reached a fake Link page opened with `&report-init`. */
function inits() {
  let count = 0;
  const onMessage = (event: MessageEvent) => {
    if (event.data?.type === 'fake-link:init-received') count++;
  };
  window.addEventListener('message', onMessage);
  return {
    get count() {
      return count;
    },
    stop: () => window.removeEventListener('message', onMessage),
  };
}

/**
 * Resolves once the fake Link page (`&report-init`) has handled every message this window sent it so far: it
 * handles them in order, so its answer to a ping comes after its report of any token sent before the ping.
 */
function allHandled(frame: HTMLIFrameElement): Promise<void> {
  const pong = untilMessage(frame, 'fake-link:pong');
  frame.contentWindow!.postMessage({ type: 'fake-link:ping' }, '*');
  return pong;
}

/** The one frame built ahead: closed in its dialog, so not rendered, not focusable, not in the accessibility tree. */
function hiddenFrame(): HTMLIFrameElement {
  const built = frames();
  expect(built, 'one frame built ahead').to.have.length(1);
  const dialog = built[0].closest('dialog')!;
  expect(dialog.open).to.equal(false);
  expect(built[0].checkVisibility()).to.equal(false);
  return built[0];
}

describe('Instant open: the Link frame built on intent', () => {
  // The frame is built at the first sign of intent once the session's code is here; a page's first hover also
  // loads that code, and builds the frame when it arrives (test/browser/session-code.test.ts).
  before(() => loadSessionCode());
  afterEach(() => expect(frames(), 'no frame outlives its test').to.have.length(0));

  it('builds the frame hidden on hover; the click shows that same frame and hands the token over only then', async () => {
    const token = fakeTokenUrl('ok');
    const linkUrl = `${await fakeLinkUrl('idle')}&report-init`;
    const el = await fixture<PayrollLink>(html`<payroll-link prefetch token-url=${token.url} link-url=${linkUrl}></payroll-link>`);
    expect(frames(), 'nothing is built on load').to.have.length(0);
    const tokensReceived = inits();
    const events = recordEvents(el);
    el.dispatchEvent(new PointerEvent('pointermove'));
    const frame = hiddenFrame();
    await untilReady(frame);
    await untilCalls(token, 1);
    // More hints build nothing more: one frame built ahead per element.
    el.dispatchEvent(new PointerEvent('pointermove'));
    expect(hiddenFrame()).to.equal(frame);
    expect(events.seen, 'no token handed over before the click').to.have.length(0);
    await allHandled(frame);
    expect(tokensReceived.count, 'the frame built ahead got no token before the click').to.equal(0);
    const opened = oneEvent(el, 'link-open');
    const received = oneEvent(el, 'link-event');
    el.shadowRoot!.querySelector('button')!.click();
    const { detail } = await opened;
    // The fake Link page reports the token it received.
    const { name, payload } = (await received).detail;
    expect(name).to.equal('open');
    expect((payload as { token: string }).token.startsWith(`tok.${detail.linkTokenId}`)).to.equal(true);
    expect(frames(), 'the frame built ahead, not a new one').to.deep.equal([frame]);
    expect(frame.closest('dialog')!.open).to.equal(true);
    expect(await token.calls()).to.have.length(1);
    await allHandled(frame);
    expect(tokensReceived.count, "one token in the frame, the click's").to.equal(1);
    tokensReceived.stop();
    events.stop();
    const exit = oneEvent(el, 'link-exit');
    el.close();
    await exit;
  });

  it('fires link-ready and onReady once the frame built ahead has loaded, before any click, once', async () => {
    const token = fakeTokenUrl('ok');
    const linkUrl = await fakeLinkUrl('idle');
    const el = await fixture<PayrollLink>(html`<payroll-link prefetch token-url=${token.url} link-url=${linkUrl}></payroll-link>`);
    const heard: string[] = [];
    el.onReady = ({ linkUrl: url }) => heard.push(`onReady:${url}`);
    const ready = oneEvent(el, 'link-ready');
    el.dispatchEvent(new PointerEvent('pointermove'));
    const frame = hiddenFrame();
    const { detail } = await ready;
    expect(detail.linkUrl).to.equal(frame.src);
    expect(heard).to.deep.equal([`onReady:${frame.src}`]);
    // A second hint reuses the frame: nothing more to say.
    el.dispatchEvent(new PointerEvent('pointermove'));
    expect(hiddenFrame()).to.equal(frame);
    const opened = oneEvent(el, 'link-open');
    el.shadowRoot!.querySelector('button')!.click();
    await opened;
    expect(heard, 'ready once, never again at the click').to.have.length(1);
    const exit = oneEvent(el, 'link-exit');
    el.close();
    await exit;
  });

  it('fires no link-ready for a flow built at the click (no prefetch)', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`);
    let readies = 0;
    el.addEventListener('link-ready', () => readies++);
    const opened = oneEvent(el, 'link-open');
    el.shadowRoot!.querySelector('button')!.click();
    await opened;
    const exit = oneEvent(el, 'link-exit');
    el.close();
    await exit;
    expect(readies).to.equal(0);
  });

  it('builds the frame on connect with prefetch="load"', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link prefetch="load" token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`,
    );
    hiddenFrame();
    el.remove();
  });

  it('tears the frame built ahead down when link-url or the token source changes, and with the element', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link prefetch token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`,
    );
    const changes: Array<() => void> = [
      () => (el.linkUrl = `${el.linkUrl}&again`),
      () => (el.endUserId = 'someone-else'),
      () => (el.tokenUrl = fakeTokenUrl('ok').url),
      () => (el.fetchToken = async () => `tok.${crypto.randomUUID()}`),
      () => (el.prefetch = false),
    ];
    for (const change of changes) {
      el.prefetch = true;
      await el.updateComplete;
      el.dispatchEvent(new PointerEvent('pointermove'));
      hiddenFrame();
      change();
      await el.updateComplete;
      expect(frames(), String(change)).to.have.length(0);
    }
    el.prefetch = true;
    el.dispatchEvent(new PointerEvent('pointermove'));
    hiddenFrame();
    el.remove();
    expect(frames()).to.have.length(0);
    expect(document.querySelectorAll('[data-payroll-link-modal]')).to.have.length(0);
  });
});

describe('prepareLink()', () => {
  afterEach(() => expect(frames(), 'no frame outlives its test').to.have.length(0));

  it('loads the Link page and fetches the token ahead; open() only shows it and hands the token over', async () => {
    const token = fakeTokenUrl('ok');
    const heard: string[] = [];
    const prepared = prepareLink({
      linkUrl: await fakeLinkUrl('success'),
      tokenUrl: token.url,
      onOpen: () => heard.push('open'),
      onSuccess: () => heard.push('success'),
    });
    const frame = hiddenFrame();
    await untilReady(frame);
    await untilCalls(token, 1);
    expect(heard).to.deep.equal([]);
    const link = prepared.open({ onExit: ({ reason }) => heard.push(`exit:${reason}`) });
    expect(prepared.open(), 'one session per preparation').to.equal(link);
    expect((await link.closed).reason).to.equal('completed');
    expect(heard).to.deep.equal(['open', 'success', 'exit:completed']);
    expect(await token.calls()).to.have.length(1);
  });

  it('calls onReady once the Link page loaded hidden, before open(), and never for openLink()', async () => {
    const linkUrl = await fakeLinkUrl('idle');
    const heard: string[] = [];
    let onReadyDone!: () => void;
    const readyHeard = new Promise<void>((resolve) => (onReadyDone = resolve));
    const prepared = prepareLink({
      linkUrl,
      tokenUrl: fakeTokenUrl('ok').url,
      onReady: ({ linkUrl: url }) => {
        heard.push(`ready:${url}`);
        onReadyDone();
      },
      onOpen: () => heard.push('open'),
    });
    const frame = hiddenFrame();
    await readyHeard;
    expect(heard).to.deep.equal([`ready:${frame.src}`]);
    const link = prepared.open();
    await link.ready;
    link.close();
    await link.closed;
    expect(heard).to.deep.equal([`ready:${frame.src}`, 'open']);

    let direct = 0;
    const opened = openLink({ linkUrl, tokenUrl: fakeTokenUrl('ok').url, onReady: () => direct++ });
    await opened.ready;
    opened.close();
    await opened.closed;
    expect(direct).to.equal(0);
  });

  it('never hands over a token fetched ahead for one account to open() for another (#21)', async () => {
    const token = fakeTokenUrl('ok');
    const [accountA, accountB] = [crypto.randomUUID(), crypto.randomUUID()];
    const prepared = prepareLink({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: token.url, accountId: accountA });
    await untilCalls(token, 1);
    // The fake Link page reports the token it received in its first event (see fake-link.ts).
    let onReceived!: (token: unknown) => void;
    const received = new Promise((resolve) => (onReceived = resolve));
    const link = prepared.open({
      accountId: accountB,
      onEvent: ({ name, payload }) => {
        if (name === 'open') onReceived(payload.token);
      },
    });
    expect(await received, "the token minted for account B, not A's").to.match(/\.2$/);
    const calls = await token.calls();
    expect(calls.map((call) => JSON.parse(call.body))).to.deep.equal([{ account_id: accountA }, { account_id: accountB }]);
    link.close();
    expect((await link.closed).accountId).to.equal(accountB);
  });

  it('dispose() leaves nothing behind and calls nothing; open() after it ends at once', async () => {
    const token = fakeTokenUrl('ok');
    const heard: string[] = [];
    const prepared = prepareLink({
      linkUrl: await fakeLinkUrl('idle'),
      tokenUrl: token.url,
      onExit: ({ reason }) => heard.push(`exit:${reason}`),
    });
    hiddenFrame();
    prepared.dispose();
    expect(frames()).to.have.length(0);
    expect(document.querySelectorAll('[data-payroll-link-modal]')).to.have.length(0);
    expect(heard).to.deep.equal([]);
    const late = prepared.open();
    expect((await late.closed).reason).to.equal('closed_by_host');
    expect(heard).to.deep.equal(['exit:closed_by_host']);
  });
});
