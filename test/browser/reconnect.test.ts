/**
 * Reconnect (#16) in the widget: `account-id` goes to the token endpoint as
 * `account_id`, the session's details carry it, a login to another account is
 * an error, and a token fetched ahead for one account never serves another.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import type { PayrollLink } from '../../src/index.js';
import { fakeLinkUrl, fakeTokenUrl, recordEvents, untilCalls } from './helpers.js';

/** The account the fake Link page logs in to (test/browser/fake-link/fake-link.ts). */
const FAKE_ACCOUNT = '3f0c2a3e-5d6b-4c8d-9e0f-1a2b3c4d5e6f';
const OTHER_ACCOUNT = '9b1d7c52-0e4f-4a6b-8c3d-2f5e6a7b8c9d';

async function reconnectElement(accountId: string, scenario = 'success', prefetch = false) {
  const token = fakeTokenUrl('ok');
  const el = await fixture<PayrollLink>(
    html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl(scenario)} end-user-id="user-7" account-id=${accountId} ?prefetch=${prefetch}></payroll-link>`,
  );
  return { el, token, button: el.shadowRoot!.querySelector('button')! };
}

describe('<payroll-link account-id> (reconnect)', () => {
  it('asks the token endpoint for { end_user_id, account_id } and ends completed with that account', async () => {
    const { el, token, button } = await reconnectElement(FAKE_ACCOUNT);
    const events = recordEvents(el);
    const exit = oneEvent(el, 'link-exit');
    button.click();
    const { detail } = await exit;
    events.stop();
    expect((await token.calls()).map((call) => JSON.parse(call.body))).to.deep.equal([{ end_user_id: 'user-7', account_id: FAKE_ACCOUNT }]);
    expect(events.of('link-login').map((event) => event.detail.accountId)).to.deep.equal([FAKE_ACCOUNT]);
    expect(detail.reason).to.equal('completed');
    expect(detail.accountId).to.equal(FAKE_ACCOUNT);
  });

  it('ends a session whose user logs in to another account with ACCOUNT_MISMATCH, never a login', async () => {
    const { el, button } = await reconnectElement(OTHER_ACCOUNT);
    const events = recordEvents(el);
    const exit = oneEvent(el, 'link-exit');
    button.click();
    const { detail } = await exit;
    events.stop();
    expect(events.types()).to.deep.equal(['link-open', 'link-error', 'link-exit']);
    expect(events.of('link-error')[0]!.detail).to.include({ type: 'invalidCredentials', code: 'ACCOUNT_MISMATCH', pendingRetry: false });
    expect(detail.reason).to.equal('error');
    expect(detail.error?.code).to.equal('ACCOUNT_MISMATCH');
    expect(detail.accountId, 'the account the session was for, not the other one').to.equal(OTHER_ACCOUNT);
  });

  it('never hands a token fetched ahead for one account to another', async () => {
    const { el, token, button } = await reconnectElement(FAKE_ACCOUNT, 'idle', true);
    button.focus();
    await untilCalls(token, 1);
    el.accountId = OTHER_ACCOUNT;
    await el.updateComplete;
    const open = oneEvent(el, 'link-open');
    button.click();
    await open;
    const bodies = (await token.calls()).map((call) => JSON.parse(call.body).account_id);
    expect(bodies).to.deep.equal([FAKE_ACCOUNT, OTHER_ACCOUNT]);
    const exit = oneEvent(el, 'link-exit');
    el.close();
    await exit;
  });
});
