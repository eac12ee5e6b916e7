import { expect } from '@open-wc/testing';
import { loadSessionCode } from '../../src/element/load-session.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl, untilCalls } from './helpers.js';
import { prefetchHost } from './prefetch-host.js';

const frames = () => deepQueryAll('iframe') as HTMLIFrameElement[];
/** The token string a prefetched token (a Link token from the fake endpoint) carries. */
const tokenOf = async (input: Promise<unknown> | undefined) => ((await input) as { token: string }).token;

describe('LinkPrefetch: the controller behind prefetch', () => {
  // The frame is built at the sign of intent once the session's code is here (first-intent.test.ts covers the rest).
  before(() => loadSessionCode());
  afterEach(() => expect(frames(), 'no frame outlives its test').to.have.length(0));

  it('prefetches nothing before a sign of intent; a pointer over the host prefetches the token and the frame; take() hands both over once', async () => {
    const token = fakeTokenUrl('ok');
    const host = await prefetchHost({ prefetch: true, tokenUrl: token.url, linkUrl: await fakeLinkUrl('idle') });
    expect(frames(), 'no frame without intent').to.have.length(0);
    host.dispatchEvent(new PointerEvent('pointermove'));
    expect(frames(), 'the frame is built hidden at once').to.have.length(1);
    await untilCalls(token, 1);
    // More signs of intent while both are on hand prefetch no more.
    host.dispatchEvent(new PointerEvent('pointerdown'));
    const first = host.prefetcher.take();
    expect(await tokenOf(first.token?.token)).to.match(/\.1$/);
    expect(frames()).to.have.length(1);
    const second = host.prefetcher.take();
    expect(second.token, 'a token serves one session').to.equal(undefined);
    expect(second.link, 'nor does a frame').to.not.equal(first.link);
    first.link.dispose();
    second.link.dispose();
    host.remove();
    expect(await token.calls()).to.have.length(1);
  });

  it('with prefetch="load" prefetches at the first update, and follows a change of account by itself', async () => {
    const token = fakeTokenUrl('ok');
    const [accountA, accountB] = [crypto.randomUUID(), crypto.randomUUID()];
    const host = await prefetchHost({ prefetch: 'load', tokenUrl: token.url, linkUrl: await fakeLinkUrl('idle'), accountId: accountA });
    await untilCalls(token, 1);
    const [builtForA] = frames();
    host.accountId = accountB;
    await host.updateComplete;
    // The frame and token for A are gone; new ones for B are on their way.
    expect(frames()).to.have.length(1);
    expect(frames()[0]).to.not.equal(builtForA);
    await untilCalls(token, 2);
    const { token: taken, link } = host.prefetcher.take();
    expect(await tokenOf(taken?.token)).to.match(/\.2$/);
    const bodies = (await token.calls()).map((call) => JSON.parse(call.body));
    expect(bodies).to.deep.equal([{ account_id: accountA }, { account_id: accountB }]);
    link.dispose();
    host.remove();
  });

  it('drops what it prefetched when the host is disabled, when prefetch goes off, and with the host', async () => {
    const token = fakeTokenUrl('ok');
    const host = await prefetchHost({ prefetch: 'load', tokenUrl: token.url, linkUrl: await fakeLinkUrl('idle') });
    expect(frames()).to.have.length(1);
    host.disabled = true;
    await host.updateComplete;
    expect(frames(), 'disabled').to.have.length(0);
    host.dispatchEvent(new PointerEvent('pointermove'));
    expect(frames(), 'no prefetch while disabled').to.have.length(0);
    host.disabled = false;
    await host.updateComplete;
    expect(frames(), 'enabled again, with prefetch="load"').to.have.length(1);
    host.prefetch = false;
    await host.updateComplete;
    expect(frames(), 'prefetch off').to.have.length(0);
    host.prefetch = true;
    await host.updateComplete;
    host.dispatchEvent(new PointerEvent('focusin'));
    expect(frames()).to.have.length(1);
    host.remove();
    expect(frames(), 'removed').to.have.length(0);
    // Nothing prefetched for a detached host.
    host.prefetcher.prefetch();
    expect(frames()).to.have.length(0);
  });
});
