import { expect } from '@open-wc/testing';
import { LinkSession } from '../../src/core/link-session.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl } from './helpers.js';
import { recordingWarnings } from '../recording-warnings.js';

// The table's own tests (transition(), pure) are in test/node/session-moves.test.ts.
describe('LinkSession: the session as one object', () => {
  afterEach(() => expect(deepQueryAll('iframe'), 'no frame outlives its test').to.have.length(0));

  it('can be read at each step: prefetched with its frame, waiting, open with its token, ended with its exit detail', async () => {
    const token = fakeTokenUrl('ok');
    const session = new LinkSession({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: token.url, fetchTokenAhead: false });
    expect(session.state).to.deep.equal({ name: 'prefetched', frameReady: false });
    const warned = recordingWarnings(() => {
      const handle = session.open();
      expect(session.state.name).to.equal('waiting');
      void handle.ready.then(() => {
        const state = session.state;
        expect(state.name).to.equal('open');
        if (state.name === 'open') expect(state).to.include({ loggedIn: false, succeeded: false, renewed: false });
        handle.close();
      });
    });
    const exit = await session.closed;
    expect(warned).to.deep.equal([]);
    expect(session.state).to.deep.equal({ name: 'ended', exit });
    expect(exit).to.include({ reason: 'closed_by_host', error: null });
    // Closed again, or disposed after it ended: nothing moves, nothing warns.
    expect(recordingWarnings(() => session.dispose())).to.deep.equal([]);
    expect(session.state.name).to.equal('ended');
  });

  it('disposed before it was opened, ends at open() with closed_by_host and tears everything down', async () => {
    const session = new LinkSession({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: fakeTokenUrl('ok').url });
    session.dispose();
    expect(session.state).to.deep.equal({ name: 'disposed' });
    expect(deepQueryAll('iframe')).to.have.length(0);
    session.open();
    expect((await session.closed).reason).to.equal('closed_by_host');
    expect(session.state.name).to.equal('ended');
  });
});
