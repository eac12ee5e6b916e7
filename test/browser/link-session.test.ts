import { expect } from '@open-wc/testing';
import { LinkSession } from '../../src/core/link-session.js';
import { MOVES, transition, type SessionEvent, type SessionState, type SessionStateName } from '../../src/core/session-moves.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl } from './helpers.js';

/** The states, as the table lists them (the table is the one list). */
const STATES = Object.keys(MOVES) as SessionStateName[];
const ending = { reason: 'closed_by_host', error: null, accountId: undefined } as const;
const error = { type: 'systemError', code: 'UNEXPECTED', message: 'made up', pendingRetry: false } as const;
const token = { token: 't', id: 'id', expires: null, receivedAt: 0, input: 't' };
/** One event of each name, with what it brings (a token and a message made up: the table reads only their shape). */
const EVENTS: SessionEvent[] = [
  { type: 'show', ...ending },
  { type: 'frameReady' },
  { type: 'token', token },
  {
    type: 'link',
    message: { type: 'payroll-link:event', name: 'open', payload: { linkTokenId: 'id' } },
    accountId: undefined,
    renewable: true,
  },
  { type: 'untyped', message: { type: 'payroll-link:event', name: 'other', payload: {} } },
  { type: 'exit', ...ending },
  { type: 'openUrl', url: 'https://example.com/' },
  { type: 'closeAnswer' },
  { type: 'timeout' },
  { type: 'fail', error },
  { type: 'hidden', ...ending },
  { type: 'requestClose', ...ending },
  { type: 'close', ...ending },
  { type: 'dispose' },
];
/** A state of each name, with made-up data. */
const SAMPLES: { [S in SessionStateName]: SessionState & { name: S } } = {
  prefetched: { name: 'prefetched', frameReady: false },
  waiting: { name: 'waiting', frameReady: false, token: null, renewed: false },
  open: { name: 'open', token, renewed: false, loggedIn: false, succeeded: false },
  failing: { name: 'failing', reason: 'error', error, was: { name: 'waiting', frameReady: false, token: null, renewed: false } },
  ended: { name: 'ended', exit: { reason: 'closed_by_host', error: null, linkTokenId: null } },
  disposed: { name: 'disposed' },
};

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

/** The events that move a session in `state` (as sampled): the others it ignores, or the table forbids them. */
function moving(state: SessionStateName): SessionEvent['type'][] {
  return EVENTS.filter((event) => {
    let next: SessionState | undefined;
    recordingWarnings(() => (next = transition(SAMPLES[state], event)));
    return next !== SAMPLES[state];
  }).map((event) => event.type);
}

describe("the session's table", () => {
  it('leaves the state as it is on a move its rules forbid, and warns, naming the event and the state', () => {
    const state = SAMPLES.prefetched;
    let next: SessionState | undefined;
    const warned = recordingWarnings(() => (next = transition(state, EVENTS[2]!)));
    expect(next).to.equal(state);
    expect(warned).to.have.length(1);
    expect(warned[0]).to.include('payroll-link: bug:').and.include('token').and.include('prefetched');
    // A race the rules expect (a token after a close) changes nothing and is no bug.
    expect(recordingWarnings(() => expect(transition(SAMPLES.ended, EVENTS[2]!)).to.equal(SAMPLES.ended))).to.deep.equal([]);
  });

  it('has rules a reader can check: ended is terminal, nothing leaves disposed but show, only an end ends an open session', () => {
    expect(STATES).to.include.members(['prefetched', 'waiting', 'open', 'failing', 'ended', 'disposed']);
    for (const state of STATES) {
      for (const event of EVENTS) {
        let next: SessionState | undefined;
        recordingWarnings(() => (next = transition(SAMPLES[state], event)));
        expect(STATES, `${event.type}: ${state} → ${next?.name}`).to.include(next?.name);
      }
    }
    expect(moving('ended')).to.deep.equal([]);
    expect(moving('disposed')).to.deep.equal(['show']);
    expect(moving('failing').sort()).to.deep.equal(['close', 'requestClose']);
    const ending: string[] = [];
    recordingWarnings(() => EVENTS.forEach((event) => transition(SAMPLES.open, event).name === 'ended' && ending.push(event.type)));
    expect(ending.sort()).to.deep.equal(['close', 'exit']);
  });

  it('builds each next state from the table: the hand-over once the frame is ready and the token on hand', () => {
    const waiting = transition(SAMPLES.prefetched, EVENTS[0]!);
    expect(waiting).to.deep.equal({ name: 'waiting', frameReady: false, token: null, renewed: false });
    const withToken = transition(waiting, EVENTS[2]!);
    expect(withToken).to.include({ name: 'waiting', frameReady: false });
    expect(transition(withToken, { type: 'frameReady' })).to.deep.equal({
      name: 'open',
      token,
      renewed: false,
      loggedIn: false,
      succeeded: false,
    });
  });
});

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
