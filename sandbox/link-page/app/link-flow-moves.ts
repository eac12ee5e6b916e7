/**
 * The Link flow as a table: intro → search → login (→ one-time code) → allocation → running → success, with
 * error, invalid-token and close paths. Each screen lists the events it takes; a move is a pure function of the
 * screen and the event that returns the next screen and the effects to run (link-flow-events.ts). An event a
 * screen does not list changes nothing: that is how an answer for a screen the user has left is dropped, with no
 * check of the screen after the await that brought it. `LinkFlow` (link-flow.ts) runs the effects.
 */
import type { EventMessage, FrameExitPayload, LinkError, LinkErrorType, ScreenTransitionPayload } from '../../../src/protocol.js';
import { linkError } from '../../../src/shared/link-error.js';
import type { Allocation } from '../../api/link-api-schemas.js';
import { OAUTH_PLATFORM } from '../../state/oauth-platform.js';
import { LinkApiError } from './link-api-client.js';
import type { ConnectedLogin, LinkFlowEffect, LinkFlowEventOf, LinkFlowEventType, LinkFlowEvent } from './link-flow-events.js';
import {
  FRESH_FORM,
  FRESH_WAIT,
  SILENT_SCREENS,
  type Connected,
  type Known,
  type LinkFlowScreen,
  type LinkProvider,
  type LinkScreenName,
  type ScreenOf,
  type Started,
  type OAuthWindow,
  type Wait,
} from './link-flow-screen.js';

/** The screens a failure ends on. */
const FAILED = ['error', 'invalid_token'] as const;
/** Where leaving the flow before its outcome leads. */
const CLOSED = ['closed'] as const;

/**
 * Where each move may lead, by screen and event: the table below must list exactly these events for each screen,
 * and a move whose result can be a screen not listed here fails the typecheck. A move that may change nothing
 * lists its own screen. Read this, not the source, to draw the flow.
 */
export const LINK_FLOW_TARGETS = {
  waiting: {
    init: ['waiting'],
    standalone: ['standalone'],
    refused: FAILED,
    started: ['intro', 'search', 'login'],
    startFailed: FAILED,
    closeRequest: CLOSED,
  },
  standalone: {},
  intro: { begin: ['search', 'login'], close: CLOSED, closeRequest: CLOSED },
  search: { pick: ['login'], close: CLOSED, closeRequest: CLOSED },
  login: {
    back: ['login', 'search'],
    logIn: ['login'],
    logInWithOAuth: ['login'],
    openUrlResult: ['login'],
    loggedIn: ['login', 'mfa', 'allocation'],
    loginFailed: ['login', ...FAILED],
    oauthStarted: ['login'],
    oauthStartFailed: FAILED,
    oauthLoggedIn: ['login', 'allocation'],
    oauthWaitNear: ['login'],
    oauthWaitPassed: ['login'],
    keepWaiting: ['login'],
    tryAgain: ['login'],
    oauthFailed: ['login', ...FAILED],
    jobStarted: ['login', 'running'],
    jobStartFailed: FAILED,
    close: CLOSED,
    closeRequest: CLOSED,
  },
  mfa: {
    back: ['mfa', 'search'],
    verify: ['mfa'],
    loggedIn: ['mfa', 'allocation'],
    loginFailed: ['mfa', ...FAILED],
    jobStarted: ['mfa', 'running'],
    jobStartFailed: FAILED,
    close: CLOSED,
    closeRequest: CLOSED,
  },
  allocation: { allocate: ['allocation'], jobStarted: ['running'], jobStartFailed: FAILED, close: CLOSED, closeRequest: CLOSED },
  running: {
    jobEnded: ['success', 'error'],
    jobFailed: FAILED,
    jobWaitNear: ['running'],
    jobWaitPassed: ['running'],
    keepWaiting: ['running'],
    leave: ['running', 'closed'],
    stay: ['running'],
    close: ['running'],
    closeRequest: ['running'],
  },
  success: { close: ['success', 'closed'], closeRequest: ['success', 'closed'] },
  error: { close: ['error', 'closed'], closeRequest: ['error', 'closed'] },
  invalid_token: { close: ['invalid_token', 'closed'], closeRequest: ['invalid_token', 'closed'] },
  closed: {},
} as const satisfies { readonly [S in LinkScreenName]: { readonly [E in LinkFlowEventType]?: readonly LinkScreenName[] } };

type Targets = typeof LINK_FLOW_TARGETS;

/** The next screen and the effects to run, in order, once it is shown. */
export interface Step<S extends LinkFlowScreen = LinkFlowScreen> {
  readonly state: S;
  readonly effects: readonly LinkFlowEffect[];
}

/** One move of screen `S` on event `E`, to one of the screens `T`. */
type Move<S extends LinkScreenName, E extends LinkFlowEventType, T extends LinkScreenName> = (
  state: ScreenOf<S>,
  event: LinkFlowEventOf<E>,
) => Step<ScreenOf<T>>;

/** The table's shape, from the targets: each screen's events, each move typed by where it may lead. */
type Table = {
  readonly [S in LinkScreenName]: {
    readonly [E in keyof Targets[S] & LinkFlowEventType]: Move<
      S,
      E,
      Targets[S][E] extends readonly (infer T extends LinkScreenName)[] ? T : never
    >;
  };
};

type EventOf<N extends EventMessage['name']> = Extract<EventMessage, { name: N }>;

/** The effect that sends one Link event to the widget. */
function emit<N extends EventMessage['name']>(name: N, payload: EventOf<N>['payload']): LinkFlowEffect {
  // The cast joins name and payload, which TypeScript checks separately; LinkPageChannel validates the result.
  return { type: 'emit', message: { type: 'payroll-link:event', name, payload } as EventOf<N> };
}

/** No move: the screen stays as it is, and nothing is done. */
const unchanged = <S extends LinkFlowScreen>(state: S): Step<S> => ({ state, effects: [] });

/** Changes the data of the screen shown, which stays: no `screen_transition`. */
const patch = <S extends LinkFlowScreen>(state: S, change: Partial<S>, ...effects: LinkFlowEffect[]): Step<S> => ({
  state: { ...state, ...change },
  effects,
});

/** Shows a new screen after `before`: the widget hears of it (but for the silent ones). */
function go<S extends LinkFlowScreen>(next: S, ...before: LinkFlowEffect[]): Step<S> {
  if (SILENT_SCREENS.has(next.name)) return { state: next, effects: before };
  return { state: next, effects: [...before, emit('screen_transition', { screenName: next.name, ...picked(known(next).provider) })] };
}

/** A call the form started is in flight: it clears the form's last problem. */
const busy = <S extends ScreenOf<'login' | 'mfa' | 'allocation'>>(state: S, ...effects: LinkFlowEffect[]): Step<S> =>
  patch<S>(state, { busy: true, formError: null } as Partial<S>, ...effects);

/** What the flow knows on `screen`. */
export function known(screen: LinkFlowScreen): Known {
  return {
    started: 'started' in screen ? screen.started : null,
    provider: 'provider' in screen ? screen.provider : null,
    connected: 'connected' in screen ? screen.connected : null,
  };
}

/** The session ends on an error screen, which keeps what the flow knew; the widget hears the error first. */
function end<N extends 'error' | 'invalid_token'>(state: LinkFlowScreen, name: N, error: LinkError, ...before: LinkFlowEffect[]) {
  return go({ name, error, exited: false, ...known(state) } as ScreenOf<N>, ...before, emit('error', error));
}

/** Turns any failure into a terminal error screen with a typed {@link LinkError}. */
function fail(state: LinkFlowScreen, cause: unknown): Step<ScreenOf<'error' | 'invalid_token'>> {
  if (!(cause instanceof LinkApiError)) {
    const error = linkError('systemError', 'UNEXPECTED', 'Something went wrong in the Link flow.');
    return end(state, 'error', error, { type: 'logUnexpected', cause });
  }
  const invalidToken = cause.code === 'INVALID_LINK_TOKEN' || cause.code === 'INVALID_LINK_SESSION';
  const type: LinkErrorType = invalidToken
    ? 'invalidLinkToken'
    : cause.code === 'NETWORK_ERROR'
      ? 'networkError'
      : // Credentials of another account in a reconnect session: terminal, the session exists to bring back one account.
        cause.code === 'ACCOUNT_MISMATCH'
        ? 'invalidCredentials'
        : 'systemError';
  return end(state, invalidToken ? 'invalid_token' : 'error', linkError(type, cause.code, cause.message));
}

/** The `exit` event and the channel's end: sent at most once, always last (no screen after it takes an event). */
function exitEffects(state: LinkFlowScreen, reason: FrameExitPayload['reason'], error: LinkError | null): LinkFlowEffect[] {
  const payload: FrameExitPayload = { reason, error };
  const accountId = known(state).connected?.accountId;
  if (accountId) payload.accountId = accountId;
  return [emit('exit', payload), { type: 'disconnect' }];
}

/** Leaves the flow before its outcome: `user_closed`, and the page is closed. */
const quit = (state: LinkFlowScreen): Step<ScreenOf<'closed'>> => go({ name: 'closed' }, ...exitEffects(state, 'user_closed', null));

/**
 * Leaves a final screen, reporting its outcome (`completed` after success, `error` after a failure). Inline, the
 * page shows on in the widget's page: the final screen stays there, with nothing left to press.
 */
function leaveFinal<S extends ScreenOf<'success' | 'error' | 'invalid_token'>>(state: S, inline: boolean): Step<S | ScreenOf<'closed'>> {
  const screen: ScreenOf<'success' | 'error' | 'invalid_token'> = state;
  if (screen.exited) return unchanged(state);
  const effects = screen.name === 'success' ? exitEffects(screen, 'completed', null) : exitEffects(screen, 'error', screen.error);
  return inline ? patch(state, { exited: true } as Partial<S>, ...effects) : go({ name: 'closed' }, ...effects);
}

/** The login screen for `provider`, empty. */
const loginScreen = (started: Started, provider: LinkProvider): ScreenOf<'login'> => ({
  name: 'login',
  started,
  provider,
  credentials: null,
  oauthWindow: null,
  connected: null,
  ...FRESH_FORM,
});

/** After the intro: the login when the Link token named the platform, else the search. */
const afterIntro = (started: Started, provider: LinkProvider | null): ScreenOf<'search' | 'login'> =>
  provider ? loginScreen(started, provider) : { name: 'search', started, provider };

/** The employer or platform picked so far, in `screen_transition`'s fields (Pinwheel's); the name only when known. */
function picked(provider: LinkProvider | null): Omit<ScreenTransitionPayload, 'screenName'> {
  if (!provider) return {};
  const { employerId, platformId, name } = provider;
  // No key for a name not known (the Link token preset the platform): a message carries no `undefined`.
  if (employerId)
    return name === null ? { selectedEmployerId: employerId } : { selectedEmployerId: employerId, selectedEmployerName: name };
  return name === null ? { selectedPlatformId: platformId } : { selectedPlatformId: platformId, selectedPlatformName: name };
}

/** A reconnect session logs in to one account's platform: there is no search to go back to. */
export const canSearch = (started: Started): boolean => started.session.account_id == null;

/** The provider logs in on its own page, in a new window (the sandbox's OAuth-style platform), not with a password here. */
export const isOAuth = (provider: LinkProvider): boolean => provider.platformId === OAUTH_PLATFORM.id;

/** Login or one-time code → back to search; not while a login is in flight: its answer (an account, maybe) must not be dropped. */
function back<S extends ScreenOf<'login' | 'mfa'>>(state: S): Step<S | ScreenOf<'search'>> {
  if (state.busy || !canSearch(state.started)) return unchanged(state);
  return go({ name: 'search', started: state.started, provider: state.provider });
}

/** Logs in with the screen's credentials (and the one-time code): the widget hears of the attempt. */
function attemptLogin<S extends ScreenOf<'login' | 'mfa'>>(state: S, mfaCode?: string): Step<S> {
  const { started, provider, credentials } = state;
  if (!credentials) return unchanged(state);
  const request = {
    platform_id: provider.platformId,
    employer_id: provider.employerId,
    ...credentials,
    ...(mfaCode === undefined ? {} : { mfa_code: mfaCode }),
  };
  return busy(state, emit('login_attempt', { platformId: provider.platformId }), { type: 'logIn', api: started.api, request });
}

/** The login's answer: a one-time code to ask for, or an account, whose job follows. */
function loggedIn<S extends ScreenOf<'login' | 'mfa'>>(state: S, { result }: LinkFlowEventOf<'loggedIn'>) {
  if (result.status === 'connected') return connect(state, result);
  const { started, provider, credentials } = state;
  return go({ name: 'mfa', started, provider, credentials, connected: null, ...FRESH_FORM });
}

/** A login refused (wrong credentials or code) or unreachable stays on its form, to try again; anything else ends. */
function loginFailed<S extends ScreenOf<'login' | 'mfa'>>(state: S, { cause }: LinkFlowEventOf<'loginFailed'>) {
  if (cause instanceof LinkApiError && (cause.code === 'INVALID_CREDENTIALS' || cause.code === 'INVALID_MFA_CODE')) {
    const error = emit('error', linkError('invalidCredentials', cause.code, cause.message, true));
    return patch<S>(state, { busy: false, formError: state.name === 'mfa' ? 'wrongCode' : 'wrongCredentials' } as Partial<S>, error);
  }
  if (cause instanceof LinkApiError && cause.code === 'NETWORK_ERROR') {
    // A lost connection on a form is worth another try, not the end of the session.
    const error = emit('error', linkError('networkError', cause.code, cause.message, true));
    return patch<S>(state, { busy: false, formError: 'unreachable' } as Partial<S>, error);
  }
  return fail(state, cause);
}

/**
 * Logged in (with a password here, or on the platform's own page): the widget hears of the login, and the job
 * follows, started from this screen, unless the user chooses the deposit switch's allocation first.
 */
function connect<S extends ScreenOf<'login' | 'mfa'>>(state: S, result: ConnectedLogin): Step<S | ScreenOf<'allocation'>> {
  const { started } = state;
  const provider = { ...state.provider, platformId: result.platform_id };
  const connected: Connected = {
    accountId: result.account_id,
    jobId: result.job_id,
    job: result.job,
    percentageAllowed: result.supports_percentage_allocation,
  };
  const login = emit('login', { accountId: result.account_id, platformId: result.platform_id, linkTokenId: started.session.link_token_id });
  // The password is not kept past the login.
  const form = { ...state, credentials: null, provider, connected, busy: true, formError: null };
  if (result.job !== 'direct_deposit_switch') return { state: form, effects: [login, runJob(started, connected, null)] };
  // The integrator chose the allocation in the Link token: the user is not asked, unless this provider cannot take it.
  const preset = started.session.allocation ?? null;
  if (preset && (preset.type !== 'percentage' || connected.percentageAllowed))
    return { state: form, effects: [login, ...switchDeposit(started, connected, preset)] };
  return go({ name: 'allocation', started, provider, connected, ...FRESH_FORM }, login);
}

/** Starts the job of the login just made. */
const runJob = (started: Started, connected: Connected, allocation: Allocation | null): LinkFlowEffect => ({
  type: 'runJob',
  api: started.api,
  jobId: connected.jobId,
  allocation,
});

/** Runs the deposit switch; `input_allocation` says with what, whether the user chose it or the Link token did. */
const switchDeposit = (started: Started, connected: Connected, allocation: Allocation): LinkFlowEffect[] => [
  emit('input_allocation', { action: 'partial_switch', allocation }),
  runJob(started, connected, allocation),
];

/**
 * A wait's time limit (WCAG 2.2.1): its timers come back as `near` (the user is warned, asked to keep waiting)
 * and `passed` (the polling pauses, the question stays). Neither ends the session: only the user's answer does.
 */
const timeLimit = (near: LinkFlowEvent, passed: LinkFlowEvent): LinkFlowEffect => ({ type: 'timeLimit', near, passed });

/** Period `round` of `wait` comes near its limit: warned, once a period; null when that period is not the one shown. */
const nearing = (wait: Wait, round: number): Wait | null =>
  wait.round === round && wait.limit === 'ahead' ? { round, limit: 'near' } : null;

/** Period `round` of `wait` passes its limit unanswered: the question stays, the polling pauses; null as above. */
const passing = (wait: Wait, round: number): Wait | null =>
  wait.round === round && wait.limit !== 'passed' ? { round, limit: 'passed' } : null;

/** The user keeps waiting: another full period; null while nobody was asked. */
const extended = (wait: Wait): Wait | null => (wait.limit === 'ahead' ? null : { round: wait.round + 1, limit: 'ahead' });

/** One period of the wait for the login in the other window: the long poll, and its time limit. */
function watchOAuth(api: Started['api'], { url, state, wait: { round } }: OAuthWindow): LinkFlowEffect[] {
  return [
    { type: 'pollOAuth', api, state, url, round },
    timeLimit({ type: 'oauthWaitNear', url, round }, { type: 'oauthWaitPassed', url, round }),
  ];
}

/** One period of the job's watch: the polls, and its time limit. */
const watchJobFor = ({ api }: Started, { jobId }: Connected, { round }: Wait): LinkFlowEffect[] => [
  { type: 'pollJob', api, jobId, round },
  timeLimit({ type: 'jobWaitNear', round }, { type: 'jobWaitPassed', round }),
];

/** The job started from the screen that asked for it: the page watches it run. */
function watchJob(started: Started, provider: LinkProvider, connected: Connected): Step<ScreenOf<'running'>> {
  const running = go({ name: 'running', started, provider, connected, confirmingClose: false, wait: FRESH_WAIT });
  return { ...running, effects: [...running.effects, ...watchJobFor(started, connected, FRESH_WAIT)] };
}

/** The OAuth wait's window changes its wait (near, passed, extended), if `url` is its own; else nothing moves. */
function oauthWait(state: ScreenOf<'login'>, url: string | null, change: (wait: Wait) => Wait | null): Step<ScreenOf<'login'>> {
  const opening = state.oauthWindow;
  const wait = opening && (url === null || opening.url === url) ? change(opening.wait) : null;
  if (!opening || !wait) return unchanged(state);
  const next = { ...opening, wait };
  // A new period (the user keeps waiting) polls and counts anew; near and passed only change what the screen says.
  return patch(state, { oauthWindow: next }, ...(wait.round === opening.wait.round ? [] : watchOAuth(state.started.api, next)));
}

/** The job's watch changes its wait (near, passed, extended); a new period polls and counts anew. */
function jobWait(state: ScreenOf<'running'>, change: (wait: Wait) => Wait | null): Step<ScreenOf<'running'>> {
  const wait = change(state.wait);
  if (!wait) return unchanged(state);
  return patch(state, { wait }, ...(wait.round === state.wait.round ? [] : watchJobFor(state.started, state.connected, wait)));
}

/** Asks the sandbox for the OAuth-style platform's login page (its window opens once the URL is there). */
function startOAuthLogin(state: ScreenOf<'login'>): Step<ScreenOf<'login'>> {
  const { started, provider } = state;
  const attempt = emit('login_attempt', { platformId: provider.platformId });
  return busy(state, attempt, { type: 'startOAuth', api: started.api, platformId: provider.platformId, employerId: provider.employerId });
}

/** The user stays while the job runs: the question goes, and the widget hears so. */
const stay = (state: ScreenOf<'running'>): Step<ScreenOf<'running'>> =>
  state.confirmingClose ? patch(state, { confirmingClose: false }, { type: 'answerClose', answer: 'stay' }) : unchanged(state);

/** {@link watchJob}, from the login's form, which holds the account once the login succeeded. */
const jobStarted = <S extends ScreenOf<'login' | 'mfa'>>(state: S): Step<S | ScreenOf<'running'>> =>
  state.connected ? watchJob(state.started, state.provider, state.connected) : unchanged(state);

const failed = (state: LinkFlowScreen, { cause }: { cause: unknown }) => fail(state, cause);

/** Leaving a screen before the outcome: by the user, or asked by the widget. */
const quits = { close: quit, closeRequest: quit };
/** Leaving a final screen. */
const leavesFinal = {
  close: <S extends ScreenOf<'success' | 'error' | 'invalid_token'>>(state: S, { inline }: { inline: boolean }) =>
    leaveFinal(state, inline),
  closeRequest: <S extends ScreenOf<'success' | 'error' | 'invalid_token'>>(state: S, { inline }: { inline: boolean }) =>
    leaveFinal(state, inline),
};

/** The Link flow: screen → event → move. See {@link LINK_FLOW_TARGETS} for where each move may lead. */
export const LINK_FLOW_MOVES = {
  waiting: {
    init: (state, { token }) => ({ state, effects: [{ type: 'start', token }] }),
    standalone: () => go({ name: 'standalone' }),
    // An init this page cannot accept ends the flow at once, on a screen that says so: never "Getting ready" forever.
    refused: (state, { error }) => end(state, error.type === 'invalidLinkToken' ? 'invalid_token' : 'error', error),
    started: (_, { started }) => {
      const { session } = started;
      const open = emit('open', { linkTokenId: session.link_token_id });
      // The integrator already knows the platform (or the employer, whose platform the session names): no need to search for it.
      const provider =
        session.platform_id === null ? null : { platformId: session.platform_id, employerId: session.employer_id, name: null };
      return go(session.skip_intro_screen ? afterIntro(started, provider) : { name: 'intro', started, provider }, open);
    },
    startFailed: failed,
    // Still exchanging the token: nothing to lose, end now rather than let the widget wait.
    closeRequest: quit,
  },
  standalone: {},
  intro: { begin: ({ started, provider }) => go(afterIntro(started, provider)), ...quits },
  search: {
    pick: ({ started }, { item }) => {
      const choice =
        item.kind === 'employer'
          ? emit('select_employer', { selectedEmployerId: item.id, selectedEmployerName: item.name })
          : emit('select_platform', { selectedPlatformId: item.id, selectedPlatformName: item.name });
      const provider = { platformId: item.platform_id, employerId: item.kind === 'employer' ? item.id : null, name: item.name };
      return go(loginScreen(started, provider), choice);
    },
    ...quits,
  },
  login: {
    back,
    logIn: (state, { credentials }) => (state.busy ? unchanged(state) : attemptLogin({ ...state, credentials })),
    /**
     * Logs in through the platform's own page: the sandbox gives its URL, the widget opens it in a new window (or
     * the user does, with the button, when the browser blocked it), and the sandbox, asked by a long poll, says
     * when the user has logged in there. The window itself never talks to this page: it works with `noopener`.
     */
    logInWithOAuth: (state) => (state.busy || !isOAuth(state.provider) ? unchanged(state) : startOAuthLogin(state)),
    openUrlResult: (state, { url, outcome }) => {
      const opening = state.oauthWindow;
      if (!opening || opening.url !== url) return unchanged(state);
      if (outcome === 'blocked') return patch(state, { oauthWindow: { ...opening, blocked: true } });
      // Refused by the widget's contract: nothing was opened, nothing will be.
      if (outcome === 'refused') return patch(state, { oauthWindow: null, formError: 'oauthRefused' });
      return unchanged(state);
    },
    loggedIn,
    loginFailed,
    oauthStarted: (state, { state: oauthState, url }) => {
      const opening: OAuthWindow = { url, state: oauthState, blocked: false, wait: FRESH_WAIT };
      return patch(state, { oauthWindow: opening, busy: false }, { type: 'openUrl', url }, ...watchOAuth(state.started.api, opening));
    },
    oauthStartFailed: failed,
    // The poll's answers count for the window it watches only: a new attempt has a new URL.
    oauthLoggedIn: (state, { url, result }) =>
      state.oauthWindow?.url === url ? connect({ ...state, oauthWindow: null }, result) : unchanged(state),
    oauthFailed: (state, event) => (state.oauthWindow?.url === event.url ? fail(state, event.cause) : unchanged(state)),
    oauthWaitNear: (state, { url, round }) => oauthWait(state, url, (wait) => nearing(wait, round)),
    oauthWaitPassed: (state, { url, round }) => oauthWait(state, url, (wait) => passing(wait, round)),
    keepWaiting: (state) => oauthWait(state, null, extended),
    // A fresh login page and window in the same Link session: the old window's answers no longer count (its URL).
    tryAgain: (state) => (state.oauthWindow && !state.busy ? startOAuthLogin({ ...state, oauthWindow: null }) : unchanged(state)),
    jobStarted,
    jobStartFailed: failed,
    ...quits,
  },
  mfa: {
    back,
    verify: (state, { code }) => (state.busy ? unchanged(state) : attemptLogin(state, code)),
    loggedIn,
    loginFailed,
    jobStarted,
    jobStartFailed: failed,
    ...quits,
  },
  allocation: {
    allocate: (state, { allocation }) =>
      state.busy ? unchanged(state) : busy(state, ...switchDeposit(state.started, state.connected, allocation)),
    jobStarted: ({ started, provider, connected }) => watchJob(started, provider, connected),
    jobStartFailed: failed,
    ...quits,
  },
  running: {
    jobEnded: (state, { job }) => {
      const { started, provider, connected } = state;
      if (job.status === 'success') {
        const success = emit('success', {
          accountId: connected.accountId,
          platformId: provider.platformId,
          jobId: job.job_id,
          job: job.job,
          params: job.params,
          linkTokenId: started.session.link_token_id,
        });
        return go({ name: 'success', started, provider, connected, exited: false }, success);
      }
      const { code, message } = job.error ?? { code: 'JOB_FAILED', message: 'The job failed.' };
      return end(state, 'error', linkError('platformError', code, message));
    },
    jobFailed: failed,
    jobWaitNear: (state, { round }) => jobWait(state, (wait) => nearing(wait, round)),
    jobWaitPassed: (state, { round }) => jobWait(state, (wait) => passing(wait, round)),
    keepWaiting: (state) => jobWait(state, extended),
    // The user confirmed leaving while the job runs.
    leave: (state) => (state.confirmingClose ? quit(state) : unchanged(state)),
    // The user stays: the job goes on, and a widget that asked to close hears so.
    stay,
    // Leaving now would leave the job's outcome unknown to the user: they confirm first (leave or stay). The
    // widget hears that the page asks (it holds its own close control meanwhile), whoever asked; asked again
    // (Escape) while the question shows, the user stays: Escape answers an alert dialog with its safe choice.
    close: (state) =>
      state.confirmingClose ? stay(state) : patch(state, { confirmingClose: true }, { type: 'answerClose', answer: 'confirming' }),
    // Asked from outside the frame: the widget waits for the user's answer.
    closeRequest: (state) => patch(state, { confirmingClose: true }, { type: 'answerClose', answer: 'confirming' }),
  },
  success: leavesFinal,
  error: leavesFinal,
  invalid_token: leavesFinal,
  closed: {},
} satisfies Table;

/**
 * The Link flow's one move: the next screen and the effects to run, from the screen shown and an event. An event
 * the screen does not list changes nothing and asks for nothing. Pure: `LinkFlow` runs what it returns.
 */
export function transition(state: LinkFlowScreen, event: LinkFlowEvent): Step {
  // The one place the table is read by name: its type pairs each move with its screen and event, which this lookup does too.
  const row = LINK_FLOW_MOVES[state.name] as Partial<Record<LinkFlowEventType, (state: LinkFlowScreen, event: LinkFlowEvent) => Step>>;
  const move = row[event.type];
  return move ? move(state, event) : unchanged(state);
}
