/**
 * Typed progress events (#27 part 4): each progress event of the contract reaches `link-event` and `onEvent`
 * typed (`typed: true`), with Pinwheel's names and payload fields; narrowing on `typed` and `name` types the
 * payload (this file type-checks that). Events outside the contract are passed on untyped: see open-link.test.ts
 * ("drops messages ... passes events outside the contract on untyped").
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import { openLink, type LinkEventDetail, type PayrollLink } from '../../src/index.js';
import { fakeLinkUrl, fakeTokenUrl } from './helpers.js';

const platformId = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const employer = { selectedEmployerId: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e', selectedEmployerName: 'Acme Corp' };

/** What an integrator's tracking would read from each progress event: only through the typed payloads. */
function track(event: LinkEventDetail): string | null {
  if (!event.typed) return null;
  switch (event.name) {
    case 'select_employer':
      return `employer ${event.payload.selectedEmployerName}`;
    case 'select_platform':
      return `platform ${event.payload.selectedPlatformName}`;
    case 'login_attempt':
      return `attempt ${event.payload.platformId}`;
    case 'input_allocation':
      return `allocation ${event.payload.action} ${event.payload.allocation?.type} ${event.payload.allocation?.value}`;
    case 'screen_transition':
      return `screen ${event.payload.screenName}`;
    case 'open':
      return `open ${event.payload.linkTokenId}`;
    default:
      return null;
  }
}

describe('typed progress events', () => {
  it('reach link-event typed, each with its Pinwheel-named payload, in order', async () => {
    const token = fakeTokenUrl('ok');
    const el = await fixture<PayrollLink>(
      html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl('progress')}></payroll-link>`,
    );
    const events: LinkEventDetail[] = [];
    el.addEventListener('link-event', (event) => events.push(event.detail));
    const exit = oneEvent(el, 'link-exit');
    el.shadowRoot!.querySelector('button')!.click();
    expect((await exit).detail.reason).to.equal('completed');
    expect(events.every((event) => event.typed)).to.equal(true);
    const linkTokenId = (events[0]!.payload as { linkTokenId: string }).linkTokenId;
    expect(events.map(track).filter(Boolean)).to.deep.equal([
      `open ${linkTokenId}`,
      'screen search',
      'employer Acme Corp',
      'screen login',
      `attempt ${platformId}`,
      'screen allocation',
      'allocation partial_switch amount 25050',
      'platform Paylocity',
    ]);
    const byName = (name: string) => events.find((event) => event.name === name)!.payload;
    expect(byName('select_employer')).to.deep.equal(employer);
    expect(events.filter((event) => event.name === 'screen_transition')[1]!.payload).to.deep.equal({ screenName: 'login', ...employer });
  });

  it('reach openLink({ onEvent }) typed too, callbacks and all', async () => {
    const events: LinkEventDetail[] = [];
    const logins: string[] = [];
    const link = openLink({
      linkUrl: await fakeLinkUrl('progress'),
      fetchToken: async () => `tok.${crypto.randomUUID()}`,
      onEvent: (event) => events.push(event),
      onLogin: ({ accountId }) => logins.push(accountId),
    });
    expect((await link.closed).reason).to.equal('completed');
    expect(events.map((event) => `${event.name}:${event.typed}`)).to.deep.equal([
      'open:true',
      'screen_transition:true',
      'select_employer:true',
      'screen_transition:true',
      'login_attempt:true',
      'login:true',
      'screen_transition:true',
      'input_allocation:true',
      'select_platform:true',
      'success:true',
      'exit:true',
    ]);
    expect(logins).to.have.length(1);
    expect(link.droppedMessages).to.equal(0);
  });
});
