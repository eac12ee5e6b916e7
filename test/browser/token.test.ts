import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import '../../src/index.js';
import { openLink, type PayrollLink } from '../../src/index.js';
import { afterRendering, deepQueryAll, fakeLinkUrl, fakeTokenUrl, recordEvents, refusedUrl, untilCalls } from './helpers.js';
import { loadSessionCode } from '../../src/element/load-session.js';

async function linkElement(plan: string, scenario = 'success', prefetch: PayrollLink['prefetch'] = false) {
  const token = fakeTokenUrl(plan);
  const el = await fixture<PayrollLink>(
    html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl(scenario)} .prefetch=${prefetch}></payroll-link>`,
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
    // Long enough for the request to reach the fake server even on a loaded machine (at 150 ms, Firefox under
    // load sometimes aborted before sending it, and the server counted none): the count must be exactly one.
    const link = openLink({
      linkUrl: await fakeLinkUrl('success'),
      tokenUrl: token.url,
      tokenFetch: { timeoutMs: 3_000, maxAttempts: 3, backoffBaseMs: 10 },
    });
    const exit = await link.closed;
    expect(exit.error).to.include({ type: 'networkError', code: 'TOKEN_TIMEOUT' });
    // Never retried: at most the one request (a loaded browser may even time out before sending it).
    expect(await token.calls()).to.have.length.at.most(1);
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

  // The contract's longest token is 2,000 characters (src/protocol/strings.ts): the Link page refuses a longer init. (#21)
  for (const [length, what] of [
    [2_001, 'one character too long'],
    [10_000_000, '10 MB'],
  ] as const) {
    it(`refuses a fetchToken token ${what} at once: link-error, then link-exit, never link-open and a waiting Link page`, async () => {
      const el = await fixture<PayrollLink>(html`<payroll-link link-url=${await fakeLinkUrl('success')}></payroll-link>`);
      let fetched = 0;
      el.fetchToken = async () => {
        fetched++;
        return 'x'.repeat(length);
      };
      const events = recordEvents(el);
      const button = el.shadowRoot!.querySelector('button')!;
      button.click();
      const first = await Promise.race([oneEvent(el, 'link-open'), oneEvent(el, 'link-exit')]);
      events.stop();
      expect(first.type).to.equal('link-exit');
      expect(events.types()).to.deep.equal(['link-error', 'link-exit']);
      expect(first.detail).to.deep.equal({ reason: 'error', error: events.of('link-error')[0].detail, linkTokenId: null });
      expect(first.detail.error).to.include({ type: 'invalidLinkToken', code: 'TOKEN_INVALID', pendingRetry: false });
      expect(fetched, 'a token that breaks the contract is not fetched again').to.equal(1);
      await el.updateComplete;
      expect(button.getAttribute('aria-busy')).to.equal('false');
      expect(button.disabled).to.equal(false);
      expect(el.open).to.equal(false);
      // Usable again: the next click starts a new session, which ends the same way.
      const again = oneEvent(el, 'link-exit');
      button.click();
      expect((await again).detail.error.code).to.equal('TOKEN_INVALID');
    });
  }

  it('refuses a token that breaks the contract whatever its source: the token option, a string or a Link token', async () => {
    const linkUrl = await fakeLinkUrl('success');
    const long = 'x'.repeat(2_001);
    const asLinkToken = {
      id: crypto.randomUUID(),
      token: long,
      expires: new Date(Date.now() + 3_600_000).toISOString(),
      mode: 'sandbox' as const,
    };
    for (const token of [long, Promise.resolve(long), asLinkToken]) {
      const heard: string[] = [];
      const link = openLink({ linkUrl, token, onOpen: () => heard.push('open'), onError: ({ code }) => heard.push(`error:${code}`) });
      const exit = await link.closed;
      expect(exit.reason).to.equal('error');
      expect(heard).to.deep.equal(['error:TOKEN_INVALID']);
    }
  });

  it('mints no token ahead on load with the bare prefetch, only once the user shows intent; prefetch="load" mints on connect', async () => {
    const onIntent = fakeTokenUrl('ok');
    const onLoad = fakeTokenUrl('ok');
    const linkUrl = await fakeLinkUrl('idle');
    const page = await fixture<HTMLElement>(html`<div>
      <payroll-link prefetch token-url=${onIntent.url} link-url=${linkUrl}></payroll-link>
      <payroll-link prefetch="load" token-url=${onLoad.url} link-url=${linkUrl}></payroll-link>
    </div>`);
    const [el, loaded] = page.querySelectorAll('payroll-link');
    expect([el.prefetch, loaded.prefetch]).to.deep.equal([true, 'load']);
    // Both connected and updated in the same task: once the "load" element's token request has arrived, the
    // other's would have too.
    await untilCalls(onLoad, 1);
    expect(await onIntent.calls(), 'a page view without interaction mints nothing').to.have.length(0);
    el.dispatchEvent(new PointerEvent('pointermove'));
    await untilCalls(onIntent, 1);
    // More hints while a token is on hand mint no more: one outstanding token per element.
    el.dispatchEvent(new PointerEvent('pointermove'));
    el.shadowRoot!.querySelector('button')!.focus();
    await untilCalls(onLoad, 1);
    expect(await onIntent.calls()).to.have.length(1);
    page.remove();
  });

  it('prefetches on connect, so the click uses that token, and never reuses it', async () => {
    const { el, token, button } = await linkElement('ok', 'idle', 'load');
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
    const { el, token, button } = await linkElement('ok', 'idle', 'load');
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

  /** A fetchToken that counts its calls, and a wait for that count (a fetch ahead runs in the background). */
  function countingFetchToken() {
    let fetched = 0;
    let onFetch = () => {};
    return {
      getToken: async () => {
        fetched += 1;
        onFetch();
        return `tok.${crypto.randomUUID()}.${fetched}`;
      },
      fetched: () => fetched,
      /** Resolves once `count` tokens were asked for (each call wakes it), then checks no more were. */
      async until(count: number) {
        while (fetched < count) await new Promise<void>((resolve) => (onFetch = resolve));
        expect(fetched).to.equal(count);
      },
    };
  }

  /** A prefetching element getting its tokens from a counting fetchToken, once the first is fetched ahead. */
  async function prefetchingElement(endUserId?: string) {
    const tokens = countingFetchToken();
    const el = await fixture<PayrollLink>(
      html`<payroll-link prefetch="load" .endUserId=${endUserId} link-url=${await fakeLinkUrl('idle')} .fetchToken=${() => tokens.getToken()}></payroll-link>`,
    );
    await tokens.until(1);
    return { el, tokens };
  }

  /** Opens a session with show() once pending updates are done; checks it got the token fetched `nth`, the last so far. */
  async function expectSessionWithToken(el: PayrollLink, tokens: ReturnType<typeof countingFetchToken>, nth: number) {
    await el.updateComplete;
    void el.show();
    let received: { name: string; payload: unknown };
    do received = (await oneEvent(el, 'link-event')).detail;
    while (received.name !== 'open');
    expect((received.payload as { token: string }).token.endsWith(`.${nth}`), `the session got token ${nth}`).to.equal(true);
    expect(tokens.fetched()).to.equal(nth);
  }

  /** Ends the session from the page, with nothing fetched ahead after it. */
  async function closeForGood(el: PayrollLink) {
    el.prefetch = false;
    const exit = oneEvent(el, 'link-exit');
    el.close();
    await exit;
  }

  it('keeps the token fetched ahead when fetchToken is a new function on each render with end-user-id set, not for another end user', async () => {
    const { el, tokens } = await prefetchingElement('a');
    // What React does with fetchToken={() => getToken()}: a new function on every render.
    for (let render = 0; render < 3; render++) {
      el.fetchToken = () => tokens.getToken();
      await el.updateComplete;
    }
    // The session uses the token fetched ahead.
    await expectSessionWithToken(el, tokens, 1);
    const exit = oneEvent(el, 'link-exit');
    await sendKeys({ press: 'Escape' });
    await exit;
    // The user closed the flow: the next token is fetched ahead.
    await tokens.until(2);
    // Another end user: the token fetched ahead for "a" is never handed to "b".
    el.endUserId = 'b';
    await expectSessionWithToken(el, tokens, 3);
    await closeForGood(el);
  });

  it('drops the token fetched ahead for a new fetchToken function when no end-user-id says whom it was for', async () => {
    const { el, tokens } = await prefetchingElement();
    // Another function may fetch for someone else: its session never gets the first function's token.
    el.fetchToken = () => tokens.getToken();
    await expectSessionWithToken(el, tokens, 2);
    await closeForGood(el);
  });

  it('fetches no token ahead after the page closes the flow (closed_by_host): only a user who closed it may come back', async () => {
    const { el, tokens } = await prefetchingElement();
    el.shadowRoot!.querySelector('button')!.click();
    await oneEvent(el, 'link-open');
    const exit = oneEvent(el, 'link-exit');
    el.close();
    expect((await exit).detail.reason).to.equal('closed_by_host');
    // A fetch ahead would have called fetchToken by now: the element starts it before link-exit.
    await el.updateComplete;
    expect(tokens.fetched()).to.equal(1);
    // The user closing the flow does fetch the next token ahead.
    el.shadowRoot!.querySelector('button')!.click();
    await oneEvent(el, 'link-open');
    expect(tokens.fetched()).to.equal(2);
    const closing = oneEvent(el, 'link-exit');
    await sendKeys({ press: 'Escape' });
    expect((await closing).detail.reason).to.equal('user_closed');
    await tokens.until(3);
    el.prefetch = false;
  });

  describe('with the pointer', () => {
    afterEach(() => resetMouse());

    /** Moves the pointer to the middle of `element`. */
    const pointAt = (element: Element) => {
      const box = element.getBoundingClientRect();
      return sendMouse({ type: 'move', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
    };

    it('fetches the next token ahead when the pointer moves over the button, and when it gets focus', async () => {
      const { el, tokens } = await prefetchingElement();
      const button = el.shadowRoot!.querySelector('button')!;
      for (const [nth, warmUp] of [
        [2, () => pointAt(button)],
        [3, () => button.focus()],
      ] as const) {
        // A session closed by the page fetches nothing ahead: the next token comes from the user's next move.
        button.click();
        await oneEvent(el, 'link-open');
        const exit = oneEvent(el, 'link-exit');
        el.close();
        await exit;
        button.blur();
        await warmUp();
        await tokens.until(nth);
        await resetMouse();
      }
      // The Link frame built on the last hint goes with the element.
      el.remove();
    });

    it('fetches nothing ahead when the modal goes away under a resting pointer, leaving it over the button', async () => {
      const { el, tokens } = await prefetchingElement();
      const button = el.shadowRoot!.querySelector('button')!;
      button.click();
      await oneEvent(el, 'link-open');
      // Over the modal's backdrop, where the button is: once the modal is gone, the pointer is over the button.
      await pointAt(button);
      const exit = oneEvent(el, 'link-exit');
      el.close();
      await exit;
      // The browser tells the page what is under the pointer at its next rendering updates.
      await afterRendering();
      await afterRendering();
      expect(tokens.fetched(), 'no hover: the pointer never moved').to.equal(1);
    });
  });

  it('prefetches when token-url and prefetch are set just after connecting, as React wrappers do', async () => {
    const token = fakeTokenUrl('ok');
    const linkUrl = await fakeLinkUrl('idle');
    const el = document.createElement('payroll-link');
    document.body.append(el);
    // @lit/react sets properties in a layout effect, after React has inserted the element.
    el.tokenUrl = token.url;
    el.linkUrl = linkUrl;
    el.prefetch = 'load';
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
    el.setAttribute('prefetch', 'load');
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
    el.prefetch = 'load';
    try {
      await untilCalls(token, 1);
      expect((await token.calls()).map((call) => JSON.parse(call.body))).to.deep.equal([{ end_user_id: 'user-next' }]);
    } finally {
      el.remove();
    }
  });

  it('silently replaces a prefetched token that has expired while waiting', async () => {
    // The prefetched token must have arrived, and been checked, before its life is made to pass: one that arrives
    // expired is the endpoint's failure (TOKEN_EXPIRED, remembered for 10 s), not a token that expired while waiting.
    // Loaded, Firefox once read the answer only after the clock had moved (waiting for the call to reach the
    // server was not enough). The page's own `json()` of the token's answer is watched, a task past its parse.
    const json = Response.prototype.json;
    const read = new Promise<void>((resolve) => {
      Response.prototype.json = function (this: Response) {
        const answer = json.call(this);
        if (new URL(this.url).pathname !== '/fake-token') return answer;
        Response.prototype.json = json;
        return answer.finally(() => setTimeout(resolve));
      };
    });
    let prefetching: Awaited<ReturnType<typeof linkElement>>;
    try {
      prefetching = await linkElement('short,ok', 'success', 'load');
      await read;
    } finally {
      Response.prototype.json = json;
    }
    const { el, token, button } = prefetching;
    // Expiry is about time passing: move this page's clock past the prefetched token's life (1 s) instead of
    // waiting for it.
    const realNow = Date.now;
    Date.now = () => realNow() + 2_000;
    let exit: CustomEvent;
    const events = recordEvents(el);
    try {
      button.click();
      exit = await oneEvent(el, 'link-exit');
    } finally {
      Date.now = realNow;
    }
    events.stop();
    expect(exit.detail.reason, JSON.stringify(exit.detail.error)).to.equal('completed');
    expect(events.of('link-error')).to.have.length(0);
    expect(await token.calls()).to.have.length(2);
  });

  it('prefetches on hover and focus, and drops the token when the end user changes', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`);
    el.dispatchEvent(new PointerEvent('pointermove'));
    // The hover loads the session's code: a token fetched wrongly would start once it is here, before the count.
    await loadSessionCode();
    expect(await token.calls()).to.have.length(0);
    el.prefetch = true;
    el.dispatchEvent(new PointerEvent('pointermove'));
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
