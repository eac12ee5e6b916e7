import { expect } from '@open-wc/testing';
import { LinkSession, MOVES, nextState, type SessionEvent, type SessionStateName } from '../../src/core/link-session.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl } from './helpers.js';

const STATES: SessionStateName[] = ['prefetched', 'waiting', 'open', 'failing', 'ended', 'disposed'];

/** Runs `body` with console.warn recorded instead of printed. */
function recordingWarnings(body: () => void): string[] {
  const warned: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => warned.push(args.join(' '));
  try {
    body();
  } finally {
    console.warn = original;
  }
  return warned;
}

describe('LinkSession: the session as one object', () => {
  afterEach(() => expect(deepQueryAll('iframe'), 'no frame outlives its test').to.have.length(0));

  it('warns of a move its rules forbid, names the event and the state, and does not take it', () => {
    let next: ReturnType<typeof nextState> = 'open';
    const warned = recordingWarnings(() => (next = nextState('handOver', 'prefetched')));
    expect(next).to.equal(undefined);
    expect(warned).to.have.length(1);
    expect(warned[0]).to.include('forbidden').and.include('handOver').and.include('prefetched');
    // A race the rules expect (a token after a close) changes nothing and is no bug.
    expect(recordingWarnings(() => expect(nextState('token', 'ended')).to.equal(null))).to.deep.equal([]);
  });

  it('has rules a reader can check: ended is terminal, nothing leaves disposed but show, only close and exit end an open session', () => {
    const events = Object.keys(MOVES) as SessionEvent[];
    for (const event of events) {
      for (const [from, to] of Object.entries(MOVES[event])) {
        expect(STATES, `${event}: ${from}`).to.include(from);
        if (to !== null) expect(STATES, `${event}: ${from} → ${to}`).to.include(to);
      }
      expect(nextState(event, 'ended'), `${event} never leaves ended`).to.equal(null);
    }
    const movesFrom = (state: SessionStateName) => events.filter((event) => nextState(event, state));
    expect(movesFrom('disposed')).to.deep.equal(['show']);
    expect(movesFrom('failing')).to.deep.equal(['close']);
    expect(events.filter((event) => MOVES[event].open === 'ended').sort()).to.deep.equal(['close', 'exit']);
    // Every state but the first can be reached.
    const reached = new Set(events.flatMap((event) => Object.values(MOVES[event])));
    expect(STATES.filter((state) => state !== 'prefetched' && !reached.has(state))).to.deep.equal([]);
  });

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
