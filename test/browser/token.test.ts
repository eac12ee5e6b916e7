import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import { openLink, type PayrollLink } from '../../src/index.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl, recordEvents, refusedUrl, untilCalls } from './helpers.js';

async function linkElement(plan: string, scenario = 'success', prefetch = false) {
  const token = fakeTokenUrl(plan);
  const el = await fixture<PayrollLink>(
    html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl(scenario)} ?prefetch=${prefetch}></payroll-link>`,
  );
  return { el, token, button: el.shadowRoot!.querySelector('button')! };
}

describe('token fetching', () => {
  afterEach(() => expect(deepQueryAll('iframe')).to.have.length(0));

  const failures: Array<[string, string, number, string, string]> = [
    // plan, expected type, calls, code, why
    ['503', 'networkError', 3, 'TOKEN_HTTP_503', '5xx is retried, three tries in all'],
    ['404', 'networkError', 1, 'TOKEN_HTTP_404', 'other 4xx is final'],
    ['malformed', 'invalidLinkToken', 1, 'TOKEN_MALFORMED', 'malformed JSON is final'],
    ['invalid', 'invalidLinkToken', 1, 'TOKEN_INVALID', 'an envelope failing the schema is final'],
    ['expired', 'invalidLinkToken', 1, 'TOKEN_EXPIRED', 'an already expired token is refused'],
  ];
  for (const [plan, type, count, code, why] of failures) {
    it(`ends in link-exit with ${type} when the endpoint answers ${plan} (${why})`, async () => {
      const { el, token, button } = await linkElement(plan);
      const events = recordEvents(el);
      button.click();
      const exit = await oneEvent(el, 'link-exit');
      events.stop();
      expect(events.types()).to.deep.equal(['link-error', 'link-exit']);
      expect(exit.detail).to.deep.equal({
        reason: 'error',
        error: events.of('link-error')[0].detail,
        linkTokenId: null,
      });
      expect(exit.detail.error).to.include({ type, code, pendingRetry: false });
      expect(await token.calls()).to.have.length(count);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part="error"]')).to.not.equal(null);
      expect(el.shadowRoot!.querySelector('button')!.getAttribute('aria-busy')).to.equal('false');
    });
  }

  it('retries 429 and 5xx, honouring Retry-After, then succeeds', async () => {
    const { el, token, button } = await linkElement('429,500,ok');
    button.click();
    expect((await oneEvent(el, 'link-exit')).detail.reason).to.equal('completed');
    expect(await token.calls()).to.have.length(3);
  });

  it('waits as long as Retry-After asks before trying again', async () => {
    const { el, token, button } = await linkElement('429-retry-after-1,ok');
    button.click();
    expect((await oneEvent(el, 'link-exit')).detail.reason).to.equal('completed');
    const [first, second] = await token.calls();
    // A lower bound only (about 1 s): the backoff alone would have waited 200 to 400 ms.
    expect(second.at - first.at).to.be.at.least(950);
  });

  it('retries a refused connection, then ends in a networkError after three tries', async () => {
    const url = await refusedUrl();
    let tries = 0;
    const { fetch } = window;
    window.fetch = (input, init) => {
      if (String(input) === url) tries++;
      return fetch(input, init);
    };
    try {
      const el = await fixture<PayrollLink>(html`<payroll-link token-url=${url} link-url=${await fakeLinkUrl('success')}></payroll-link>`);
      const exit = oneEvent(el, 'link-exit');
      el.shadowRoot!.querySelector('button')!.click();
      const { detail } = await exit;
      expect(detail.reason).to.equal('error');
      expect(detail.error).to.include({ type: 'networkError', code: 'TOKEN_NETWORK', pendingRetry: false });
      expect(tries).to.equal(3);
    } finally {
      window.fetch = fetch;
    }
  });

  it("sends the page's own cookies with the token request (credentials: 'same-origin')", async () => {
    document.cookie = 'payroll_link_test=sent; path=/';
    try {
      const { el, token, button } = await linkElement('ok');
      button.click();
      await oneEvent(el, 'link-exit');
      const [call] = await token.calls();
      expect(call.cookie).to.contain('payroll_link_test=sent');
    } finally {
      document.cookie = 'payroll_link_test=; path=/; max-age=0';
    }
  });

  it('gets the token from fetchToken when token-url is set too', async () => {
    const token = fakeTokenUrl('ok');
    let fetched = 0;
    const fetchToken = async () => `tok.${crypto.randomUUID()}.${++fetched}`;
    const el = await fixture<PayrollLink>(
      html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl('success')} .fetchToken=${fetchToken}></payroll-link>`,
    );
    const exit = oneEvent(el, 'link-exit');
    el.shadowRoot!.querySelector('button')!.click();
    expect((await exit).detail.reason).to.equal('completed');
    expect(fetched).to.equal(1);
    expect(await token.calls()).to.have.length(0);
  });

  it('shows a loading state while the token is fetched, and clears the error state on the next try', async () => {
    const { el, button } = await linkElement('404,slow', 'idle');
    button.click();
    await oneEvent(el, 'link-exit');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="error"]')).to.not.equal(null);
    const opened = oneEvent(el, 'link-open');
    button.click();
    await el.updateComplete;
    expect(button.getAttribute('aria-busy')).to.equal('true');
    expect(el.shadowRoot!.querySelector('[part="spinner"]')).to.not.equal(null);
    expect(el.shadowRoot!.querySelector('[part="error"]')).to.equal(null);
    await expect(el).to.be.accessible();
    await opened;
    await el.updateComplete;
    expect(button.getAttribute('aria-busy')).to.equal('false');
    const closing = oneEvent(el, 'link-exit');
    el.close();
    await closing;
  });

  it('times out a hanging endpoint once, without retrying it, and ends in a networkError: never a stuck spinner', async () => {
    const token = fakeTokenUrl('hang');
    const link = openLink({ linkUrl: await fakeLinkUrl('success'), tokenUrl: token.url, tokenFetch: { timeoutMs: 150, maxAttempts: 3, backoffBaseMs: 10 } });
    const exit = await link.closed;
    expect(exit.error).to.include({ type: 'networkError', code: 'TOKEN_TIMEOUT' });
    expect(await token.calls()).to.have.length(1);
  });

  it('retries a fetchToken that throws, and refuses one that returns garbage', async () => {
    let tries = 0;
    const flaky = openLink({
      linkUrl: await fakeLinkUrl('success'),
      fetchToken: async () => {
        tries++;
        if (tries < 2) throw new TypeError('Failed to fetch');
        return `tok.${crypto.randomUUID()}`;
      },
      tokenFetch: { backoffBaseMs: 10 },
    });
    expect((await flaky.closed).reason).to.equal('completed');
    expect(tries).to.equal(2);
    const garbage = openLink({ linkUrl: await fakeLinkUrl('success'), fetchToken: async () => ({ data: 'nope' }) as never });
    expect((await garbage.closed).error).to.include({ type: 'invalidLinkToken', code: 'TOKEN_INVALID' });
  });

  it('prefetches on connect, so the click uses that token, and never reuses it', async () => {
    const { el, token, button } = await linkElement('ok', 'idle', true);
    await untilCalls(token, 1);
    button.click();
    const open = await oneEvent(el, 'link-open');
    expect(await token.calls()).to.have.length(1);
    const closing = oneEvent(el, 'link-exit');
    el.close();
    await closing;
    // The used token is gone; a second session gets a new one.
    button.click();
    const second = await oneEvent(el, 'link-open');
    expect(second.detail.linkTokenId).to.not.equal(open.detail.linkTokenId);
    const closingAgain = oneEvent(el, 'link-exit');
    el.close();
    await closingAgain;
  });

  it('fetches the next token ahead when the user closes the flow, so the next click opens at once', async () => {
    const { el, token, button } = await linkElement('ok', 'idle', true);
    await untilCalls(token, 1);
    button.click();
    await oneEvent(el, 'link-open');
    const exit = oneEvent(el, 'link-exit');
    // The user closes the modal: focus comes back to the button.
    await sendKeys({ press: 'Escape' });
    await exit;
    await untilCalls(token, 2);
    button.click();
    await oneEvent(el, 'link-open');
    expect(await token.calls(), 'the click used the token fetched ahead').to.have.length(2);
    el.prefetch = false;
    const closing = oneEvent(el, 'link-exit');
    el.close();
    await closing;
  });

  it('keeps the token fetched ahead when fetchToken is a new function on each render, not for another end user', async () => {
    let fetched = 0;
    const getToken = async () => `tok.${crypto.randomUUID()}.${++fetched}`;
    const el = await fixture<PayrollLink>(
      html`<payroll-link prefetch end-user-id="a" link-url=${await fakeLinkUrl('idle')} .fetchToken=${() => getToken()}></payroll-link>`,
    );
    const waitFor = async (count: number) => {
      for (let i = 0; i < 200 && fetched < count; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(fetched).to.equal(count);
    };
    await waitFor(1);
    // What React does with fetchToken={() => getToken()}: a new function on every render.
    for (let render = 0; render < 3; render++) {
      el.fetchToken = () => getToken();
      await el.updateComplete;
    }
    void el.show();
    await oneEvent(el, 'link-open');
    expect(fetched, 'the session used the token fetched ahead').to.equal(1);
    let exit = oneEvent(el, 'link-exit');
    el.close();
    await exit;
    await waitFor(2);
    // Another end user: the token fetched ahead for "a" is never handed to "b".
    el.endUserId = 'b';
    await el.updateComplete;
    void el.show();
    await oneEvent(el, 'link-open');
    expect(fetched).to.equal(3);
    el.prefetch = false;
    exit = oneEvent(el, 'link-exit');
    el.close();
    await exit;
  });

  it('prefetches when token-url and prefetch are set just after connecting, as React wrappers do', async () => {
    const token = fakeTokenUrl('ok');
    const linkUrl = await fakeLinkUrl('idle');
    const el = document.createElement('payroll-link');
    document.body.append(el);
    // @lit/react sets properties in a layout effect, after React has inserted the element.
    el.tokenUrl = token.url;
    el.linkUrl = linkUrl;
    el.prefetch = true;
    try {
      await untilCalls(token, 1);
      expect(await token.calls()).to.have.length(1);
    } finally {
      el.remove();
    }
  });

  it('prefetches once, for the end user a binding sets just after the element is inserted, as Angular does', async () => {
    // Angular inserts the element with its static attributes, then sets `[endUserId]` in the same task.
    const token = fakeTokenUrl('ok');
    const el = document.createElement('payroll-link');
    el.setAttribute('token-url', token.url);
    el.setAttribute('link-url', await fakeLinkUrl('idle'));
    el.setAttribute('prefetch', '');
    document.body.append(el);
    el.endUserId = 'user-angular';
    try {
      await untilCalls(token, 1);
      await el.updateComplete;
      const calls = await token.calls();
      expect(calls.map((call) => JSON.parse(call.body))).to.deep.equal([{ end_user_id: 'user-angular' }]);
    } finally {
      el.remove();
    }
  });

  it('prefetches when its properties arrive after its first update, as when a server-rendered page hydrates', async () => {
    // Next.js sends <payroll-link> in the HTML: it upgrades when the module loads, and React hydrates later.
    const token = fakeTokenUrl('ok');
    const el = document.createElement('payroll-link');
    document.body.append(el);
    await el.updateComplete;
    el.tokenUrl = token.url;
    el.linkUrl = await fakeLinkUrl('idle');
    el.endUserId = 'user-next';
    el.prefetch = true;
    try {
      await untilCalls(token, 1);
      expect((await token.calls()).map((call) => JSON.parse(call.body))).to.deep.equal([{ end_user_id: 'user-next' }]);
    } finally {
      el.remove();
    }
  });

  it('silently replaces a prefetched token that has expired while waiting', async () => {
    const { el, token, button } = await linkElement('short,ok', 'success', true);
    await untilCalls(token, 1);
    // Expiry is about time passing: let the prefetched token (1 s of life) run out.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const events = recordEvents(el);
    button.click();
    const exit = await oneEvent(el, 'link-exit');
    events.stop();
    expect(exit.detail.reason).to.equal('completed');
    expect(events.of('link-error')).to.have.length(0);
    expect(await token.calls()).to.have.length(2);
  });

  it('prefetches on hover and focus, and drops the token when the end user changes', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`);
    el.dispatchEvent(new PointerEvent('pointerenter'));
    expect(await token.calls()).to.have.length(0);
    el.prefetch = true;
    el.dispatchEvent(new PointerEvent('pointerenter'));
    el.shadowRoot!.querySelector('button')!.focus();
    await untilCalls(token, 1);
    expect(await token.calls()).to.have.length(1);
    el.endUserId = 'someone-else';
    await el.updateComplete;
    el.shadowRoot!.querySelector('button')!.click();
    await oneEvent(el, 'link-open');
    const calls = await token.calls();
    expect(calls).to.have.length(2);
    expect(calls[1].body).to.equal('{"end_user_id":"someone-else"}');
    const closing = oneEvent(el, 'link-exit');
    el.close();
    await closing;
  });
});
