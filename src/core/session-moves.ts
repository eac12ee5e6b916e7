import type { EventMessage, ExitDetail, ExitReason, LinkError, LinkEventEnvelope } from '../protocol.js';
import { exitDetail } from './exit-detail.js';
import type { SessionToken } from './fetch-link-token.js';
import { linkError } from './link-error.js';

/** Nothing more than the name (an event's or a state's). */
type Bare = Record<never, never>;

/** What each state carries: nothing about a session lives beside its state. The states' names are this list's. */
interface StateData {
  /** Built hidden (`prepareLink`): the frame loads; no token reaches it, no callback fires. */
  prefetched: { frameReady: boolean };
  /** Shown: the token goes over once the Link page is ready and the token is on hand. `renewed`: the second token. */
  waiting: { frameReady: boolean; token: SessionToken | null; renewed: boolean };
  /** The token was handed over: Link events count now, login and success at most once each. */
  open: { token: SessionToken; renewed: boolean; loggedIn: boolean; succeeded: boolean; accountId?: string };
  /** A failure being reported (`onError` runs) from state `was`: a close asked for meanwhile ends with this failure. */
  failing: { reason: ExitReason; error: LinkError; was: WaitingState | OpenState };
  /** Terminal: `onExit` was called with `exit`, exactly once, and nothing is called after it. */
  ended: { exit: ExitDetail };
  /** Torn down before anyone opened it: `open()` then ends at once. */
  disposed: Bare;
}

/** A state's name. */
export type SessionStateName = keyof StateData;
/** Where a session is: see {@link MOVES}. */
export type SessionState = { [S in SessionStateName]: { name: S } & StateData[S] }[SessionStateName];
/** The state named `S`. */
export type StateNamed<S extends SessionStateName> = { name: S } & StateData[S];
/**
 * What a move may lead to: one of the states `T`, or `null` when the event changes nothing after all. A move's
 * return type, so the compiler checks each move against the states it names, and the diagram reads them.
 */
export type To<T extends SessionStateName> = (T extends SessionStateName ? StateNamed<T> : never) | null;
/** See {@link StateData}. */
export type WaitingState = StateNamed<'waiting'>;
/** See {@link StateData}. */
export type OpenState = StateNamed<'open'>;

/** How a session ends: the exit's reason and error, and the account it is about when no login said otherwise. */
export interface Ending {
  reason: ExitReason;
  error: LinkError | null;
  accountId: string | undefined;
}

/**
 * What moves a session, with what each brings: the page (`show`, `close`, `requestClose`, `dispose`), the frame
 * (`frameReady`; `link`, a Link event of the contract, and `untyped`, one outside it; `exit`, the Link page's end
 * once its event was heard; `openUrl`, `closeAnswer`), the token (`token`), and the session's own bounds and
 * failures (`timeout`, `fail`).
 */
interface EventData {
  /** How a session shown after `dispose()` ends. */
  show: Ending;
  frameReady: Bare;
  token: { token: SessionToken };
  /** `accountId`: the account a reconnect session must log in to. `renewable`: a new token can be fetched. */
  link: { message: EventMessage; accountId: string | undefined; renewable: boolean };
  untyped: { message: LinkEventEnvelope };
  exit: Ending;
  openUrl: { url: string };
  closeAnswer: Bare;
  timeout: Bare;
  fail: { error: LinkError };
  /** The page hid the modal: it ends as `closed_by_host`. */
  hidden: Ending;
  requestClose: Ending;
  close: Ending;
  dispose: Bare;
}

/** An event's name. */
export type SessionEventName = keyof EventData;
/** An event, with what it brings. */
export type SessionEvent = { [E in SessionEventName]: { type: E } & EventData[E] }[SessionEventName];

/** One move: the next state, built from the state and the event (a method: rows of all states read as one type). */
type Move<S extends SessionStateName, E extends SessionEventName> = {
  move(state: StateNamed<S>, event: { type: E } & EventData[E]): SessionState | null;
}['move'];

/**
 * A state's row: its moves by event. `null`: the event may come in that state and changes nothing; `'*': null`:
 * so may every event the row does not name. Any other event is a move the rules forbid: a bug, never taken.
 */
type Row<S extends SessionStateName> = { [E in SessionEventName]?: Move<S, E> | null } & { '*'?: null };

/** A failure being reported from `state`. */
const failing = (state: WaitingState | OpenState, error: LinkError, reason: ExitReason = 'error'): To<'failing'> => ({
  name: 'failing',
  reason,
  error,
  was: state,
});

/** The session ends: its exit detail, from what the state knows (the token, the account, a success) and `ending`. */
function ended(state: SessionState, { reason, error, accountId }: Ending): To<'ended'> {
  // A failure being reported wins over a close requested from inside its own onError callback.
  if (state.name === 'failing') ({ reason, error, was: state } = state);
  const open = state.name === 'open' ? state : null;
  const token = state.name === 'waiting' ? state.token : open?.token;
  return { name: 'ended', exit: exitDetail(reason, error, token?.id ?? null, open?.accountId ?? accountId, open?.succeeded) };
}

/** The token goes to the frame once the session waits for it (shown, not yet handed over) and both are there. */
const handOver = (state: WaitingState): To<'waiting' | 'open'> =>
  state.frameReady && state.token ? { name: 'open', token: state.token, renewed: state.renewed, loggedIn: false, succeeded: false } : state;

/** A move that keeps the state, for what it calls for (a new object: the same one back means nothing moved). */
const stay = (state: OpenState): To<'open'> => ({ ...state });

/** The page hid the modal: a blocked page with nothing on it. */
const modalHidden = (state: WaitingState | OpenState) =>
  failing(state, linkError('clientError', 'MODAL_HIDDEN', 'The page hid the Link modal.'), 'closed_by_host');

/** A Link event, while the session is open. */
function onLink(
  state: OpenState,
  { message: { name, payload }, accountId, renewable }: EventData['link'],
): To<'open' | 'waiting' | 'failing'> {
  // At most once each: a second is dropped.
  if ((name === 'login' && state.loggedIn) || (name === 'success' && state.succeeded)) return null;
  // The Link page refused a token the widget thought fresh (clocks disagree, or it was spent): before anything
  // else happened, try once more with a new token in a new frame; the user never sees the failure.
  if (name === 'error' && payload.type === 'invalidLinkToken' && !state.loggedIn && !state.succeeded && !state.renewed && renewable) {
    return { name: 'waiting', frameReady: false, token: null, renewed: true };
  }
  if (name === 'login') {
    // A reconnect session brings back one account: a login to another is an error, never a silent new account.
    if (accountId && payload.accountId !== accountId) {
      return failing(
        state,
        linkError('invalidCredentials', 'ACCOUNT_MISMATCH', 'The user logged in to another account than the one to reconnect.'),
      );
    }
    return { ...state, loggedIn: true, accountId: payload.accountId };
  }
  return name === 'success' ? { ...state, succeeded: true, accountId: state.accountId ?? payload.accountId } : { ...state };
}

/**
 * The session's rules: for each state, where each event leads (`a | b`: one of them, as the state and the event
 * say), and which events it ignores (they may come, and change nothing). An event a state's row does not name
 * is a move the rules forbid. Drawn from this table by scripts/session-diagram.ts (here and in docs/session.md;
 * test/node/session-diagram.test.ts fails when a copy is stale):
 *
 * ```text
 * prefetched ── show ────────────────────────────────────────▶ waiting
 *            ── frameReady ──────────────────────────────────▶ prefetched
 *            ── dispose ─────────────────────────────────────▶ disposed
 * waiting    ── frameReady, token ───────────────────────────▶ waiting | open
 *            ── timeout, fail, hidden ───────────────────────▶ failing
 *            ── requestClose, close ─────────────────────────▶ ended
 *               ignores dispose
 * open       ── link ────────────────────────────────────────▶ open | waiting | failing
 *            ── untyped, openUrl, requestClose, closeAnswer ─▶ open
 *            ── exit, close ─────────────────────────────────▶ ended
 *            ── frameReady, fail ────────────────────────────▶ failing
 *            ── hidden ──────────────────────────────────────▶ ended | failing
 *               ignores dispose
 * failing    ── close, requestClose ─────────────────────────▶ ended
 *               ignores any other event
 * ended         ignores every event
 * disposed   ── show ────────────────────────────────────────▶ ended
 *               ignores any other event
 * ```
 */
export const MOVES: { readonly [S in SessionStateName]: Row<S> } = {
  prefetched: {
    show: ({ frameReady }): To<'waiting'> => ({ name: 'waiting', frameReady, token: null, renewed: false }),
    frameReady: (): To<'prefetched'> => ({ name: 'prefetched', frameReady: true }),
    dispose: (): To<'disposed'> => ({ name: 'disposed' }),
  },
  waiting: {
    frameReady: (state): To<'waiting' | 'open'> => handOver({ ...state, frameReady: true }),
    token: (state, { token }): To<'waiting' | 'open'> => handOver({ ...state, token }),
    timeout: (state): To<'failing'> => failing(state, linkError('networkError', 'LINK_UNAVAILABLE', 'The Link page did not load in time.')),
    fail: (state, { error }): To<'failing'> => failing(state, error),
    hidden: (state): To<'failing'> => modalHidden(state),
    // Before the flow holds the port, a close request is a close.
    requestClose: (state, ending): To<'ended'> => ended(state, ending),
    close: (state, ending): To<'ended'> => ended(state, ending),
    dispose: null,
  },
  open: {
    link: (state, event): To<'open' | 'waiting' | 'failing'> => onLink(state, event),
    untyped: stay,
    exit: (state, ending): To<'ended'> => ended(state, ending),
    openUrl: stay,
    requestClose: stay,
    closeAnswer: stay,
    // A second "ready" means the Link page reloaded and lost the single-use token: the session cannot go on.
    frameReady: (state): To<'failing'> =>
      failing(state, linkError('systemError', 'LINK_RELOADED', 'The Link page reloaded during the session.')),
    fail: (state, { error }): To<'failing'> => failing(state, error),
    // Hidden once the job succeeded: the session is complete, nothing failed (see exitDetail).
    hidden: (state, ending): To<'ended' | 'failing'> => (state.succeeded ? ended(state, ending) : modalHidden(state)),
    close: (state, ending): To<'ended'> => ended(state, ending),
    dispose: null,
  },
  // A close, or a close request, from inside onError ends the session with the failure being reported.
  failing: {
    close: (state, ending): To<'ended'> => ended(state, ending),
    requestClose: (state, ending): To<'ended'> => ended(state, ending),
    '*': null,
  },
  ended: { '*': null },
  // open() after dispose(): a session that ends as it begins.
  disposed: { show: (state, ending): To<'ended'> => ended(state, ending), '*': null },
};

/**
 * Where `event` moves a session in `state`: the next state, from the table ({@link MOVES}). The same object
 * back when nothing moves: an event the state ignores, or a move the rules forbid, which is a bug (it warns,
 * naming the event and the state, and is not taken). Pure but for that warning.
 */
export function transition(state: SessionState, event: SessionEvent): SessionState {
  const row: Row<SessionStateName> = MOVES[state.name];
  const move: Move<SessionStateName, SessionEventName> | null | undefined = event.type in row ? row[event.type] : row['*'];
  if (move === undefined) forbidden(event.type, state.name);
  return move?.(state, event) ?? state;
}

const forbidden = (event: SessionEventName, from: SessionStateName) =>
  console.warn('payroll-link: bug: a forbidden move, not taken:', event, 'in', from);
