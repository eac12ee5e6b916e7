/**
 * The session's table, pure (#43): `transition(state, event)` returns the next state and the work the move calls
 * for, and nothing else moves a session. Each listed move is taken here from a state of each name, with its target
 * and its effects; an event a state ignores, or one its row does not list, changes nothing and calls for nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MOVES,
  SESSION_TARGETS,
  transition,
  type Effect,
  type SessionEvent,
  type SessionState,
  type SessionStateName,
} from '../../src/core/session-moves.js';
import { recordingWarnings } from '../recording-warnings.js';

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
  { type: 'closeAnswer', answer: 'confirming' },
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
const event = (type: SessionEvent['type']) => EVENTS.find((each) => each.type === type)!;

/** The next state alone (the effects aside), with any warning recorded instead of printed. */
function next(state: SessionState, each: SessionEvent): SessionState {
  let moved: SessionState | undefined;
  recordingWarnings(() => (moved = transition(state, each).state));
  return moved!;
}

/** The events that move a session in `state` (as sampled): the others it ignores, or the table forbids them. */
function moving(state: SessionStateName): SessionEvent['type'][] {
  return EVENTS.filter((each) => next(SAMPLES[state], each) !== SAMPLES[state]).map((each) => each.type);
}

// Moved from test/browser/link-session.test.ts: the same assertions, in Node (the table is pure).
test('leaves the state as it is on a move its rules forbid, and warns, naming the event and the state', () => {
  const state = SAMPLES.prefetched;
  let moved: SessionState | undefined;
  const warned = recordingWarnings(() => (moved = transition(state, EVENTS[2]!).state));
  assert.equal(moved, state);
  assert.equal(warned.length, 1);
  assert.ok(warned[0]!.includes('payroll-link: bug:') && warned[0]!.includes('token') && warned[0]!.includes('prefetched'));
  // A race the rules expect (a token after a close) changes nothing and is no bug.
  assert.deepEqual(
    recordingWarnings(() => assert.equal(transition(SAMPLES.ended, EVENTS[2]!).state, SAMPLES.ended)),
    [],
  );
});

test('has rules a reader can check: ended is terminal, nothing leaves disposed but show, only an end ends an open session', () => {
  for (const name of ['prefetched', 'waiting', 'open', 'failing', 'ended', 'disposed'] as const) assert.ok(STATES.includes(name));
  for (const state of STATES) {
    for (const each of EVENTS) {
      const moved = next(SAMPLES[state], each);
      assert.ok(STATES.includes(moved.name), `${each.type}: ${state} → ${moved.name}`);
    }
  }
  assert.deepEqual(moving('ended'), []);
  assert.deepEqual(moving('disposed'), ['show']);
  assert.deepEqual(moving('failing').sort(), ['close', 'requestClose']);
  const ending: string[] = [];
  recordingWarnings(() => EVENTS.forEach((each) => transition(SAMPLES.open, each).state.name === 'ended' && ending.push(each.type)));
  assert.deepEqual(ending.sort(), ['close', 'exit']);
});

test('builds each next state from the table: the hand-over once the frame is ready and the token on hand', () => {
  const waiting = transition(SAMPLES.prefetched, EVENTS[0]!).state;
  assert.deepEqual(waiting, { name: 'waiting', frameReady: false, token: null, renewed: false });
  const withToken = transition(waiting, EVENTS[2]!).state;
  assert.ok(withToken.name === 'waiting' && withToken.frameReady === false);
  assert.deepEqual(transition(withToken, { type: 'frameReady' }).state, {
    name: 'open',
    token,
    renewed: false,
    loggedIn: false,
    succeeded: false,
  });
});

/** What each listed move calls for from the sampled state, by state and event: the table's effects, written out. */
const EFFECTS: { [S in SessionStateName]: Partial<Record<SessionEvent['type'], Effect[]>> } = {
  prefetched: { show: ['show'], frameReady: ['onReady'], dispose: ['dispose'] },
  waiting: {
    // Not both there yet: the frame without a token, or the token before the frame.
    frameReady: [],
    token: [],
    timeout: ['onError'],
    fail: ['onError'],
    hidden: ['onError'],
    requestClose: ['dispose', 'onExit'],
    close: ['dispose', 'onExit'],
  },
  open: {
    link: ['onEvent'],
    untyped: ['onUntypedEvent'],
    // Ended by the Link page itself: an inline frame keeps its final screen.
    exit: ['keepScreen', 'onExit'],
    openUrl: ['openUrl'],
    requestClose: ['requestClose'],
    closeAnswer: ['closeAnswer'],
    frameReady: ['onError'],
    fail: ['onError'],
    hidden: ['onError'],
    close: ['dispose', 'onExit'],
  },
  failing: { close: ['dispose', 'onExit'], requestClose: ['dispose', 'onExit'] },
  ended: {},
  disposed: { show: ['dispose', 'onExit'] },
};

test('each listed move leads to a state its data lists, with the effects it calls for; any other event changes nothing', () => {
  for (const state of STATES) {
    const row: Readonly<Record<string, readonly string[] | null>> = SESSION_TARGETS[state];
    for (const each of EVENTS) {
      let outcome: ReturnType<typeof transition> | undefined;
      const warned = recordingWarnings(() => (outcome = transition(SAMPLES[state], each)));
      const where = `${state}.${each.type}`;
      const targets = each.type in row ? row[each.type] : undefined;
      if (targets) {
        assert.ok(targets.includes(outcome!.state.name), `${where}: ${outcome!.state.name} is listed`);
        assert.notEqual(outcome!.state, SAMPLES[state], `${where}: a move gives a new state`);
        assert.deepEqual(outcome!.effects, EFFECTS[state][each.type], `${where}: its effects`);
      } else {
        assert.equal(outcome!.state, SAMPLES[state], `${where}: nothing moves`);
        assert.deepEqual(outcome!.effects, [], `${where}: no effect`);
        // Ignored (listed as null, or '*'), or forbidden (a bug: it warns).
        assert.equal(warned.length, targets === null || '*' in row ? 0 : 1, `${where}: a warning only when forbidden`);
      }
      assert.equal(Object.keys(EFFECTS[state]).includes(each.type), Boolean(targets), `${where}: listed in EFFECTS as in the data`);
    }
  }
});

test('the moves that branch: on the state and on what the event brings', () => {
  const open = SAMPLES.open;
  const link = (name: string, payload: object, accountId?: string) =>
    ({ type: 'link', message: { type: 'payroll-link:event', name, payload }, accountId, renewable: true }) as SessionEvent;
  // Both there: the token goes over, and onOpen; a renewed token opens the same session, heard of already.
  assert.deepEqual(transition({ ...SAMPLES.waiting, token }, { type: 'frameReady' }), {
    state: { name: 'open', token, renewed: false, loggedIn: false, succeeded: false },
    effects: ['sendToken', 'onOpen'],
  });
  assert.deepEqual(transition({ ...SAMPLES.waiting, token, renewed: true }, { type: 'frameReady' }).effects, ['sendToken']);
  // Built ahead, loaded again: onReady was said already.
  assert.deepEqual(transition({ name: 'prefetched', frameReady: true }, { type: 'frameReady' }).effects, []);
  // Closed by its user, the Link page's exit leaves nothing on screen; after a success it is completed, and stays.
  assert.deepEqual(transition(open, { ...ending, type: 'exit', reason: 'user_closed' }).effects, ['dispose', 'onExit']);
  const succeeded = transition({ ...open, succeeded: true }, { type: 'exit', reason: 'user_closed', error: null, accountId: undefined });
  assert.deepEqual(succeeded.effects, ['keepScreen', 'onExit']);
  assert.equal(succeeded.state.name === 'ended' && succeeded.state.exit.reason, 'completed');
  // Hidden after a success: the end, not a failure.
  assert.deepEqual(transition({ ...open, succeeded: true }, event('hidden')).effects, ['dispose', 'onExit']);
  // The Link page refused the token: a new frame and a new token, once, before anything else happened.
  const refused = link('error', { ...error, type: 'invalidLinkToken' });
  assert.deepEqual(transition(open, refused), {
    state: { name: 'waiting', frameReady: false, token: null, renewed: true },
    effects: ['renew'],
  });
  assert.deepEqual(transition({ ...open, renewed: true }, refused).effects, ['onEvent']);
  // A login: relayed once, and to the account a reconnect session names only.
  const login = link('login', { accountId: 'a', platformId: 'p', linkTokenId: 'id' });
  assert.deepEqual(transition(open, login), { state: { ...open, loggedIn: true, accountId: 'a' }, effects: ['onEvent'] });
  const loggedIn = transition(open, login).state;
  assert.deepEqual(transition(loggedIn, login), { state: loggedIn, effects: [] });
  const mismatch = transition(open, { ...login, accountId: 'b' } as SessionEvent);
  assert.equal(mismatch.state.name === 'failing' && mismatch.state.error.code, 'ACCOUNT_MISMATCH');
  assert.deepEqual(mismatch.effects, ['onError']);
  // The Link page's own exit is relayed like any Link event; the relay then hands it back as the event `exit`.
  assert.deepEqual(transition(open, link('exit', { reason: 'completed', error: null })).effects, ['onEvent']);
  // A failure being reported ends with that failure, whatever the close says.
  const fromFailing = transition(SAMPLES.failing, { type: 'close', reason: 'closed_by_host', error: null, accountId: undefined }).state;
  assert.equal(fromFailing.name === 'ended' && fromFailing.exit.reason, 'error');
});
