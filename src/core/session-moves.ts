import type { CloseAnswerMessage, EventMessage, ExitDetail, ExitReason, LinkError, LinkEventEnvelope } from '../protocol.js';
import { exitDetail } from './exit-detail.js';
import type { SessionToken } from './fetch-link-token.js';
import { linkError } from './link-error.js';
import type { ElementEvents, OwnEventName } from '../protocol/element-events.js';

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
 * (`frameReady`; `link`, a Link event of the contract, and `untyped`, one outside it; `exit`, the Link page's end after
 * its event; `openUrl`, `closeAnswer`), the token (`token`), and the session's bounds and failures (`timeout`, `fail`).
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
  /** Whether or not a close request is pending: the Link page says so each time it starts asking its user. */
  closeAnswer: { answer: CloseAnswerMessage['answer'] };
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
/** The event named `E`, with what it brings. */
export type EventNamed<E extends SessionEventName> = { type: E } & EventData[E];
/** An event, with what it brings. */
export type SessionEvent = { [E in SessionEventName]: EventNamed<E> }[SessionEventName];

/**
 * The work a move calls for, by name: each is one function of `LinkSession`'s, handed the state the move enters and
 * the event that made it; here, what it needs of them (a move may call for it only where both fit, see {@link Step}).
 */
interface EffectInput extends Record<OwnEventCallback, unknown[]> {
  /** Built ahead, the frame loaded: `onReady`. */
  onReady: [];
  /** Show the flow and take the token. */
  show: [WaitingState];
  /** Hand the token over: the Link page shows. */
  sendToken: [OpenState];
  /** The first token handed over: `onOpen`. */
  onOpen: [OpenState];
  /** A new frame and a new token. */
  renew: [];
  /** `onError`, then the end (a close from inside onError ends the session first). */
  onError: [StateNamed<'failing'>];
  /** Stop everything and remove what the session added to the page. */
  dispose: [];
  /** The same, but an inline frame stays on the Link page's final screen. */
  keepScreen: [];
  /** `ready` and `closed` settle, `onExit`: always last. */
  onExit: [StateNamed<'ended'>];
  /**
   * A Link event to the integrator: `onEvent`, and the callback of its name (`onLogin`, `onSuccess`, `onError`). The
   * Link page's `exit` then comes back as the event `exit`, which ends the session (unless a callback of it did).
   */
  onEvent: [OpenState, EventNamed<'link'>];
  /** A Link event outside the contract: `onEvent`. */
  onUntypedEvent: [OpenState, EventNamed<'untyped'>];
  /** The window the Link page asks for. */
  openUrl: [OpenState, EventNamed<'openUrl'>];
  /** Ask the flow to close, within a bound. */
  requestClose: [OpenState, EventNamed<'requestClose'>];
  /** The flow asks its user whether to leave (`confirming`), or they stayed (`stay`): the bound is off. */
  closeAnswer: [OpenState, EventNamed<'closeAnswer'>];
}

/**
 * The callbacks of the element's events the session fires itself (no `linkEvent` in `ELEMENT_EVENTS`): each is an
 * effect of that name, so that `LinkSession` must run it (a row added without one is a type error there).
 */
type OwnEventCallback = ElementEvents[OwnEventName]['callback'];

/** What a move calls for: see {@link EffectInput}. */
export type Effect = keyof EffectInput;

/** What each effect is, as `LinkSession` runs it: a function of the state and the event it needs. */
export type EffectRunners = { [K in Effect]: (...input: EffectInput[K]) => void };

/** The effects a move into state `S` on event `E` may call for: those whose input the two fit. */
type EffectOn<S, E> = { [K in Effect]: [S, E] extends [...EffectInput[K], ...unknown[]] ? K : never }[Effect];

/** A move's outcome: the next state, one of `T`, and the work it calls for, in order. */
export type Step<T extends SessionStateName, E extends SessionEventName = SessionEventName> = T extends SessionStateName
  ? { state: StateNamed<T>; effects: readonly EffectOn<StateNamed<T>, EventNamed<E>>[] }
  : never;

/** One move's outcome in `T`, or `null` if the event changes nothing after all (a method: rows read as one type). */
type Move<S extends SessionStateName, E extends SessionEventName, T extends SessionStateName> = {
  move(state: StateNamed<S>, event: EventNamed<E>): Step<T, E> | null;
}['move'];

/**
 * Where each move may lead, as data: for each state, each event with the states its move may reach, or `null`
 * for an event it ignores (`'*': null`: every event the row does not name). Drawn by scripts/session-diagram.ts
 * (here and in docs/session.md; test/node/session-diagram.test.ts fails when a copy is stale):
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
 *
 * The table {@link MOVES} is typed from it: a move that can reach a state not listed here, or a row that names
 * other events, does not compile. Nothing in the session's code reads it, so it ships no byte.
 */
export const SESSION_TARGETS = {
  prefetched: { show: ['waiting'], frameReady: ['prefetched'], dispose: ['disposed'] },
  waiting: {
    frameReady: ['waiting', 'open'],
    token: ['waiting', 'open'],
    timeout: ['failing'],
    fail: ['failing'],
    hidden: ['failing'],
    requestClose: ['ended'],
    close: ['ended'],
    dispose: null,
  },
  open: {
    link: ['open', 'waiting', 'failing'],
    untyped: ['open'],
    exit: ['ended'],
    openUrl: ['open'],
    requestClose: ['open'],
    closeAnswer: ['open'],
    frameReady: ['failing'],
    fail: ['failing'],
    hidden: ['ended', 'failing'],
    close: ['ended'],
    dispose: null,
  },
  failing: { close: ['ended'], requestClose: ['ended'], '*': null },
  ended: { '*': null },
  disposed: { show: ['ended'], '*': null },
} as const satisfies {
  readonly [S in SessionStateName]: { readonly [E in SessionEventName]?: readonly SessionStateName[] | null } & { readonly '*'?: null };
};

/** The targets of the moves of state `S` (see {@link SESSION_TARGETS}). */
type Targets<S extends SessionStateName> = (typeof SESSION_TARGETS)[S];

/**
 * A state's row: its moves by event, each typed by the states it may lead to. `null`: the event may come in that
 * state and changes nothing; `'*': null`: so may every event the row does not name. Any other event is a move the
 * rules forbid: a bug, never taken.
 */
type Row<S extends SessionStateName> = {
  readonly [E in keyof Targets<S>]: Targets<S>[E] extends readonly (infer T extends SessionStateName)[]
    ? E extends SessionEventName
      ? Move<S, E, T>
      : never
    : null;
};

/** Any state's row, as `transition` reads it. */
type AnyRow = { readonly [E in SessionEventName]?: Move<SessionStateName, E, SessionStateName> | null } & { readonly '*'?: null };

/** A move's outcome: see {@link Step}. */
const step = <S extends SessionState, K extends Effect = never>(state: S, ...effects: K[]) => ({ state, effects });

/** A failure being reported from `state`: `onError`, then the end. */
const failing = (state: WaitingState | OpenState, error: LinkError, reason: ExitReason = 'error') =>
  step({ name: 'failing', reason, error, was: state }, 'onError');

/**
 * The session ends: its exit detail, from what the state knows (the token, the account, a success) and `ending`.
 * Ended by the Link page itself on its final screen (`onScreen`: its exit, for success or error), an inline frame
 * stays there; closed by its user (its own close, or its answer to a close request), nothing is left to show.
 */
function ended(state: SessionState, { reason, error, accountId }: Ending, onScreen?: boolean) {
  // A failure being reported wins over a close requested from inside its own onError callback.
  if (state.name === 'failing') ({ reason, error, was: state } = state);
  const open = state.name === 'open' ? state : null;
  const token = state.name === 'waiting' ? state.token : open?.token;
  const exit = exitDetail(reason, error, token?.id ?? null, open?.accountId ?? accountId, open?.succeeded);
  return step({ name: 'ended', exit }, onScreen && exit.reason !== 'user_closed' ? 'keepScreen' : 'dispose', 'onExit');
}

/** The token goes to the frame once the session waits for it (shown, not yet handed over) and both are there. */
const handOver = (state: WaitingState) => {
  if (!state.frameReady || !state.token) return step(state);
  const open = { name: 'open', token: state.token, renewed: state.renewed, loggedIn: false, succeeded: false } as const;
  // A renewed token opens the same session: the integrator heard onOpen already.
  return state.renewed ? step(open, 'sendToken') : step(open, 'sendToken', 'onOpen');
};

/** The page hid the modal: a blocked page with nothing on it. */
const modalHidden = (state: WaitingState | OpenState) =>
  failing(state, linkError('clientError', 'MODAL_HIDDEN', 'The page hid the Link modal.'), 'closed_by_host');

/** A Link event, while the session is open. */
function onLink(state: OpenState, event: EventNamed<'link'>): Step<'open' | 'waiting' | 'failing', 'link'> | null {
  const { name, payload } = event.message;
  // At most once each: a second is dropped.
  if ((name === 'login' && state.loggedIn) || (name === 'success' && state.succeeded)) return null;
  // The Link page refused a token the widget thought fresh (clocks disagree, or it was spent): before anything
  // else happened, try once more with a new token in a new frame; the user never sees the failure.
  if (name === 'error' && payload.type === 'invalidLinkToken' && !state.loggedIn && !state.succeeded && !state.renewed && event.renewable) {
    return step({ name: 'waiting', frameReady: false, token: null, renewed: true }, 'renew');
  }
  if (name === 'login') {
    // A reconnect session brings back one account: a login to another is an error, never a silent new account.
    if (event.accountId && payload.accountId !== event.accountId) {
      return failing(
        state,
        linkError('invalidCredentials', 'ACCOUNT_MISMATCH', 'The user logged in to another account than the one to reconnect.'),
      );
    }
    return step({ ...state, loggedIn: true, accountId: payload.accountId }, 'onEvent');
  }
  return step(
    name === 'success' ? { ...state, succeeded: true, accountId: state.accountId ?? payload.accountId } : { ...state },
    'onEvent',
  );
}

/**
 * The session's rules: for each state, what each event does (the next state, one of those {@link SESSION_TARGETS}
 * lists, and the work it calls for), and which events it ignores (they may come, and change nothing). An event a
 * state's row does not name is a move the rules forbid. A move that stays gives a new object (the same one back
 * means nothing moved).
 */
export const MOVES: { readonly [S in SessionStateName]: Row<S> } = {
  prefetched: {
    show: ({ frameReady }) => step({ name: 'waiting', frameReady, token: null, renewed: false }, 'show'),
    // Built ahead and loaded, not yet shown: open() would be instant now. Said once (a reload before open() is silent).
    frameReady: (state) => (state.frameReady ? step({ ...state }) : step({ ...state, frameReady: true }, 'onReady')),
    dispose: () => step({ name: 'disposed' }, 'dispose'),
  },
  waiting: {
    frameReady: (state) => handOver({ ...state, frameReady: true }),
    token: (state, { token }) => handOver({ ...state, token }),
    timeout: (state) => failing(state, linkError('networkError', 'LINK_UNAVAILABLE', 'The Link page did not load in time.')),
    fail: (state, { error }) => failing(state, error),
    hidden: modalHidden,
    // Before the flow holds the port, a close request is a close.
    requestClose: ended,
    close: ended,
    dispose: null,
  },
  open: {
    link: onLink,
    untyped: (state) => step({ ...state }, 'onUntypedEvent'),
    exit: (state, ending) => ended(state, ending, true),
    openUrl: (state) => step({ ...state }, 'openUrl'),
    requestClose: (state) => step({ ...state }, 'requestClose'),
    closeAnswer: (state) => step({ ...state }, 'closeAnswer'),
    // A second "ready" means the Link page reloaded and lost the single-use token: the session cannot go on.
    frameReady: (state) => failing(state, linkError('systemError', 'LINK_RELOADED', 'The Link page reloaded during the session.')),
    fail: (state, { error }) => failing(state, error),
    // Hidden once the job succeeded: the session is complete, nothing failed (see exitDetail).
    hidden: (state, ending) => (state.succeeded ? ended(state, ending) : modalHidden(state)),
    close: ended,
    dispose: null,
  },
  // A close, or a close request, from inside onError ends the session with the failure being reported.
  failing: { close: ended, requestClose: ended, '*': null },
  ended: { '*': null },
  // open() after dispose(): a session that ends as it begins.
  disposed: { show: ended, '*': null },
};

/**
 * What `event` does to a session in `state`, from the table ({@link MOVES}): the next state, and the work the move
 * calls for, in order. The same state back and no work when nothing moves: an event the state ignores, or a move the
 * rules forbid, which is a bug (it warns, naming the event and the state, and is not taken). Pure but for that warning.
 */
export function transition(state: SessionState, event: SessionEvent): { state: SessionState; effects: readonly Effect[] } {
  const row: AnyRow = MOVES[state.name];
  const move = event.type in row ? row[event.type] : row['*'];
  if (move === undefined) console.warn('payroll-link: bug: a forbidden move, not taken:', event.type, 'in', state.name);
  return (move as Move<SessionStateName, SessionEventName, SessionStateName> | null | undefined)?.(state, event) ?? step(state);
}
