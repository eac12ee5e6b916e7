import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type {
  ColorScheme,
  EventMessage,
  FrameExitPayload,
  LinkError,
  LinkErrorType,
  ScreenTransitionPayload,
} from '../../../src/protocol.js';
import { linkError } from '../../../src/shared/link-error.js';
import { LinkPageChannel } from './link-page-channel.js';
import type { Allocation, LinkJob, LinkPageSession, LoginResult, SearchResult } from '../../api/link-api-schemas.js';
import { OAUTH_PLATFORM } from '../../state/oauth-platform.js';
import { LinkApi, LinkApiError } from './link-api-client.js';
import { pageStrings } from './link-strings.js';
import { poll, POLL_MAX_MS } from './poll.js';
import {
  FRESH_FORM,
  SILENT_SCREENS,
  isFinal,
  isOn,
  type Connected,
  type Credentials,
  type Known,
  type LinkFlowScreen,
  type LinkProvider,
  type LinkScreenName,
  type ScreenOf,
  type Started,
} from './link-flow-screen.js';

/** How the widget embeds this page, from its init: fixed for the page's life. */
export interface FrameSetup {
  /** The embedding page draws its own close control (the widget's modal does), so the header leaves ours out. */
  readonly hostCloseControl: boolean;
  /** The widget shows this page inline, in its own page's flow: sized to its content, and its final screen stays. */
  readonly inline: boolean;
  /** The colour mode the widget asked for (`auto`: the user's `prefers-color-scheme`); light until the init. */
  readonly colorScheme: ColorScheme;
}

/** First pause between job polls; it grows by half each time, up to `POLL_MAX_MS`. */
const POLL_FIRST_MS = 200;

type EventOf<N extends EventMessage['name']> = Extract<EventMessage, { name: N }>;

/**
 * The Link flow's state machine: intro → search → login (→ one-time code) →
 * allocation → running → success, with error, invalid-token and close paths.
 * It talks to the sandbox through {@link LinkApi}, to the widget through
 * {@link LinkPageChannel}, and emits every Link event of the protocol; the
 * element that hosts it only renders {@link LinkFlow.screen} and forwards the
 * user's intents to the public methods here.
 *
 * `exit` is sent at most once, always last; after it every intent is ignored.
 *
 * @example
 * ```ts
 * class LinkApp extends LitElement {
 *   #flow = new LinkFlow(this);
 *   render() { return html`${this.#flow.screen.name}`; }
 * }
 * ```
 */
export class LinkFlow implements ReactiveController {
  /** The screen to show, with its data. */
  screen: LinkFlowScreen = { name: 'waiting' };
  /** How the widget embeds the page (from its init). */
  frame: FrameSetup = { hostCloseControl: false, inline: false, colorScheme: 'light' };

  readonly #host: ReactiveControllerHost;
  #channel: LinkPageChannel | null = null;
  #reportedHeight = 0;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('keydown', this.#onKeydown);
    if (this.#channel || this.screen.name !== 'waiting') return;
    this.#channel = LinkPageChannel.connect(
      (init) => {
        this.frame = {
          hostCloseControl: init.hostCloseControl === true,
          inline: init.display === 'inline',
          colorScheme: init.colorScheme ?? 'light',
        };
        void this.#start(init.token);
      },
      // An init this page cannot accept ends the flow at once, on a screen that says so: never "Getting ready" forever.
      (error) => this.#end(error.type === 'invalidLinkToken' ? 'invalid_token' : 'error', error),
      {
        onOpenUrlResult: ({ url, outcome }) => {
          const login = this.#on('login');
          const opening = login?.oauthWindow;
          if (!login || !opening || opening.url !== url) return;
          if (outcome === 'blocked') this.#patch(login, { oauthWindow: { ...opening, blocked: true } });
          // Refused by the widget's contract: nothing was opened, nothing will be.
          if (outcome === 'refused') this.#patch(login, { oauthWindow: null, formError: pageStrings().oauthRefused });
        },
        onCloseRequest: () => {
          // Asked from outside the frame: while a job runs the user confirms first, and the widget waits for that.
          if (this.screen.name === 'running') {
            this.#channel?.answerClose('confirming');
            return this.close();
          }
          // Still exchanging the token: nothing to lose, end now rather than let the widget wait.
          if (this.screen.name === 'waiting') return this.#exit('user_closed', null);
          this.close();
        },
      },
    );
    if (!this.#channel) this.#go({ name: 'standalone' });
  }

  hostDisconnected(): void {
    window.removeEventListener('keydown', this.#onKeydown);
  }

  /** The Link session, once the token has been accepted. */
  get session(): LinkPageSession | null {
    return this.#known().started?.session ?? null;
  }

  /** The session ended (`exit` sent): inline, the final screen stays, with nothing left to press. */
  get exited(): boolean {
    return this.screen.name === 'closed' || (isFinal(this.screen) && this.screen.exited);
  }

  /** A reconnect session logs in to one account's platform: there is no search to go back to. */
  get canSearch(): boolean {
    return this.session?.account_id == null;
  }

  /** The provider logs in on its own page, in a new window (the sandbox's OAuth-style platform), not with a password here. */
  get oauth(): boolean {
    return this.#on('login')?.provider.platformId === OAUTH_PLATFORM.id;
  }

  /** Intro → search, or straight to the login when the Link token named the platform. */
  begin(): void {
    const intro = this.#idle('intro');
    if (intro) this.#go(afterIntro(intro.started, intro.provider));
  }

  /** Search → login with the picked employer or platform. */
  pick(item: SearchResult): void {
    const search = this.#idle('search');
    if (!search) return;
    if (item.kind === 'employer') this.#emit('select_employer', { selectedEmployerId: item.id, selectedEmployerName: item.name });
    else this.#emit('select_platform', { selectedPlatformId: item.id, selectedPlatformName: item.name });
    const provider = { platformId: item.platform_id, employerId: item.kind === 'employer' ? item.id : null, name: item.name };
    this.#go(loginScreen(search.started, provider));
  }

  /** Login or one-time code → back to search. */
  back(): void {
    // Not while a login is in flight (the guard): its answer (an account, maybe) must not be dropped on the floor.
    const form = this.#idle('login', 'mfa');
    if (form && this.canSearch) this.#go({ name: 'search', started: form.started, provider: form.provider });
  }

  /** Logs in with the user's credentials. */
  async logIn(credentials: Credentials): Promise<void> {
    const login = this.#idle('login');
    if (!login) return;
    this.#patch(login, { credentials });
    await this.#attemptLogin('login');
  }

  /** Completes the login with the one-time code. */
  async verify(code: string): Promise<void> {
    if (this.#idle('mfa')) await this.#attemptLogin('mfa', code);
  }

  /**
   * Logs in through the platform's own page: the sandbox gives its URL, the widget opens it in a new window (or the
   * user does, with the button, when the browser blocked it), and the sandbox, asked by a long poll, says when the
   * user has logged in there. The window itself never talks to this page: it works with `noopener`.
   */
  async logInWithOAuth(): Promise<void> {
    const login = this.#idle('login');
    if (!login || !this.oauth) return;
    const {
      started: { api },
      provider,
    } = login;
    this.#emit('login_attempt', { platformId: provider.platformId });
    this.#setBusy(true);
    let state: string;
    let url: string;
    try {
      ({ state, url } = await api.startOAuth(provider.platformId, provider.employerId));
      const now = this.#on('login');
      if (!now) return;
      this.#patch(now, { oauthWindow: { url, blocked: false } });
      this.#channel?.openUrl(url);
    } catch (cause) {
      return void (this.#on('login') && this.#fail(cause));
    }
    this.#setBusy(false);
    const outcome = await poll({
      ask: () => api.oauthResult(state),
      done: (result) => result.status === 'connected',
      // This attempt, while the user has not gone back (the URL's state is new for each attempt).
      current: () => this.#on('login')?.oauthWindow?.url === url,
      // A long poll: asked again at once, after a pause only when the connection was lost.
      pause: (_, afterFailure) => (afterFailure ? POLL_MAX_MS : 0),
    });
    if (outcome === 'gone') return;
    if (outcome === 'timeout')
      return this.#end('error', linkError('systemError', 'OAUTH_LOGIN_TIMEOUT', 'The login in the new window did not finish in time.'));
    if ('failed' in outcome) return this.#fail(outcome.failed);
    const now = this.#on('login');
    if (now) this.#patch(now, { oauthWindow: null });
    return this.#connected(outcome.answer, provider);
  }

  /** Starts the deposit switch with the user's allocation. */
  async allocate(allocation: Allocation): Promise<void> {
    if (this.#idle('allocation')) await this.#switchDeposit(allocation);
  }

  /** The user confirmed leaving while the job runs. */
  leave(): void {
    const running = this.#on('running');
    if (running?.confirmingClose) this.#exit('user_closed', null);
  }

  /** The user stays: the job goes on, and a widget that asked to close hears so. */
  stay(): void {
    const running = this.#on('running');
    if (!running?.confirmingClose) return;
    this.#patch(running, { confirmingClose: false });
    this.#channel?.answerClose('stay');
  }

  /**
   * The user leaves (Escape, the close control, Done or Close). Once the
   * outcome is known, leaving reports that outcome: `completed` after success,
   * `error` after a failure; before that it is `user_closed`.
   */
  close(): void {
    const screen = this.screen;
    if (SILENT_SCREENS.has(screen.name) || this.exited) return;
    // Leaving now would leave the job's outcome unknown to the user: they confirm first (leave() or stay()).
    if (screen.name === 'running') return this.#patch(screen, { confirmingClose: true });
    if (screen.name === 'success') this.#exit('completed', null);
    else if (screen.name === 'error' || screen.name === 'invalid_token') this.#exit('error', screen.error);
    else this.#exit('user_closed', null);
  }

  /** Inline, reports the content's height to the widget when it changed (every screen): the widget sizes its frame to it. */
  reportHeight(height: number): void {
    const rounded = Math.ceil(height);
    if (!this.frame.inline) return;
    if (rounded !== this.#reportedHeight && this.#channel?.sendHeight(rounded)) this.#reportedHeight = rounded;
  }

  async #start(token: string): Promise<void> {
    let started: Started;
    try {
      started = await LinkApi.start(token);
    } catch (cause) {
      return this.#fail(cause);
    }
    const { session } = started;
    this.#emit('open', { linkTokenId: session.link_token_id });
    // The integrator already knows the platform (or the employer, whose platform the session names): no need to search for it.
    const provider = session.platform_id === null ? null : { platformId: session.platform_id, employerId: session.employer_id, name: null };
    this.#go(session.skip_intro_screen ? afterIntro(started, provider) : { name: 'intro', started, provider });
  }

  async #attemptLogin(from: 'login' | 'mfa', mfaCode?: string): Promise<void> {
    const screen = this.#on(from);
    if (!screen?.credentials) return;
    const { started, provider, credentials } = screen;
    this.#emit('login_attempt', { platformId: provider.platformId });
    this.#setBusy(true);
    let result: LoginResult;
    try {
      result = await started.api.login({
        platform_id: provider.platformId,
        employer_id: provider.employerId,
        ...credentials,
        ...(mfaCode === undefined ? {} : { mfa_code: mfaCode }),
      });
    } catch (cause) {
      const now = this.#on(from);
      if (!now) return;
      if (cause instanceof LinkApiError && (cause.code === 'INVALID_CREDENTIALS' || cause.code === 'INVALID_MFA_CODE')) {
        this.#emit('error', linkError('invalidCredentials', cause.code, cause.message, true));
        return this.#patch(now, { busy: false, formError: from === 'mfa' ? pageStrings().wrongCode : pageStrings().wrongCredentials });
      }
      if (cause instanceof LinkApiError && cause.code === 'NETWORK_ERROR') {
        // A lost connection on a form is worth another try, not the end of the session.
        this.#emit('error', linkError('networkError', cause.code, cause.message, true));
        return this.#patch(now, { busy: false, formError: pageStrings().unreachable });
      }
      return this.#fail(cause);
    }
    if (!this.#on(from)) return;
    this.#setBusy(false);
    if (result.status === 'mfa_required') return this.#go({ name: 'mfa', started, provider, credentials, connected: null, ...FRESH_FORM });
    return this.#connected(result, provider);
  }

  /** Logged in (with a password here, or on the platform's own page): the job follows. */
  #connected(result: Extract<LoginResult, { status: 'connected' }>, picked: LinkProvider): Promise<void> | void {
    const form = this.#on('login', 'mfa');
    if (!form) return;
    const provider = { ...picked, platformId: result.platform_id };
    const connected: Connected = {
      accountId: result.account_id,
      jobId: result.job_id,
      job: result.job,
      percentageAllowed: result.supports_percentage_allocation,
    };
    // The password is not kept past the login.
    this.#patch(form, { credentials: null, provider, connected });
    this.#emit('login', { accountId: result.account_id, platformId: result.platform_id, linkTokenId: form.started.session.link_token_id });
    if (result.job !== 'direct_deposit_switch') return this.#runJob(null);
    // The integrator chose the allocation in the Link token: the user is not asked, unless this provider cannot take it.
    const preset = form.started.session.allocation ?? null;
    if (preset && (preset.type !== 'percentage' || connected.percentageAllowed)) return this.#switchDeposit(preset);
    this.#go({ name: 'allocation', started: form.started, provider, connected, ...FRESH_FORM });
  }

  /** Runs the deposit switch; `input_allocation` says with what, whether the user chose it or the Link token did. */
  async #switchDeposit(allocation: Allocation): Promise<void> {
    this.#emit('input_allocation', { action: 'partial_switch', allocation });
    await this.#runJob(allocation);
  }

  /** Starts the job of the login just made (from the screen that made it, or the allocation), then watches it run. */
  async #runJob(allocation: Allocation | null): Promise<void> {
    const form = this.#on('login', 'mfa', 'allocation');
    if (!form?.connected) return;
    const { started, provider, connected } = form;
    this.#setBusy(true);
    try {
      await started.api.runJob(connected.jobId, allocation);
    } catch (cause) {
      this.#setBusy(false);
      return this.#fail(cause);
    }
    this.#setBusy(false);
    this.#go({ name: 'running', started, provider, connected, confirmingClose: false });
    const outcome = await poll({
      ask: () => started.api.getJob(connected.jobId),
      done: (job): job is LinkJob => job.status === 'success' || job.status === 'error',
      current: () => this.screen.name === 'running',
      pause: (attempt) => Math.min(POLL_FIRST_MS * 1.5 ** attempt, POLL_MAX_MS),
    });
    if (outcome === 'gone') return;
    if (outcome === 'timeout') return this.#end('error', linkError('systemError', 'JOB_WATCH_TIMEOUT', 'The job did not finish in time.'));
    if ('failed' in outcome) return this.#fail(outcome.failed);
    const job = outcome.answer;
    if (job.status === 'success') return this.#succeed(job);
    const { code, message } = job.error ?? { code: 'JOB_FAILED', message: 'The job failed.' };
    this.#end('error', linkError('platformError', code, message));
  }

  #succeed(job: LinkJob): void {
    const running = this.#on('running');
    if (!running) return;
    const { started, provider, connected } = running;
    this.#emit('success', {
      accountId: connected.accountId,
      platformId: provider.platformId,
      jobId: job.job_id,
      job: job.job,
      params: job.params,
      linkTokenId: started.session.link_token_id,
    });
    this.#go({ name: 'success', started, provider, connected, exited: false });
  }

  /** Turns any thrown value into a terminal error screen with a typed {@link LinkError}. */
  #fail(cause: unknown): void {
    if (this.screen.name === 'closed') return;
    if (!(cause instanceof LinkApiError)) {
      console.error('payroll-link: unexpected failure in the Link flow', cause);
      return this.#end('error', linkError('systemError', 'UNEXPECTED', 'Something went wrong in the Link flow.'));
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
    this.#end(invalidToken ? 'invalid_token' : 'error', linkError(type, cause.code, cause.message));
  }

  #end(name: 'error' | 'invalid_token', error: LinkError): void {
    const known = this.#known();
    this.#emit('error', error);
    this.#go({ name, error, exited: false, ...known });
  }

  #exit(reason: FrameExitPayload['reason'], error: LinkError | null): void {
    const payload: FrameExitPayload = { reason, error };
    const accountId = this.#known().connected?.accountId;
    if (accountId) payload.accountId = accountId;
    this.#emit('exit', payload);
    this.#channel?.dispose();
    // Inline, the page shows on in the widget's page: its final screen (success, error) stays there.
    const screen = this.screen;
    if (this.frame.inline && isFinal(screen)) this.#patch(screen, { exited: true });
    else this.#go({ name: 'closed' });
  }

  /** Shows a new screen: a form on it starts idle and empty, and the widget hears of it (but for the silent ones). */
  #go(screen: LinkFlowScreen): void {
    // After exit the page is over: an answer still in flight must not bring a screen back.
    if (this.exited) return;
    this.screen = screen;
    if (!SILENT_SCREENS.has(screen.name)) this.#emit('screen_transition', { screenName: screen.name, ...picked(this.#known().provider) });
    this.#host.requestUpdate();
  }

  /** Changes the data of the screen shown, which stays: no `screen_transition`. */
  #patch<S extends LinkFlowScreen>(screen: S, change: Partial<S>): void {
    this.screen = { ...screen, ...change };
    this.#host.requestUpdate();
  }

  /** The current screen if it is one of `names`; null if the flow has moved on. */
  #on<N extends LinkScreenName>(...names: N[]): ScreenOf<N> | null {
    return isOn(this.screen, names) ? this.screen : null;
  }

  /** The guard of every intent: the current screen if it is one of `names` and no call of its is in flight. */
  #idle<N extends LinkScreenName>(...names: N[]): ScreenOf<N> | null {
    const screen = this.#on(...names);
    return screen && !('busy' in screen && screen.busy) ? screen : null;
  }

  /** What the flow knows on the current screen. */
  #known(): Known {
    const screen = this.screen;
    return {
      started: 'started' in screen ? screen.started : null,
      provider: 'provider' in screen ? screen.provider : null,
      connected: 'connected' in screen ? screen.connected : null,
    };
  }

  /** A call started by the current form is in flight (or done); a new call clears the form's last problem. */
  #setBusy(busy: boolean): void {
    const screen = this.screen;
    if ('busy' in screen) this.#patch(screen, busy ? { busy, formError: null } : { busy });
  }

  #emit<N extends EventMessage['name']>(name: N, payload: EventOf<N>['payload']): void {
    // The cast joins name and payload, which TypeScript checks separately; LinkPageChannel validates the result.
    this.#channel?.send({ type: 'payroll-link:event', name, payload } as EventOf<N>);
  }

  readonly #onKeydown = (event: KeyboardEvent): void => {
    // Inline, the flow is part of the widget's page: Escape there is the page's, not a way out of the flow.
    if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing || this.frame.inline) return;
    event.preventDefault();
    this.close();
  };
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
const afterIntro = (started: Started, provider: LinkProvider | null): LinkFlowScreen =>
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
