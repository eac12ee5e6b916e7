import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import { openLink, type PayrollLink } from '../../src/index.js';
import { settleWithin } from '../../src/core/fetch-link-token.js';
import { prefetchHost } from './prefetch-host.js';
import { UUID, deepQueryAll, fakeLinkUrl, fakeTokenUrl, modalRoot, recordEvents, untilCalls } from './helpers.js';

describe('sessions under pressure: races, odd orders, hostile inputs', () => {
  afterEach(() => expect(deepQueryAll('iframe')).to.have.length(0));

  it('never hands a token fetched ahead for one end user to another, even in the same tick', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link prefetch="load" end-user-id="a" token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`,
    );
    await untilCalls(token, 1);
    el.endUserId = 'b';
    void el.show();
    await oneEvent(el, 'link-open');
    const calls = await token.calls();
    expect(calls.map((c) => c.body)).to.deep.equal(['{"end_user_id":"a"}', '{"end_user_id":"b"}']);
    const exit = oneEvent(el, 'link-exit');
    el.close();
    await exit;
  });

  it('keeps link-exit last when a listener removes the element in the middle of the flow', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl('success')}></payroll-link>`,
    );
    const events = recordEvents(el);
    const heard: string[] = [];
    el.onLogin = () => heard.push('onLogin');
    el.onSuccess = () => heard.push('onSuccess');
    el.onExit = (detail) => heard.push(`onExit:${detail.reason}`);
    el.addEventListener('link-event', (event) => {
      if (event.detail.name === 'login') el.remove();
    });
    const exit = oneEvent(el, 'link-exit');
    el.shadowRoot!.querySelector('button')!.click();
    expect((await exit).detail.reason).to.equal('closed_by_host');
    // Nothing may follow link-exit: a bounded wait for an absence, which a slow machine can only make
    // miss a late event, never fail a correct widget.
    await new Promise((resolve) => setTimeout(resolve, 100));
    events.stop();
    expect(events.types()).to.deep.equal(['link-open', 'link-exit']);
    expect(heard).to.deep.equal(['onExit:closed_by_host']);
  });

  it('reports a success as completed even when onEvent closes the session right away', async () => {
    const token = fakeTokenUrl('ok');
    const link = openLink({
      linkUrl: await fakeLinkUrl('success'),
      tokenUrl: token.url,
      onEvent: ({ name }) => {
        if (name === 'success') link.close();
      },
    });
    expect((await link.closed).reason).to.equal('completed');
  });

  it('keeps an error exit an error when onError closes the session', async () => {
    const token = fakeTokenUrl('404');
    const link = openLink({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: token.url, onError: () => link.close() });
    const exit = await link.closed;
    expect(exit.reason).to.equal('error');
    expect(exit.error).to.include({ code: 'TOKEN_HTTP_404' });
  });

  it('stops the retries of a fetch ahead when its session ends first', async () => {
    const token = fakeTokenUrl('503,503,ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link prefetch="load" token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`,
    );
    await untilCalls(token, 1);
    const exit = oneEvent(el, 'link-exit');
    void el.show();
    // No fetch ahead for a next session either: what is counted below can only be a retry of the first.
    el.prefetch = false;
    el.close();
    await exit;
    const atExit = (await token.calls()).length;
    // Absence over time: wait past the next backoff step (at most 400 ms) and check no retry went out.
    // Only a wait can show a timer did not fire; a slow machine can only make it miss a retry, never
    // fail a correct widget.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await token.calls()).length).to.equal(atExit);
  });

  it('stops a fetch ahead it gave up waiting for: never two token fetches at once', async () => {
    const token = fakeTokenUrl('hang,ok');
    // Wired as the element wires it, with a wait short enough for a test (users get 15 s).
    const host = await prefetchHost({ prefetch: true, tokenUrl: token.url });
    host.prefetcher.prefetch();
    await untilCalls(token, 1);
    const { token: prefetched, link: unused } = host.prefetcher.take();
    unused.dispose();
    host.remove();
    const taken = prefetched!;
    const opened: Array<string | null> = [];
    const link = openLink({
      linkUrl: await fakeLinkUrl('idle'),
      tokenUrl: token.url,
      // The session gives up on the fetch ahead after 300 ms (users get 15 s), as it does through
      // tokenFetch.timeoutMs; its own fetch keeps the default timeout, so a busy machine cannot fail it.
      token: settleWithin(taken.token, new AbortController().signal, 300),
      cancelToken: taken.cancel,
      onOpen: ({ linkTokenId }) => opened.push(linkTokenId),
    });
    await link.ready;
    expect(opened, 'the session opened with a token of its own').to.have.length(1);
    expect(opened[0]).to.match(UUID);
    await untilCalls(token, (calls) => calls[0]?.aborted === true);
    expect(await token.calls()).to.have.length(2);
    link.close();
    expect(await link.closed).to.deep.equal({ reason: 'closed_by_host', error: null, linkTokenId: opened[0] });
  });

  it('opens from the open attribute in markup, and drops open when it cannot open', async () => {
    const token = fakeTokenUrl('ok');
    const url = await fakeLinkUrl('idle');
    const opened = await fixture<PayrollLink>(html`<payroll-link open token-url=${token.url} link-url=${url}></payroll-link>`);
    if (deepQueryAll('iframe').length === 0) await oneEvent(opened, 'link-open');
    expect(deepQueryAll('iframe')).to.have.length(1);
    const exit = oneEvent(opened, 'link-exit');
    opened.open = false;
    await exit;
    const disabled = await fixture<PayrollLink>(html`<payroll-link disabled token-url=${token.url} link-url=${url}></payroll-link>`);
    disabled.open = true;
    await disabled.updateComplete;
    await disabled.updateComplete;
    expect(disabled.open).to.equal(false);
    expect(disabled.hasAttribute('open')).to.equal(false);
  });

  it("gives focus back to the page's own control when show() was called from it", async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`);
    const trigger = document.createElement('button');
    trigger.textContent = 'My own button';
    document.body.append(trigger);
    try {
      trigger.focus();
      void el.show();
      await oneEvent(el, 'link-open');
      const exit = oneEvent(el, 'link-exit');
      await sendKeys({ press: 'Escape' });
      await exit;
      expect(document.activeElement).to.equal(trigger);
    } finally {
      trigger.remove();
    }
  });

  it('ends a session whose handed-in token never arrives, instead of spinning forever', async () => {
    const link = openLink({ linkUrl: await fakeLinkUrl('idle'), token: new Promise<string>(() => {}), tokenFetch: { timeoutMs: 150 } });
    expect((await link.closed).error).to.include({ type: 'networkError', code: 'TOKEN_TIMEOUT' });
  });

  it('renews a token the Link page refuses, once, in a new frame: the user never sees the failure', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl('reject-first')}></payroll-link>`,
    );
    const events = recordEvents(el);
    const exit = oneEvent(el, 'link-exit');
    el.shadowRoot!.querySelector('button')!.click();
    const detail = (await exit).detail;
    events.stop();
    expect(events.types()).to.deep.equal(['link-open', 'link-login', 'link-success', 'link-exit']);
    expect(events.of('link-event').map((e) => e.detail.name)).to.deep.equal(['open', 'open', 'login', 'success', 'exit']);
    expect(detail.reason).to.equal('completed');
    const calls = await token.calls();
    expect(calls).to.have.length(2);
    expect(detail.linkTokenId).to.equal(events.of('link-login')[0].detail.linkTokenId);
  });

  it('shows the loading indicator while the renewed frame loads, not a blank modal', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl('reject-first')}></payroll-link>`,
    );
    // Checked the moment the frame is swapped, before the new Link page can say it is ready.
    const loadingShown: boolean[] = [];
    const swaps = new MutationObserver((records) => {
      for (const record of records) {
        if ([...record.removedNodes].some((node) => node.nodeName === 'IFRAME')) {
          loadingShown.push(modalRoot().querySelector('[part="loading"]')!.checkVisibility());
        }
      }
    });
    const exit = oneEvent(el, 'link-exit');
    el.shadowRoot!.querySelector('button')!.click();
    // The modal is built at the click, before any frame can be swapped.
    swaps.observe(modalRoot(), { childList: true, subtree: true });
    expect((await exit).detail.reason).to.equal('completed');
    swaps.disconnect();
    expect(loadingShown).to.deep.equal([true]);
  });

  it('reports a token refused twice: one renewal per session, then the error', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl('reject-all')}></payroll-link>`,
    );
    const events = recordEvents(el);
    const exit = oneEvent(el, 'link-exit');
    el.shadowRoot!.querySelector('button')!.click();
    const detail = (await exit).detail;
    events.stop();
    expect(events.types()).to.deep.equal(['link-open', 'link-error', 'link-exit']);
    expect(detail).to.deep.include({ reason: 'error' });
    expect(detail.error).to.include({ type: 'invalidLinkToken', pendingRetry: false });
    expect(await token.calls()).to.have.length(2);
  });

  it('refuses plain-http Link URLs off loopback: the token would cross the network in clear text', async () => {
    const link = openLink({ linkUrl: 'http://link.example.com/link', fetchToken: async () => 'tok' });
    expect((await link.closed).error).to.include({ type: 'clientError', code: 'INVALID_LINK_URL' });
    expect(deepQueryAll('dialog')).to.have.length(0);
  });
});
