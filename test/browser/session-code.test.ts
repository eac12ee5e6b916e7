/**
 * The session's code loads on intent (src/element/load-session.ts): a flow prepared or opened before it is here is built
 * when it arrives, and a session that ends before that ends as every session does. The code's arrival is held
 * by the test (a SessionCodeSource it controls), so each case happens in the order it names, never by timing.
 */
import { expect } from '@open-wc/testing';
import type { SessionCode } from '../../src/element/load-session.js';
import { loadSessionCode, lazyPrepareLink, type SessionCodeSource } from '../../src/element/load-session.js';
import type { ExitDetail, LinkError } from '../../src/protocol.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl } from './helpers.js';

const frames = () => deepQueryAll('iframe');

/** A source whose code arrives (or fails) when the test says so. */
function heldSource() {
  let arrive!: (code: SessionCode) => void;
  let fail!: (error: Error) => void;
  const arrival = new Promise<SessionCode>((resolve, reject) => {
    arrive = resolve;
    fail = reject;
  });
  const source: SessionCodeSource = { loaded: () => undefined, load: () => arrival };
  return {
    source,
    /** Lets the real code arrive; resolves once everything waiting for it has run. */
    async arrive() {
      arrive(await loadSessionCode());
      await arrival;
    },
    async fail(error: Error) {
      fail(error);
      await arrival.catch(() => {});
    },
  };
}

/** What a session reported, in order. */
function recorder() {
  const heard: string[] = [];
  const exits: ExitDetail[] = [];
  const errors: LinkError[] = [];
  return {
    heard,
    exits,
    errors,
    callbacks: {
      onOpen: () => heard.push('open'),
      onError: (error: LinkError) => {
        heard.push('error');
        errors.push(error);
      },
      onExit: (detail: ExitDetail) => {
        heard.push('exit');
        exits.push(detail);
      },
    },
  };
}

describe('the session code loaded on intent', () => {
  afterEach(() => expect(frames(), 'no frame outlives its test').to.have.length(0));

  it('builds the flow hidden when the code arrives, and opens a session asked for before that', async () => {
    const held = heldSource();
    const token = fakeTokenUrl('ok');
    const prepared = lazyPrepareLink({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: token.url, fetchTokenAhead: false }, held.source);
    expect(frames(), 'nothing before the code').to.have.length(0);
    await held.arrive();
    expect(frames(), 'the frame, built hidden').to.have.length(1);
    expect(frames()[0].closest('dialog')!.open).to.equal(false);
    const session = recorder();
    const handle = prepared.open(session.callbacks);
    await handle.ready;
    expect(session.heard).to.deep.equal(['open']);
    expect(frames()[0].closest('dialog')!.open).to.equal(true);
    handle.close();
    expect((await handle.closed).reason).to.equal('closed_by_host');
    expect(session.heard).to.deep.equal(['open', 'exit']);
  });

  it('the code arrived, open() then close() in one task: the session ends and the flow built ahead goes with it', async () => {
    const held = heldSource();
    const session = recorder();
    const prepared = lazyPrepareLink({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: '/never-asked', fetchTokenAhead: false }, held.source);
    await held.arrive();
    expect(frames(), 'the frame, built hidden').to.have.length(1);
    const handle = prepared.open(session.callbacks);
    handle.close();
    expect((await handle.closed).reason).to.equal('closed_by_host');
    expect(session.heard).to.deep.equal(['exit']);
    expect(frames(), 'nothing left behind').to.have.length(0);
  });

  it('opens a session asked for before the code arrives, once it is here', async () => {
    const held = heldSource();
    const token = fakeTokenUrl('ok');
    const session = recorder();
    const handle = lazyPrepareLink({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: token.url, ...session.callbacks }, held.source).open();
    expect(handle.droppedMessages).to.equal(0);
    expect(frames()).to.have.length(0);
    await held.arrive();
    await handle.ready;
    expect(session.heard).to.deep.equal(['open']);
    expect(await token.calls(), 'one token for the session').to.have.length(1);
    handle.close();
    await handle.closed;
  });

  it('close() before the code arrives ends the session at once, cancels the token fetched ahead, and builds nothing after', async () => {
    const held = heldSource();
    const session = recorder();
    let cancelled = 0;
    const handle = lazyPrepareLink(
      { linkUrl: await fakeLinkUrl('idle'), tokenUrl: '/never-asked', accountId: 'acc-1', ...session.callbacks },
      held.source,
    ).open({
      cancelToken: () => cancelled++,
    });
    handle.close();
    handle.close();
    expect(await handle.closed).to.deep.equal({ reason: 'closed_by_host', error: null, linkTokenId: null, accountId: 'acc-1' });
    await handle.ready;
    expect(session.heard).to.deep.equal(['exit']);
    expect(cancelled).to.equal(1);
    await held.arrive();
    expect(frames(), 'nothing built for a session that ended').to.have.length(0);
    expect(session.heard, 'nothing after link-exit').to.deep.equal(['exit']);
  });

  it('a failed load ends the session with SESSION_CODE_UNAVAILABLE: onError, then onExit, once', async () => {
    const held = heldSource();
    const session = recorder();
    const handle = lazyPrepareLink(
      { linkUrl: await fakeLinkUrl('idle'), tokenUrl: '/never-asked', ...session.callbacks },
      held.source,
    ).open();
    await held.fail(new TypeError('Failed to fetch dynamically imported module'));
    const exit = await handle.closed;
    expect(exit.reason).to.equal('error');
    expect(exit.error).to.include({ type: 'networkError', code: 'SESSION_CODE_UNAVAILABLE', pendingRetry: false });
    expect(session.heard).to.deep.equal(['error', 'exit']);
    expect(session.errors[0]).to.deep.equal(exit.error);
    handle.close();
    expect(session.heard, 'close() after the end does nothing').to.deep.equal(['error', 'exit']);
  });

  it('a load that outlasts readyTimeoutMs ends the session with SESSION_CODE_UNAVAILABLE, and the code arriving later builds nothing', async () => {
    const held = heldSource();
    const session = recorder();
    const handle = lazyPrepareLink(
      { linkUrl: await fakeLinkUrl('idle'), tokenUrl: '/never-asked', readyTimeoutMs: 20, ...session.callbacks },
      held.source,
    ).open();
    const exit = await handle.closed;
    expect(exit.error?.code).to.equal('SESSION_CODE_UNAVAILABLE');
    expect(session.heard).to.deep.equal(['error', 'exit']);
    await held.arrive();
    expect(frames()).to.have.length(0);
  });

  it('dispose() before the code arrives builds nothing; open() after it ends at once', async () => {
    const held = heldSource();
    const session = recorder();
    const prepared = lazyPrepareLink({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: '/never-asked' }, held.source);
    prepared.dispose();
    await held.arrive();
    expect(frames()).to.have.length(0);
    const handle = prepared.open(session.callbacks);
    expect((await handle.closed).reason).to.equal('closed_by_host');
    expect(session.heard).to.deep.equal(['exit']);
    expect(frames()).to.have.length(0);
  });

  it('with the code here, it is prepareLink() itself: the frame is built at once', async () => {
    await loadSessionCode();
    const prepared = lazyPrepareLink({ linkUrl: await fakeLinkUrl('idle'), fetchTokenAhead: false });
    expect(frames()).to.have.length(1);
    prepared.dispose();
  });
});
