import { expect } from '@open-wc/testing';
import { openLink, type DroppedMessage, type LinkError, type LinkEventDetail, type LinkHandle } from '../../src/core/index.js';
import { PROTOCOL_VERSION } from '../../src/protocol.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl } from './helpers.js';

/** A container the page does not render (`hidden`), at the end of <body>; the test removes it. */
function appendHiddenBox(): HTMLDivElement {
  const box = document.createElement('div');
  box.hidden = true;
  document.body.append(box);
  return box;
}

describe('openLink()', () => {
  afterEach(() => {
    expect(deepQueryAll('iframe')).to.have.length(0);
    expect(document.querySelectorAll('[data-payroll-link-modal]')).to.have.length(0);
  });

  it('works without any framework: its own modal in <body>, removed when closed', async () => {
    const token = fakeTokenUrl('ok');
    const link = openLink({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: token.url });
    const host = document.querySelector('[data-payroll-link-modal]')!;
    expect(host.shadowRoot!.querySelector('dialog')!.open).to.equal(true);
    await link.ready;
    link.close();
    link.close();
    const exit = await link.closed;
    expect(exit.reason).to.equal('closed_by_host');
    expect(exit.linkTokenId).to.match(/^[0-9a-f-]{36}$/);
  });

  it('drops messages from another origin, another window of the Link origin, and ones that are no Link event; passes events outside the contract on untyped', async () => {
    const dropped: DroppedMessage[] = [];
    // Resolved by the drop callback itself once the forger's two messages are dropped.
    let forgerDropped!: () => void;
    const bothForgeriesDropped = new Promise<void>((resolve) => (forgerDropped = resolve));
    const events: LinkEventDetail[] = [];
    const logins: unknown[] = [];
    const token = fakeTokenUrl('ok');
    let releaseToken!: (token: string) => void;
    const link = openLink({
      linkUrl: await fakeLinkUrl('garbage-then-success'),
      tokenUrl: token.url,
      onDroppedMessage: (message) => {
        dropped.push(message);
        if (dropped.filter((d) => d.reason === 'source').length === 2) forgerDropped();
      },
      onEvent: (event) => events.push(event),
      onLogin: (detail) => logins.push(detail),
      // The real frame's flow waits for its token until the forgeries have been tried: however long a loaded
      // machine takes to load the forger's frame (the default wait, 15 s, is a user's, not a test's).
      token: new Promise((resolve) => (releaseToken = resolve)),
      tokenFetch: { timeoutMs: 10 * 60_000 },
    });
    const forged = [
      { type: 'payroll-link:ready', version: PROTOCOL_VERSION },
      { type: 'payroll-link:event', name: 'exit', payload: { reason: 'completed', error: null } },
    ];
    // This page's own origin is not the Link origin.
    for (const message of forged) window.postMessage(message, '*');
    // A second frame of the right origin that is not the session's frame.
    const forger = document.createElement('iframe');
    forger.src = await fakeLinkUrl('forger');
    document.body.append(forger);
    await bothForgeriesDropped;
    forger.remove();
    releaseToken(`tok.${crypto.randomUUID()}`);
    const exit = await link.closed;
    // At least our two: the test harness may post messages of its own to this window.
    expect(dropped.filter((d) => d.reason === 'origin').length).to.be.at.least(2);
    expect(dropped.filter((d) => d.reason === 'source')).to.have.length(2);
    // Seven messages over the session's own port that are no Link event at all (see the fake's garbage-then-success).
    expect(dropped.filter((d) => d.reason === 'schema')).to.have.length(7);
    expect(link.droppedMessages).to.equal(dropped.length);
    // Five outside the contract, passed on untyped in order and never acted on (their login, success and exit
    // neither called onLogin, onSuccess nor ended the session); then the session's own events, typed.
    expect(events.map((e) => `${e.name}:${e.typed}`)).to.deep.equal([
      'open:true',
      'login:false',
      'teleport:false',
      'exit:false',
      'success:false',
      'select_employer:false',
      'login:true',
      'success:true',
      'exit:true',
    ]);
    expect(events[2]!.payload).to.deep.equal({ to: 'mars', legs: [1, 2] });
    expect(logins).to.have.length(1);
    expect(exit.reason).to.equal('completed');
  });

  it('refuses a link URL that is not http(s), with a clientError', async () => {
    const errors: unknown[] = [];
    const link = openLink({ linkUrl: 'javascript:alert(1)', tokenUrl: '/never', onError: (e) => errors.push(e) });
    const exit = await link.closed;
    expect(exit.error).to.include({ type: 'clientError', code: 'INVALID_LINK_URL' });
    expect(errors).to.deep.equal([exit.error]);
  });

  it('ends with an error when the Link page never says it is ready', async () => {
    const token = fakeTokenUrl('ok');
    const link = openLink({ linkUrl: await fakeLinkUrl('silent'), tokenUrl: token.url, readyTimeoutMs: 300 });
    const exit = await link.closed;
    expect(exit.error).to.include({ type: 'networkError', code: 'LINK_UNAVAILABLE' });
  });

  it('ends with an error when the Link page reloads mid-session (its token is spent)', async () => {
    const token = fakeTokenUrl('ok');
    const link = openLink({ linkUrl: await fakeLinkUrl('reload'), tokenUrl: token.url });
    const exit = await link.closed;
    expect(exit.error).to.include({ type: 'systemError', code: 'LINK_RELOADED' });
    expect(await token.calls()).to.have.length(1);
  });

  it('ends with a clientError when the modal cannot be shown: nothing thrown, scroll and focus given back', async () => {
    const token = fakeTokenUrl('ok');
    const linkUrl = await fakeLinkUrl('idle');
    const trigger = document.createElement('button');
    document.body.append(trigger);
    try {
      trigger.focus();
      const errors: LinkError[] = [];
      let link: LinkHandle | undefined;
      // A container outside the document: showModal() refuses it.
      const open = () =>
        (link = openLink({ linkUrl, tokenUrl: token.url, container: document.createElement('div'), onError: (e) => errors.push(e) }));
      expect(open).to.not.throw();
      const exit = await link!.closed;
      await link!.ready;
      expect(exit.reason).to.equal('error');
      expect(exit.error).to.include({ type: 'clientError', code: 'MODAL_UNAVAILABLE', pendingRetry: false });
      expect(errors).to.deep.equal([exit.error]);
      expect(getComputedStyle(document.documentElement).overflow).to.not.equal('hidden');
      expect(document.activeElement === trigger, 'focus back where it was').to.equal(true);
      expect(await token.calls(), 'no token for a session that cannot show').to.have.length(0);
    } finally {
      trigger.remove();
    }
  });

  it('ends with MODAL_HIDDEN when its container is not rendered, reported through onError first, as every failure is', async () => {
    const hiddenBox = appendHiddenBox();
    try {
      const heard: string[] = [];
      const errors: LinkError[] = [];
      const link = openLink({
        linkUrl: await fakeLinkUrl('idle'),
        tokenUrl: fakeTokenUrl('ok').url,
        container: hiddenBox,
        onError: (error) => {
          heard.push('onError');
          errors.push(error);
        },
        onExit: () => heard.push('onExit'),
      });
      const exit = await link.closed;
      expect(heard).to.deep.equal(['onError', 'onExit']);
      expect(exit.reason).to.equal('closed_by_host');
      expect(exit.error).to.include({ type: 'clientError', code: 'MODAL_HIDDEN', pendingRetry: false });
      expect(errors).to.deep.equal([exit.error]);
      expect(getComputedStyle(document.documentElement).overflow).to.not.equal('hidden');
    } finally {
      hiddenBox.remove();
    }
  });

  it('keeps MODAL_HIDDEN as the exit error when onError closes the session', async () => {
    const hiddenBox = appendHiddenBox();
    try {
      const link = openLink({
        linkUrl: await fakeLinkUrl('idle'),
        tokenUrl: fakeTokenUrl('ok').url,
        container: hiddenBox,
        onError: () => link.close(),
      });
      const exit = await link.closed;
      expect(exit.reason).to.equal('closed_by_host');
      expect(exit.error).to.include({ code: 'MODAL_HIDDEN' });
    } finally {
      hiddenBox.remove();
    }
  });

  it('leaves no open dialog behind when setting up the shown modal throws: the page is never blocked', async () => {
    const token = fakeTokenUrl('ok');
    const linkUrl = await fakeLinkUrl('idle');
    const { IntersectionObserver } = window;
    // As a browser that cannot watch the dialog would: the throw comes after showModal().
    window.IntersectionObserver = class {
      constructor() {
        throw new TypeError('no IntersectionObserver here');
      }
    } as never;
    try {
      const errors: LinkError[] = [];
      let link: LinkHandle | undefined;
      expect(() => (link = openLink({ linkUrl, tokenUrl: token.url, onError: (e) => errors.push(e) }))).to.not.throw();
      const exit = await link!.closed;
      expect(exit.reason).to.equal('error');
      expect(exit.error).to.include({ type: 'clientError', code: 'MODAL_UNAVAILABLE' });
      expect(errors).to.deep.equal([exit.error]);
      expect(deepQueryAll('dialog')).to.have.length(0);
      expect(getComputedStyle(document.documentElement).overflow).to.not.equal('hidden');
    } finally {
      window.IntersectionObserver = IntersectionObserver;
    }
  });

  it('needs a token source', async () => {
    const link = openLink({ linkUrl: await fakeLinkUrl('idle') });
    expect((await link.closed).error).to.include({ type: 'clientError', code: 'NO_TOKEN_SOURCE' });
  });
});
