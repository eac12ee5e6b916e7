// #38 part 4: a failing token endpoint is easy to see and is not hammered. The error names the endpoint (never
// its query, user name or password: they may carry a secret), the console says once what failed and where to
// look, and a failed prefetch is remembered: a hover and a click make the endpoint's three tries, not six. The
// token endpoint is the fake of fake-servers.mjs (outside the widget), which counts its calls.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import { openLink, prepareLink, type PayrollLink } from '../../src/index.js';
import { fakeLinkUrl, fakeTokenUrl, untilCalls } from './helpers.js';

/** Records console.error while `run` runs (given a promise of the first call), then puts it back. */
async function consoleErrors(run: (firstError: Promise<void>) => Promise<void>): Promise<string[]> {
  const said: string[] = [];
  const { error } = console;
  let first!: () => void;
  const firstError = new Promise<void>((resolve) => (first = resolve));
  console.error = (...args: unknown[]) => {
    said.push(args.map(String).join(' '));
    first();
  };
  try {
    await run(firstError);
  } finally {
    console.error = error;
  }
  return said;
}

describe('token endpoint failures', () => {
  it('with prefetch, a hover and a click call an endpoint answering 500 three times, and the console says it once', async () => {
    const token = fakeTokenUrl('500');
    const el = await fixture<PayrollLink>(
      html`<payroll-link prefetch token-url=${token.url} link-url=${await fakeLinkUrl('success')}></payroll-link>`,
    );
    const button = el.shadowRoot!.querySelector('button')!;
    let exit: CustomEvent | undefined;
    const said = await consoleErrors(async () => {
      button.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, composed: true }));
      // The prefetch's three tries (5xx is retried): the last one answered, the click comes.
      await untilCalls(token, 3);
      const exited = oneEvent(el, 'link-exit');
      button.click();
      exit = await exited;
      // Another sign of intent right after the failure fetches nothing either.
      button.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, composed: true }));
    });
    expect(exit!.detail.error).to.include({ code: 'TOKEN_HTTP_500' });
    expect(await token.calls(), 'the click reported the failed prefetch, calling nobody').to.have.length(3);
    const endpoint = `${location.origin}/fake-token`;
    expect(exit!.detail.error.message).to.equal(`The token endpoint ${endpoint} answered HTTP 500.`);
    expect(said, 'said once').to.have.length(1);
    expect(said[0]).to.contain(endpoint).and.to.contain('TOKEN_HTTP_500').and.to.contain('docs/errors.md');
    expect(said[0], 'no query in the console').to.not.contain(token.key);
  });

  it('forgets a failed prefetch after 10 s: a sign of intent then fetches again, for the click', async () => {
    const token = fakeTokenUrl('500,500,500,ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link prefetch token-url=${token.url} link-url=${await fakeLinkUrl('success')}></payroll-link>`,
    );
    const button = el.shadowRoot!.querySelector('button')!;
    const now = Date.now;
    await consoleErrors(async (failed) => {
      button.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, composed: true }));
      await failed;
      // One task on: the element has heard the failure too (promise callbacks, run before any next task).
      await new Promise((resolve) => setTimeout(resolve));
      // Ten seconds later, faked by the clock rather than waited for.
      Date.now = () => now() + 10_001;
      try {
        button.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, composed: true }));
        await untilCalls(token, 4);
        const exited = oneEvent(el, 'link-exit');
        button.click();
        expect((await exited).detail.reason).to.equal('completed');
      } finally {
        Date.now = now;
      }
    });
    expect(await token.calls()).to.have.length(4);
  });

  it('prepareLink: open() reports a fetch ahead that has just failed, without calling the endpoint again', async () => {
    const token = fakeTokenUrl('404,ok');
    await consoleErrors(async (failed) => {
      const prepared = prepareLink({ linkUrl: await fakeLinkUrl('success'), tokenUrl: token.url });
      await failed;
      expect((await prepared.open().closed).error).to.include({ code: 'TOKEN_HTTP_404' });
    });
    expect(await token.calls()).to.have.length(1);
  });

  it('names the endpoint without its user name, password, query or fragment', async () => {
    const secretUrl = `${location.protocol}//someone:s3cret@${location.host}/fake-token?key=k3y-s3cret&plan=404#frag`;
    let error: { code: string; message: string } | undefined;
    const said = await consoleErrors(async () => {
      const link = openLink({ linkUrl: await fakeLinkUrl('success'), tokenUrl: secretUrl, tokenFetch: { maxAttempts: 1 } });
      error = (await link.closed).error!;
    });
    // A URL with credentials is refused by fetch itself: the endpoint could not be reached.
    expect(error!.code).to.equal('TOKEN_NETWORK');
    expect(error!.message).to.equal(`The token endpoint ${location.origin}/fake-token could not be reached.`);
    for (const text of [error!.message, ...said]) {
      for (const secret of ['someone', 's3cret', 'frag']) expect(text).to.not.contain(secret);
    }
  });

  it('names fetchToken when the token comes from it', async () => {
    const fetchToken = () => Promise.reject(new Error('backend down'));
    const said = await consoleErrors(async () => {
      const link = openLink({ linkUrl: await fakeLinkUrl('success'), fetchToken, tokenFetch: { maxAttempts: 1 } });
      expect((await link.closed).error!.message).to.equal('The token endpoint fetchToken could not be reached.');
    });
    expect(said).to.have.length(1);
  });
});
