// payroll-link/testing's mockLink() (#52) with the element in the three engines, as an app's component test in a
// real browser would use it: the element's own button, its prefetch on a sign of intent, its events and callback
// properties. The token endpoint is the suite's fake (it counts its calls): a scripted session must call it only
// with `tokenUrl: 'call'`. No Link page loads, and restore() gives the real session back (the fake Link page then).
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import type { PayrollLink } from '../../src/index.js';
import { findLinkButton, mockLink, type MockLink } from '../../src/testing/index.js';
import { UUID, deepQueryAll, fakeLinkUrl, fakeTokenUrl, recordEvents, untilCalls } from './helpers.js';

const frames = () => deepQueryAll('iframe');

describe('mockLink() with <payroll-link>', () => {
  let link: MockLink | undefined;
  afterEach(() => {
    link?.restore();
    link = undefined;
    expect(frames(), 'no frame outlives its test').to.have.length(0);
  });

  it('plays a session into the element: its events and callbacks in order, no frame, no token fetch despite prefetch', async () => {
    link = mockLink();
    const token = fakeTokenUrl();
    const el = await fixture<PayrollLink>(
      html`<payroll-link prefetch token-url=${token.url} end-user-id="user-9" link-url=${await fakeLinkUrl()}></payroll-link>`,
    );
    const events = recordEvents(el);
    const saved: string[] = [];
    el.onSuccess = ({ accountId, jobId }) => saved.push(`${accountId}/${jobId}`);
    const button = await findLinkButton();
    // A sign of intent: the prefetch builds the flow ahead and would fetch a token (the scripted one, here).
    button.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, composed: true }));
    button.click();
    const session = await link.opened();
    expect(session.options.endUserId).to.equal('user-9');
    expect(el.open).to.equal(true);
    expect(frames()).to.have.length(0);
    const login = link.login();
    const success = link.success();
    const exited = oneEvent(el, 'link-exit');
    link.exit();
    const { detail: exit } = await exited;
    events.stop();
    expect(events.types()).to.deep.equal(['link-open', 'link-login', 'link-success', 'link-exit']);
    expect(events.of('link-login')[0]!.detail).to.deep.equal(login);
    expect(saved).to.deep.equal([`${login.accountId}/${success.jobId}`]);
    expect(exit.reason).to.equal('completed');
    expect(exit.linkTokenId).to.match(UUID);
    expect(el.open).to.equal(false);
    expect(await token.calls()).to.have.length(0);
  });

  it('an inline element: show() opens a scripted session in place, and its exit ends it', async () => {
    link = mockLink();
    const el = await fixture<PayrollLink>(
      html`<payroll-link display="inline" token-url=${fakeTokenUrl().url} link-url=${await fakeLinkUrl()}></payroll-link>`,
    );
    void el.show();
    const session = await link.opened();
    expect(session.options.display).to.equal('inline');
    link.error('JOB_FAILED');
    const exited = oneEvent(el, 'link-exit');
    link.exit({ reason: 'error' });
    const { detail } = await exited;
    expect(detail.error?.code).to.equal('JOB_FAILED');
    expect(el.shadowRoot!.querySelector('[part="error"]')).to.not.equal(null);
  });

  it("tokenUrl: 'call' keeps the element's token request: one call, its token's id in link-open", async () => {
    link = mockLink({ tokenUrl: 'call' });
    const token = fakeTokenUrl();
    const el = await fixture<PayrollLink>(html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl()}></payroll-link>`);
    const opened = oneEvent(el, 'link-open');
    (await findLinkButton()).click();
    await link.opened();
    const { detail } = await opened;
    await untilCalls(token, 1);
    expect(await token.calls()).to.have.length(1);
    expect(detail.linkTokenId).to.match(UUID);
    el.close();
  });

  it('a flow the element built ahead under the script opens a real session after restore(), with a token of its own', async () => {
    link = mockLink();
    const token = fakeTokenUrl();
    // The fake Link page stays idle once it has its token: the session ends when the test closes it.
    const el = await fixture<PayrollLink>(
      html`<payroll-link prefetch token-url=${token.url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`,
    );
    const button = await findLinkButton();
    const ready = oneEvent(el, 'link-ready');
    button.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, composed: true }));
    await ready;
    link.restore();
    const opened = oneEvent(el, 'link-open');
    button.click();
    await opened;
    const exited = oneEvent(el, 'link-exit');
    expect(frames()).to.have.length(1);
    expect(await token.calls(), 'the scripted token is never handed to a real session: it fetches its own').to.have.length(1);
    el.close();
    await exited;
  });

  it('a Link URL the real session refuses ends the scripted one the same way: INVALID_LINK_URL', async () => {
    link = mockLink();
    const el = await fixture<PayrollLink>(
      html`<payroll-link token-url=${fakeTokenUrl().url} link-url="http://link.example.com/link"></payroll-link>`,
    );
    const exited = oneEvent(el, 'link-exit');
    (await findLinkButton()).click();
    const session = await link.opened();
    expect(session.state).to.equal('ended');
    expect((await exited).detail.error?.code).to.equal('INVALID_LINK_URL');
  });

  it('after restore(), the element opens the real session again (its Link frame)', async () => {
    link = mockLink();
    link.restore();
    const el = await fixture<PayrollLink>(
      html`<payroll-link token-url=${fakeTokenUrl().url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`,
    );
    const opened = oneEvent(el, 'link-open');
    (await findLinkButton()).click();
    await opened;
    expect(frames()).to.have.length(1);
    const exited = oneEvent(el, 'link-exit');
    el.close();
    await exited;
  });
});
