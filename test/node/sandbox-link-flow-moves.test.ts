/**
 * The sandbox Link page's flow as a table (sandbox/link-page/app/link-flow-moves.ts), through its pure
 * `transition()`: every move the table lists, with the screen it leads to and the effects it asks for, in order;
 * every event a screen does not list changes nothing and asks for nothing (a late answer for a screen the user
 * has left is such an event); and the table lists exactly the events its targets name. No browser, no sandbox:
 * the effects are data, and nothing here runs them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventMessage, LinkError } from '../../src/protocol.js';
import type { LinkJob, LinkPageSession } from '../../sandbox/api/link-api-schemas.js';
import { linkError } from '../../src/shared/link-error.js';
import { OAUTH_PLATFORM } from '../../sandbox/state/oauth-platform.js';
import { LinkApiError, type LinkApi } from '../../sandbox/link-page/app/link-api-client.js';
import type { LinkFlowEffect, LinkFlowEvent, LinkFlowEventType } from '../../sandbox/link-page/app/link-flow-events.js';
import { LINK_FLOW_MOVES, LINK_FLOW_TARGETS, transition, type Step } from '../../sandbox/link-page/app/link-flow-moves.js';
import {
  FRESH_FORM,
  FRESH_WAIT,
  type LinkFlowScreen,
  type LinkScreenName,
  type ScreenOf,
  type Started,
} from '../../sandbox/link-page/app/link-flow-screen.js';

const TOKEN_ID = '11111111-1111-4111-8111-111111111111';
const EMPLOYER = '22222222-2222-4222-8222-222222222222';
const PLATFORM = '33333333-3333-4333-8333-333333333333';
const ACCOUNT = '44444444-4444-4444-8444-444444444444';
const JOB = '55555555-5555-4555-8555-555555555555';
const OAUTH_URL = 'http://127.0.0.1:1/oauth/login?state=one';

const api = { name: 'the Link API' } as unknown as LinkApi;
const session: LinkPageSession = {
  session_id: 'ls_1',
  link_token_id: TOKEN_ID,
  org_name: 'Acme',
  mode: 'sandbox',
  jobs: ['direct_deposit_switch'],
  end_user_id: null,
  employer_id: null,
  platform_id: null,
  account_id: null,
  skip_intro_screen: false,
  language: null,
  allocation: null,
};
const started: Started = { session, api };
const withSession = (change: Partial<LinkPageSession>): Started => ({ api, session: { ...session, ...change } });
const provider = { platformId: PLATFORM, employerId: EMPLOYER, name: 'Acme Payroll' };
const oauthProvider = { platformId: OAUTH_PLATFORM.id, employerId: null, name: 'OAuth Payroll' };
const credentials = { username: 'user_good', password: 'pass_good' };
const connected = { accountId: ACCOUNT, jobId: JOB, job: 'direct_deposit_switch', percentageAllowed: true };
const failure = new LinkApiError(500, 'INTERNAL_ERROR', 'It broke.');

/** One screen of each name, as the flow would show it. */
const SCREENS = {
  waiting: { name: 'waiting' },
  standalone: { name: 'standalone' },
  intro: { name: 'intro', started, provider: null },
  search: { name: 'search', started, provider: null },
  login: { name: 'login', started, provider, credentials: null, oauthWindow: null, connected: null, ...FRESH_FORM },
  mfa: { name: 'mfa', started, provider, credentials, connected: null, ...FRESH_FORM },
  allocation: { name: 'allocation', started, provider, connected, ...FRESH_FORM },
  running: { name: 'running', started, provider, connected, confirmingClose: false, wait: FRESH_WAIT },
  success: { name: 'success', started, provider, connected, exited: false },
  error: { name: 'error', started, provider, connected, error: linkError('systemError', 'X', 'x'), exited: false },
  invalid_token: {
    name: 'invalid_token',
    started: null,
    provider: null,
    connected: null,
    error: linkError('invalidLinkToken', 'INVALID_LINK_TOKEN', 'x'),
    exited: false,
  },
  closed: { name: 'closed' },
} satisfies { [S in LinkScreenName]: ScreenOf<S> };

const job = (status: LinkJob['status'], error: LinkJob['error'] = null): LinkJob => ({
  job_id: JOB,
  status,
  job: 'direct_deposit_switch',
  params: { allocation_type: 'remainder' },
  error,
});
const connectedLogin = {
  status: 'connected',
  account_id: ACCOUNT,
  platform_id: PLATFORM,
  job_id: JOB,
  job: 'direct_deposit_switch',
  supports_percentage_allocation: true,
} as const;

/** One event of each type. */
const EVENTS = {
  init: { type: 'init', token: 'tok' },
  refused: { type: 'refused', error: linkError('clientError', 'INVALID_INIT', 'x') },
  standalone: { type: 'standalone' },
  closeRequest: { type: 'closeRequest', inline: false },
  openUrlResult: { type: 'openUrlResult', url: OAUTH_URL, outcome: 'blocked' },
  begin: { type: 'begin' },
  pick: { type: 'pick', item: { kind: 'employer', id: EMPLOYER, name: 'Acme', platform_id: PLATFORM, platform_type: 'payroll' } },
  back: { type: 'back' },
  logIn: { type: 'logIn', credentials },
  verify: { type: 'verify', code: '123456' },
  logInWithOAuth: { type: 'logInWithOAuth' },
  allocate: { type: 'allocate', allocation: { type: 'remainder' } },
  leave: { type: 'leave' },
  stay: { type: 'stay' },
  close: { type: 'close', inline: false },
  started: { type: 'started', started },
  startFailed: { type: 'startFailed', cause: failure },
  loggedIn: { type: 'loggedIn', result: connectedLogin },
  loginFailed: { type: 'loginFailed', cause: failure },
  oauthStarted: { type: 'oauthStarted', state: 'one', url: OAUTH_URL },
  oauthStartFailed: { type: 'oauthStartFailed', cause: failure },
  oauthLoggedIn: { type: 'oauthLoggedIn', url: OAUTH_URL, result: connectedLogin },
  oauthFailed: { type: 'oauthFailed', url: OAUTH_URL, cause: failure },
  oauthWaitNear: { type: 'oauthWaitNear', url: OAUTH_URL, round: 0 },
  oauthWaitPassed: { type: 'oauthWaitPassed', url: OAUTH_URL, round: 0 },
  keepWaiting: { type: 'keepWaiting' },
  tryAgain: { type: 'tryAgain' },
  jobStarted: { type: 'jobStarted' },
  jobStartFailed: { type: 'jobStartFailed', cause: failure },
  jobEnded: { type: 'jobEnded', job: job('success') },
  jobFailed: { type: 'jobFailed', cause: failure },
  jobWaitNear: { type: 'jobWaitNear', round: 0 },
  jobWaitPassed: { type: 'jobWaitPassed', round: 0 },
} satisfies { [E in LinkFlowEventType]: Extract<LinkFlowEvent, { type: E }> };

const listed = (screen: LinkScreenName): string[] => Object.keys(LINK_FLOW_TARGETS[screen]);

/** The (screen, event) pairs the tests below went through, to check that every listed move was. */
const gone = new Set<string>();

/** `transition()`, checked against the targets: the screen it leads to is one its row names. */
function move(state: LinkFlowScreen, event: LinkFlowEvent): Step {
  const step = transition(state, event);
  const targets = (LINK_FLOW_TARGETS[state.name] as Partial<Record<string, readonly string[]>>)[event.type];
  assert.ok(targets, `${state.name} lists ${event.type}`);
  assert.ok(targets.includes(step.state.name), `${state.name} → ${event.type} led to ${step.state.name}, not one of ${targets.join(', ')}`);
  gone.add(`${state.name}.${event.type}`);
  return step;
}

const emit = <N extends EventMessage['name']>(name: N, payload: Extract<EventMessage, { name: N }>['payload']): LinkFlowEffect => ({
  type: 'emit',
  message: { type: 'payroll-link:event', name, payload } as EventMessage,
});
const shown = (screenName: string, picked: Record<string, string> = {}) => emit('screen_transition', { screenName, ...picked });
/** The error an `emit` effect of an `error` event carries. */
const errorOf = (effect: LinkFlowEffect | undefined) => (effect as { message: { payload: LinkError } }).message.payload;
const byProvider = { selectedEmployerId: EMPLOYER, selectedEmployerName: 'Acme Payroll' };
const exit = (reason: string, error: unknown = null, accountId?: string): LinkFlowEffect[] => [
  emit('exit', { reason, error, ...(accountId ? { accountId } : {}) } as never),
  { type: 'disconnect' },
];

describe('sandbox Link flow: the table', () => {
  it('lists for each screen exactly the events its targets name', () => {
    for (const screen of Object.keys(LINK_FLOW_TARGETS) as LinkScreenName[]) {
      assert.deepEqual(Object.keys(LINK_FLOW_MOVES[screen]).sort(), listed(screen).sort(), screen);
    }
    assert.deepEqual(Object.keys(LINK_FLOW_TARGETS).sort(), Object.keys(SCREENS).sort());
  });

  it('an event a screen does not list changes nothing and asks for nothing (a late answer included)', () => {
    for (const state of Object.values(SCREENS) as LinkFlowScreen[]) {
      for (const event of Object.values(EVENTS) as LinkFlowEvent[]) {
        if (listed(state.name).includes(event.type)) continue;
        const step = transition(state, event);
        assert.equal(step.state, state, `${state.name} ignores ${event.type}`);
        assert.deepEqual(step.effects, [], `${state.name} ignores ${event.type}`);
      }
    }
  });
});

describe('sandbox Link flow: waiting for the widget', () => {
  it('init: the token is traded for a session, on the same screen', () => {
    assert.deepEqual(move(SCREENS.waiting, EVENTS.init), { state: SCREENS.waiting, effects: [{ type: 'start', token: 'tok' }] });
  });

  it('standalone: outside a frame, silently', () => {
    assert.deepEqual(move(SCREENS.waiting, EVENTS.standalone), { state: { name: 'standalone' }, effects: [] });
  });

  it('refused: an init it cannot accept ends on the error (or invalid-token) screen', () => {
    const { state, effects } = move(SCREENS.waiting, EVENTS.refused);
    assert.equal(state.name, 'error');
    assert.deepEqual(effects, [emit('error', EVENTS.refused.error), shown('error')]);
    const invalid = linkError('invalidLinkToken', 'INVALID_LINK_TOKEN', 'x');
    assert.equal(move(SCREENS.waiting, { type: 'refused', error: invalid }).state.name, 'invalid_token');
  });

  it('started: open, then the intro; straight to the login when the token named the platform and skips the intro', () => {
    assert.deepEqual(move(SCREENS.waiting, EVENTS.started), {
      state: { name: 'intro', started, provider: null },
      effects: [emit('open', { linkTokenId: TOKEN_ID }), shown('intro')],
    });
    const preset = withSession({ platform_id: PLATFORM, skip_intro_screen: true });
    const { state, effects } = move(SCREENS.waiting, { type: 'started', started: preset });
    assert.deepEqual(state, { ...SCREENS.login, started: preset, provider: { platformId: PLATFORM, employerId: null, name: null } });
    assert.deepEqual(effects, [emit('open', { linkTokenId: TOKEN_ID }), shown('login', { selectedPlatformId: PLATFORM })]);
    const search = move(SCREENS.waiting, { type: 'started', started: withSession({ skip_intro_screen: true }) });
    assert.equal(search.state.name, 'search');
  });

  it('startFailed: an invalid token ends on its screen; an unexpected failure is logged and ends on the error screen', () => {
    const invalid = move(SCREENS.waiting, { type: 'startFailed', cause: new LinkApiError(401, 'INVALID_LINK_TOKEN', 'Used.') });
    assert.equal(invalid.state.name, 'invalid_token');
    const error = linkError('invalidLinkToken', 'INVALID_LINK_TOKEN', 'Used.');
    assert.deepEqual(invalid.effects, [emit('error', error), shown('invalid_token')]);
    const cause = new TypeError('bug');
    const unexpected = move(SCREENS.waiting, { type: 'startFailed', cause });
    assert.equal(unexpected.state.name, 'error');
    assert.deepEqual(unexpected.effects[0], { type: 'logUnexpected', cause });
    assert.equal(errorOf(unexpected.effects[1]).code, 'UNEXPECTED');
  });

  it('closeRequest: still exchanging the token, the flow ends at once, user_closed', () => {
    assert.deepEqual(move(SCREENS.waiting, EVENTS.closeRequest), { state: SCREENS.closed, effects: exit('user_closed') });
  });
});

describe('sandbox Link flow: intro and search', () => {
  it('begin: to the search, or to the login when a provider is known', () => {
    assert.deepEqual(move(SCREENS.intro, EVENTS.begin), { state: SCREENS.search, effects: [shown('search')] });
    assert.deepEqual(move({ ...SCREENS.intro, provider }, EVENTS.begin), { state: SCREENS.login, effects: [shown('login', byProvider)] });
  });

  it('pick: the choice is heard, then the login for it', () => {
    const { state, effects } = move(SCREENS.search, EVENTS.pick);
    assert.deepEqual(state, { ...SCREENS.login, provider: { platformId: PLATFORM, employerId: EMPLOYER, name: 'Acme' } });
    assert.deepEqual(effects, [
      emit('select_employer', { selectedEmployerId: EMPLOYER, selectedEmployerName: 'Acme' }),
      shown('login', { selectedEmployerId: EMPLOYER, selectedEmployerName: 'Acme' }),
    ]);
    const platform = { ...EVENTS.pick.item, kind: 'platform', id: PLATFORM } as const;
    assert.deepEqual(move(SCREENS.search, { type: 'pick', item: platform }).effects[0], {
      ...emit('select_platform', { selectedPlatformId: PLATFORM, selectedPlatformName: 'Acme' }),
    });
  });

  it('close and closeRequest before the outcome: user_closed', () => {
    for (const screen of [SCREENS.intro, SCREENS.search, SCREENS.login, SCREENS.mfa, SCREENS.allocation]) {
      // Once logged in, the exit names the account.
      const effects = exit('user_closed', null, screen.name === 'allocation' ? ACCOUNT : undefined);
      assert.deepEqual(move(screen, EVENTS.close), { state: SCREENS.closed, effects });
      assert.deepEqual(move(screen, EVENTS.closeRequest), { state: SCREENS.closed, effects });
    }
  });
});

describe('sandbox Link flow: the login', () => {
  it('back: to the search, but not while a login is in flight, nor in a reconnect session', () => {
    assert.deepEqual(move(SCREENS.login, EVENTS.back), { state: { ...SCREENS.search, provider }, effects: [shown('search', byProvider)] });
    assert.equal(move(SCREENS.mfa, EVENTS.back).state.name, 'search');
    const inFlight = { ...SCREENS.login, busy: true };
    assert.deepEqual(move(inFlight, EVENTS.back), { state: inFlight, effects: [] });
    const reconnect = { ...SCREENS.mfa, started: withSession({ account_id: ACCOUNT }) };
    assert.deepEqual(move(reconnect, EVENTS.back), { state: reconnect, effects: [] });
  });

  it('logIn and verify: the attempt is heard, the form waits, the sandbox is asked', () => {
    const request = { platform_id: PLATFORM, employer_id: EMPLOYER, ...credentials };
    assert.deepEqual(move({ ...SCREENS.login, formError: 'wrongCredentials' }, EVENTS.logIn), {
      state: { ...SCREENS.login, credentials, busy: true },
      effects: [emit('login_attempt', { platformId: PLATFORM }), { type: 'logIn', api, request }],
    });
    assert.deepEqual(move(SCREENS.mfa, EVENTS.verify), {
      state: { ...SCREENS.mfa, busy: true },
      effects: [emit('login_attempt', { platformId: PLATFORM }), { type: 'logIn', api, request: { ...request, mfa_code: '123456' } }],
    });
    for (const [screen, event] of [
      [{ ...SCREENS.login, busy: true }, EVENTS.logIn],
      [{ ...SCREENS.mfa, busy: true }, EVENTS.verify],
    ] as const) {
      assert.deepEqual(move(screen, event), { state: screen, effects: [] });
    }
  });

  it('loggedIn: a one-time code to ask for', () => {
    const form = { ...SCREENS.login, credentials, busy: true };
    assert.deepEqual(move(form, { type: 'loggedIn', result: { status: 'mfa_required' } }), {
      state: SCREENS.mfa,
      effects: [shown('mfa', byProvider)],
    });
    assert.equal(move({ ...SCREENS.mfa, busy: true }, { type: 'loggedIn', result: { status: 'mfa_required' } }).state.name, 'mfa');
  });

  it('loggedIn: connected, the allocation is asked for a deposit switch; a sync job starts from the form itself', () => {
    const form = { ...SCREENS.login, credentials, busy: true };
    const login = emit('login', { accountId: ACCOUNT, platformId: PLATFORM, linkTokenId: TOKEN_ID });
    assert.deepEqual(move(form, EVENTS.loggedIn), { state: SCREENS.allocation, effects: [login, shown('allocation', byProvider)] });
    assert.equal(move({ ...SCREENS.mfa, busy: true }, EVENTS.loggedIn).state.name, 'allocation');
    const shifts = { ...connectedLogin, job: 'shifts' } as const;
    assert.deepEqual(move(form, { type: 'loggedIn', result: shifts }), {
      state: { ...form, credentials: null, connected: { ...connected, job: 'shifts' } },
      effects: [login, { type: 'runJob', api, jobId: JOB, allocation: null }],
    });
  });

  it("loggedIn: the token's allocation is used without asking, unless the provider cannot take it", () => {
    const allocation = { type: 'percentage', value: 50 } as const;
    const form = { ...SCREENS.mfa, started: withSession({ allocation }), busy: true };
    const { state, effects } = move(form, EVENTS.loggedIn);
    assert.deepEqual(state, { ...form, credentials: null, connected });
    assert.deepEqual(effects, [
      emit('login', { accountId: ACCOUNT, platformId: PLATFORM, linkTokenId: TOKEN_ID }),
      emit('input_allocation', { action: 'partial_switch', allocation }),
      { type: 'runJob', api, jobId: JOB, allocation },
    ]);
    const noPercentage = { ...connectedLogin, supports_percentage_allocation: false };
    assert.equal(move(form, { type: 'loggedIn', result: noPercentage }).state.name, 'allocation');
  });

  it('loginFailed: wrong credentials or code, or a lost connection, stay on the form; anything else ends', () => {
    const form = { ...SCREENS.login, credentials, busy: true };
    const wrong = new LinkApiError(401, 'INVALID_CREDENTIALS', 'No.');
    assert.deepEqual(move(form, { type: 'loginFailed', cause: wrong }), {
      state: { ...form, busy: false, formError: 'wrongCredentials' },
      effects: [emit('error', linkError('invalidCredentials', 'INVALID_CREDENTIALS', 'No.', true))],
    });
    const code = new LinkApiError(401, 'INVALID_MFA_CODE', 'No.');
    assert.equal(
      (move({ ...SCREENS.mfa, busy: true }, { type: 'loginFailed', cause: code }).state as ScreenOf<'mfa'>).formError,
      'wrongCode',
    );
    const offline = new LinkApiError(0, 'NETWORK_ERROR', 'Offline.');
    const lost = move(form, { type: 'loginFailed', cause: offline });
    assert.deepEqual(lost.state, { ...form, busy: false, formError: 'unreachable' });
    assert.equal(errorOf(lost.effects[0]).type, 'networkError');
    const ended = move(form, EVENTS.loginFailed);
    assert.equal(ended.state.name, 'error');
    assert.deepEqual(ended.effects, [emit('error', linkError('systemError', 'INTERNAL_ERROR', 'It broke.')), shown('error', byProvider)]);
    const mismatch = move(
      { ...SCREENS.mfa, busy: true },
      { type: 'loginFailed', cause: new LinkApiError(403, 'ACCOUNT_MISMATCH', 'Other.') },
    );
    assert.equal((mismatch.state as ScreenOf<'error'>).error.type, 'invalidCredentials');
  });
});

describe('sandbox Link flow: the login in a new window', () => {
  const oauth = { ...SCREENS.login, provider: oauthProvider };
  const opening = { ...oauth, oauthWindow: { url: OAUTH_URL, state: 'one', blocked: false, wait: FRESH_WAIT } };
  /** One period of the OAuth wait: the long poll, and its time limit's two timers. */
  const watch = (round: number, url = OAUTH_URL, state = 'one'): LinkFlowEffect[] => [
    { type: 'pollOAuth', api, state, url, round },
    { type: 'timeLimit', near: { type: 'oauthWaitNear', url, round }, passed: { type: 'oauthWaitPassed', url, round } },
  ];
  const picked = { selectedPlatformId: OAUTH_PLATFORM.id, selectedPlatformName: 'OAuth Payroll' };

  it('logInWithOAuth: only for the OAuth-style platform, and not while a call is in flight', () => {
    assert.deepEqual(move(oauth, EVENTS.logInWithOAuth), {
      state: { ...oauth, busy: true },
      effects: [
        emit('login_attempt', { platformId: OAUTH_PLATFORM.id }),
        { type: 'startOAuth', api, platformId: OAUTH_PLATFORM.id, employerId: null },
      ],
    });
    assert.deepEqual(move(SCREENS.login, EVENTS.logInWithOAuth), { state: SCREENS.login, effects: [] });
    const inFlight = { ...oauth, busy: true };
    assert.deepEqual(move(inFlight, EVENTS.logInWithOAuth), { state: inFlight, effects: [] });
  });

  it('oauthStarted: the widget is asked to open the window, the sandbox is polled for the login, the time limit counts', () => {
    assert.deepEqual(move({ ...oauth, busy: true }, EVENTS.oauthStarted), {
      state: opening,
      effects: [{ type: 'openUrl', url: OAUTH_URL }, ...watch(0)],
    });
    assert.equal(move({ ...oauth, busy: true }, EVENTS.oauthStartFailed).state.name, 'error');
  });

  it("openUrlResult: blocked offers the button, refused says so, another window's result changes nothing", () => {
    assert.deepEqual(move(opening, EVENTS.openUrlResult), {
      state: { ...opening, oauthWindow: { ...opening.oauthWindow, blocked: true } },
      effects: [],
    });
    assert.deepEqual(move(opening, { ...EVENTS.openUrlResult, outcome: 'refused' }), {
      state: { ...opening, oauthWindow: null, formError: 'oauthRefused' },
      effects: [],
    });
    assert.deepEqual(move(opening, { ...EVENTS.openUrlResult, outcome: 'opened' }), { state: opening, effects: [] });
    assert.deepEqual(move(opening, { ...EVENTS.openUrlResult, url: 'http://127.0.0.1:1/other' }), { state: opening, effects: [] });
  });

  it("the poll's ends count for the window it watches only", () => {
    const { state, effects } = move(opening, EVENTS.oauthLoggedIn);
    // The platform is the one the login names.
    const loggedIn = { ...oauthProvider, platformId: PLATFORM };
    assert.deepEqual(state, { ...SCREENS.allocation, provider: loggedIn });
    assert.deepEqual(effects, [
      emit('login', { accountId: ACCOUNT, platformId: PLATFORM, linkTokenId: TOKEN_ID }),
      shown('allocation', { selectedPlatformId: PLATFORM, selectedPlatformName: 'OAuth Payroll' }),
    ]);
    const failedLogin = move(opening, EVENTS.oauthFailed);
    assert.equal(failedLogin.state.name, 'error');
    assert.deepEqual(failedLogin.effects.at(-1), shown('error', picked));
    const other = 'http://127.0.0.1:1/oauth/login?state=two';
    for (const event of [EVENTS.oauthLoggedIn, EVENTS.oauthFailed, EVENTS.oauthWaitNear, EVENTS.oauthWaitPassed]) {
      assert.deepEqual(move(opening, { ...event, url: other }), { state: opening, effects: [] }, event.type);
    }
  });

  it('the time limit (WCAG 2.2.1): warned near it, paused past it, never an error; keep waiting is another full period', () => {
    const at = (limit: 'ahead' | 'near' | 'passed', round = 0) => ({
      ...opening,
      oauthWindow: { ...opening.oauthWindow, wait: { round, limit } },
    });
    // Near the limit: the screen warns; no effect, no event to the widget, the poll goes on.
    assert.deepEqual(move(opening, EVENTS.oauthWaitNear), { state: at('near'), effects: [] });
    // Past it: the screen says so and the poll pauses (the poll goes on only while the screen would take `passed`).
    assert.deepEqual(move(at('near'), EVENTS.oauthWaitPassed), { state: at('passed'), effects: [] });
    assert.deepEqual(move(opening, EVENTS.oauthWaitPassed), { state: at('passed'), effects: [] });
    assert.deepEqual(move(at('passed'), EVENTS.oauthWaitPassed), { state: at('passed'), effects: [] });
    assert.deepEqual(move(at('passed'), EVENTS.oauthWaitNear), { state: at('passed'), effects: [] });
    // Keep waiting, warned or paused: a new period, polled and counted anew; the old period's timers move nothing.
    for (const limit of ['near', 'passed'] as const) {
      assert.deepEqual(move(at(limit), EVENTS.keepWaiting), { state: at('ahead', 1), effects: watch(1) }, limit);
    }
    assert.deepEqual(move(at('ahead', 1), EVENTS.oauthWaitNear), { state: at('ahead', 1), effects: [] });
    assert.deepEqual(move(at('ahead', 1), EVENTS.oauthWaitPassed), { state: at('ahead', 1), effects: [] });
    assert.deepEqual(move(at('ahead', 1), { ...EVENTS.oauthWaitNear, round: 1 }), { state: at('near', 1), effects: [] });
    // Nobody was asked: nothing to extend.
    assert.deepEqual(move(opening, EVENTS.keepWaiting), { state: opening, effects: [] });
    assert.deepEqual(move(oauth, EVENTS.keepWaiting), { state: oauth, effects: [] });
    // A login that arrives while paused still counts.
    assert.equal(move(at('passed'), EVENTS.oauthLoggedIn).state.name, 'allocation');
  });

  it('tryAgain: a fresh login page and window in the same session (no exit, no error); the old window no longer counts', () => {
    const warned = { ...opening, oauthWindow: { ...opening.oauthWindow, wait: { round: 0, limit: 'near' } } } as const;
    const again = move(warned, EVENTS.tryAgain);
    assert.deepEqual(again, {
      state: { ...oauth, busy: true },
      effects: [
        emit('login_attempt', { platformId: OAUTH_PLATFORM.id }),
        { type: 'startOAuth', api, platformId: OAUTH_PLATFORM.id, employerId: null },
      ],
    });
    const second = 'http://127.0.0.1:1/oauth/login?state=two';
    const reopened = move(again.state, { type: 'oauthStarted', state: 'two', url: second });
    assert.deepEqual(reopened.effects, [{ type: 'openUrl', url: second }, ...watch(0, second, 'two')]);
    for (const event of [EVENTS.oauthLoggedIn, EVENTS.oauthFailed, EVENTS.oauthWaitNear, EVENTS.oauthWaitPassed]) {
      assert.deepEqual(move(reopened.state, event), { state: reopened.state, effects: [] }, event.type);
    }
    // Only with a window to replace, and not while a call is in flight.
    assert.deepEqual(move(oauth, EVENTS.tryAgain), { state: oauth, effects: [] });
    assert.deepEqual(move({ ...warned, busy: true }, EVENTS.tryAgain), { state: { ...warned, busy: true }, effects: [] });
  });
});

describe('sandbox Link flow: the job', () => {
  it('allocate: input_allocation, then the job runs with it; not twice', () => {
    const allocation = { type: 'amount', value: 100 } as const;
    assert.deepEqual(move(SCREENS.allocation, { type: 'allocate', allocation }), {
      state: { ...SCREENS.allocation, busy: true },
      effects: [emit('input_allocation', { action: 'partial_switch', allocation }), { type: 'runJob', api, jobId: JOB, allocation }],
    });
    const inFlight = { ...SCREENS.allocation, busy: true };
    assert.deepEqual(move(inFlight, EVENTS.allocate), { state: inFlight, effects: [] });
  });

  /** One period of the job's watch: its polls, and its time limit's two timers. */
  const watchJob = (round: number): LinkFlowEffect[] => [
    { type: 'pollJob', api, jobId: JOB, round },
    { type: 'timeLimit', near: { type: 'jobWaitNear', round }, passed: { type: 'jobWaitPassed', round } },
  ];

  it('jobStarted: the running screen, and the job is watched, against its time limit', () => {
    const running = { state: SCREENS.running, effects: [shown('running', byProvider), ...watchJob(0)] };
    assert.deepEqual(move({ ...SCREENS.allocation, busy: true }, EVENTS.jobStarted), running);
    assert.deepEqual(move({ ...SCREENS.login, connected, busy: true }, EVENTS.jobStarted), running);
    assert.deepEqual(move({ ...SCREENS.mfa, credentials: null, connected, busy: true }, EVENTS.jobStarted), running);
    // A form that holds no account has started no job.
    assert.deepEqual(move(SCREENS.login, EVENTS.jobStarted), { state: SCREENS.login, effects: [] });
    assert.deepEqual(move(SCREENS.mfa, EVENTS.jobStarted), { state: SCREENS.mfa, effects: [] });
  });

  it('jobStartFailed: the error screen', () => {
    for (const screen of [SCREENS.login, SCREENS.mfa, SCREENS.allocation])
      assert.equal(move(screen, EVENTS.jobStartFailed).state.name, 'error');
  });

  it("jobEnded: success, or the job's own error", () => {
    assert.deepEqual(move(SCREENS.running, EVENTS.jobEnded), {
      state: SCREENS.success,
      effects: [
        emit('success', {
          accountId: ACCOUNT,
          platformId: PLATFORM,
          jobId: JOB,
          job: 'direct_deposit_switch',
          params: { allocation_type: 'remainder' },
          linkTokenId: TOKEN_ID,
        }),
        shown('success', byProvider),
      ],
    });
    const failedJob = move(SCREENS.running, { type: 'jobEnded', job: job('error', { code: 'ACCOUNT_LOCKED', message: 'Locked.' }) });
    assert.deepEqual(failedJob.state, {
      name: 'error',
      started,
      provider,
      connected,
      exited: false,
      error: linkError('platformError', 'ACCOUNT_LOCKED', 'Locked.'),
    });
    assert.equal((move(SCREENS.running, { type: 'jobEnded', job: job('error') }).state as ScreenOf<'error'>).error.code, 'JOB_FAILED');
  });

  it('jobFailed: the error screen', () => {
    assert.equal((move(SCREENS.running, EVENTS.jobFailed).state as ScreenOf<'error'>).error.code, 'INTERNAL_ERROR');
  });

  it("the watch's time limit (WCAG 2.2.1): warned near it, paused past it, never an error; keep waiting is another full period", () => {
    const at = (limit: 'ahead' | 'near' | 'passed', round = 0) => ({ ...SCREENS.running, wait: { round, limit } });
    assert.deepEqual(move(SCREENS.running, EVENTS.jobWaitNear), { state: at('near'), effects: [] });
    assert.deepEqual(move(at('near'), EVENTS.jobWaitPassed), { state: at('passed'), effects: [] });
    assert.deepEqual(move(SCREENS.running, EVENTS.jobWaitPassed), { state: at('passed'), effects: [] });
    assert.deepEqual(move(at('passed'), EVENTS.jobWaitPassed), { state: at('passed'), effects: [] });
    for (const limit of ['near', 'passed'] as const) {
      assert.deepEqual(move(at(limit), EVENTS.keepWaiting), { state: at('ahead', 1), effects: watchJob(1) }, limit);
    }
    assert.deepEqual(move(at('ahead', 1), EVENTS.jobWaitPassed), { state: at('ahead', 1), effects: [] });
    assert.deepEqual(move(SCREENS.running, EVENTS.keepWaiting), { state: SCREENS.running, effects: [] });
    // The job's end still counts while paused; so does leaving.
    assert.equal(move(at('passed'), EVENTS.jobEnded).state.name, 'success');
    assert.equal(move({ ...at('passed'), confirmingClose: true }, EVENTS.leave).state.name, 'closed');
  });

  it('close asks first while the job runs, and the widget hears it asks; Escape again (close) stays; leave exits user_closed', () => {
    const confirming = { ...SCREENS.running, confirmingClose: true };
    assert.deepEqual(move(SCREENS.running, EVENTS.close), { state: confirming, effects: [{ type: 'answerClose', answer: 'confirming' }] });
    assert.deepEqual(move(confirming, EVENTS.close), { state: SCREENS.running, effects: [{ type: 'answerClose', answer: 'stay' }] });
    assert.deepEqual(move(SCREENS.running, EVENTS.closeRequest), {
      state: confirming,
      effects: [{ type: 'answerClose', answer: 'confirming' }],
    });
    assert.deepEqual(move(confirming, EVENTS.stay), { state: SCREENS.running, effects: [{ type: 'answerClose', answer: 'stay' }] });
    assert.deepEqual(move(confirming, EVENTS.leave), { state: SCREENS.closed, effects: exit('user_closed', null, ACCOUNT) });
    assert.deepEqual(move(SCREENS.running, EVENTS.stay), { state: SCREENS.running, effects: [] });
    assert.deepEqual(move(SCREENS.running, EVENTS.leave), { state: SCREENS.running, effects: [] });
  });
});

describe('sandbox Link flow: the final screens', () => {
  it('close reports the outcome: completed after success, error after a failure; inline, the screen stays', () => {
    for (const inline of [false, true]) {
      for (const event of [
        { ...EVENTS.close, inline },
        { ...EVENTS.closeRequest, inline },
      ]) {
        const success = move(SCREENS.success, event);
        assert.deepEqual(success, {
          state: inline ? { ...SCREENS.success, exited: true } : SCREENS.closed,
          effects: exit('completed', null, ACCOUNT),
        });
        const error = move(SCREENS.error, event);
        assert.deepEqual(error, {
          state: inline ? { ...SCREENS.error, exited: true } : SCREENS.closed,
          effects: exit('error', SCREENS.error.error, ACCOUNT),
        });
        const invalid = move(SCREENS.invalid_token, event);
        assert.deepEqual(invalid.effects, exit('error', SCREENS.invalid_token.error));
      }
    }
  });

  it('after the exit, nothing more: exit is sent at most once', () => {
    for (const screen of [SCREENS.success, SCREENS.error, SCREENS.invalid_token]) {
      const exited = { ...screen, exited: true };
      assert.deepEqual(move(exited, { ...EVENTS.close, inline: true }), { state: exited, effects: [] });
      assert.deepEqual(move(exited, { ...EVENTS.closeRequest, inline: true }), { state: exited, effects: [] });
    }
  });
});

// Last: the tests above run in order, before this one.
it('every move the table lists was gone through above', () => {
  const missed = (Object.keys(LINK_FLOW_TARGETS) as LinkScreenName[]).flatMap((screen) =>
    listed(screen)
      .filter((event) => !gone.has(`${screen}.${event}`))
      .map((event) => `${screen}.${event}`),
  );
  assert.deepEqual(missed, [], 'every move the table lists is tested');
});
