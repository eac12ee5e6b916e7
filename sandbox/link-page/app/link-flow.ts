import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ColorScheme, EventMessage, FrameExitPayload, LinkError, LinkErrorType, ScreenTransitionPayload } from '../../../src/protocol.js';
import { linkError } from '../../../src/link-error.js';
import { LinkPageChannel } from './link-page-channel.js';
import type { Allocation, LinkJob, LinkSession, LoginResult, SearchResult } from '../../api/link-api-schemas.js';
import { OAUTH_PLATFORM } from '../../state/oauth-platform.js';
import { LinkApi, LinkApiError } from './link-api-client.js';
import { pageStrings } from './link-strings.js';

/**
 * The screens of the Link flow. The names of the user-facing ones are also
 * what `screen_transition` events carry.
 */
export type LinkScreenName =
  | 'waiting'
  | 'standalone'
  | 'intro'
  | 'search'
  | 'login'
  | 'mfa'
  | 'allocation'
  | 'running'
  | 'success'
  | 'error'
  | 'invalid_token'
  | 'closed';

/** The employer or platform the user logs in to; `name` is null when the Link token preset the platform. */
export interface LinkProvider {
  platformId: string;
  employerId: string | null;
  name: string | null;
}

/** What the user typed on the login screen. */
export interface Credentials {
  username: string;
  password: string;
}

/**
 * Screens outside the flow proper: waiting for the host, opened outside a frame, or closed. They send no
 * `screen_transition`, and have nothing to close (no close control, and `close()` does nothing).
 */
export const SILENT_SCREENS: ReadonlySet<LinkScreenName> = new Set(['waiting', 'standalone', 'closed']);
/** Screens that end the flow: inline, the one shown when the session ends stays. */
const FINAL_SCREENS: ReadonlySet<LinkScreenName> = new Set(['success', 'error', 'invalid_token']);
/** First pause between job polls; it grows up to {@link POLL_MAX_MS}. */
const POLL_FIRST_MS = 200;
const POLL_MAX_MS = 2_000;
/** The page stops watching a job after this long and reports a timeout, so it never polls forever. */
const JOB_WATCH_LIMIT_MS = 10 * 60_000;
/** Consecutive failed polls tolerated before the page gives up on the network. */
const POLL_FAILURES_TOLERATED = 3;

type EventOf<N extends EventMessage['name']> = Extract<EventMessage, { name: N }>;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
 *   render() { return html`${this.#flow.screen}`; }
 * }
 * ```
 */
export class LinkFlow implements ReactiveController {
  /** The screen to show. */
  screen: LinkScreenName = 'waiting';
  /** The Link session, once the token has been accepted. */
  session: LinkSession | null = null;
  /** The session's API, once the token has been accepted. */
  api: LinkApi | null = null;
  /** Who the user logs in to. */
  provider: LinkProvider | null = null;
  /** True while a call started by the current screen is in flight. */
  busy = false;
  /** A non-terminal problem to show on the current form (wrong password, wrong code). */
  formError: string | null = null;
  /** Why the flow ended in the `error` or `invalid_token` screen. */
  error: LinkError | null = null;
  /** The job created at login, e.g. `direct_deposit_switch` or `shifts`. */
  job: string | null = null;
  /** Whether the provider logged in to takes a percentage allocation (from the login answer). */
  percentageAllowed = false;
  /** The embedding page draws its own close control (the widget's modal does), so the header leaves ours out. */
  hostCloseControl = false;
  /** The widget shows this page inline, in its own page's flow: sized to its content, and its final screen stays. */
  inline = false;
  /** The session ended (`exit` sent): inline, the final screen stays, with nothing left to press. */
  exited = false;
  #reportedHeight = 0;
  /**
   * The OAuth-style platform's login window, once asked for: its URL, and whether the browser blocked the widget's
   * popup (then the login screen's "Continue in a new window" button opens it, its click being the gesture).
   */
  oauthWindow: { url: string; blocked: boolean } | null = null;
  /** The user asked to leave while a job runs, and is asked to confirm. */
  confirmingClose = false;
  /** The colour mode the widget asked for in its init (`auto`: the user's `prefers-color-scheme`); light until then. */
  colorScheme: ColorScheme = 'light';

  readonly #host: ReactiveControllerHost;
  #channel: LinkPageChannel | null = null;
  #credentials: Credentials | null = null;
  #accountId: string | null = null;
  #jobId: string | null = null;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('keydown', this.#onKeydown);
    if (this.#channel || this.screen !== 'waiting') return;
    this.#channel = LinkPageChannel.connect(
      (init) => {
        this.hostCloseControl = init.hostCloseControl === true;
        this.inline = init.display === 'inline';
        this.colorScheme = init.colorScheme ?? 'light';
        void this.#start(init.token);
      },
      // An init this page cannot accept ends the flow at once, on a screen that says so: never "Getting ready" forever.
      (error) => this.#end(error.type === 'invalidLinkToken' ? 'invalid_token' : 'error', error),
      {
        onOpenUrlResult: ({ url, outcome }) => {
          const opening = this.oauthWindow;
          if (!opening || opening.url !== url) return;
          if (outcome === 'blocked') this.oauthWindow = { ...opening, blocked: true };
          // Refused by the widget's contract: nothing was opened, nothing will be.
          if (outcome === 'refused') [this.oauthWindow, this.formError] = [null, pageStrings().oauthRefused];
          this.#host.requestUpdate();
        },
        onCloseRequest: () => {
          // Asked from outside the frame: while a job runs the user confirms first, and the widget waits for that.
          if (this.screen === 'running') {
            this.#channel?.answerClose('confirming');
            return this.close();
          }
          // Still exchanging the token: nothing to lose, end now rather than let the widget wait.
          if (this.screen === 'waiting') return this.#exit('user_closed', null);
          this.close();
        },
      },
    );
    if (!this.#channel) this.#go('standalone');
  }

  hostDisconnected(): void {
    window.removeEventListener('keydown', this.#onKeydown);
  }

  /** Intro → search, or straight to the login when the Link token named the platform. */
  begin(): void {
    if (this.screen === 'intro') this.#go(this.provider ? 'login' : 'search');
  }

  /** The provider logs in on its own page, in a new window (the sandbox's OAuth-style platform), not with a password here. */
  get oauth(): boolean {
    return this.provider?.platformId === OAUTH_PLATFORM.id;
  }

  /**
   * Logs in through the platform's own page: the sandbox gives its URL, the widget opens it in a new window (or the
   * user does, with the button, when the browser blocked it), and the sandbox, asked by a long poll, says when the
   * user has logged in there. The window itself never talks to this page: it works with `noopener`.
   */
  async logInWithOAuth(): Promise<void> {
    const { api, provider } = this;
    if (this.screen !== 'login' || this.busy || !api || !provider || !this.oauth) return;
    this.#emit('login_attempt', { platformId: provider.platformId });
    this.#setBusy(true);
    let state: string;
    let url: string;
    try {
      ({ state, url } = await api.startOAuth(provider.platformId, provider.employerId));
      if (this.screen !== 'login') return;
      this.oauthWindow = { url, blocked: false };
      this.#channel?.openUrl(url);
    } catch (cause) {
      return void (this.screen === 'login' && this.#fail(cause));
    }
    this.#setBusy(false);
    // This attempt, while the user has not gone back (the URL's state is new for each attempt).
    const current = () => this.oauthWindow?.url === url && this.screen === 'login';
    const deadline = Date.now() + JOB_WATCH_LIMIT_MS;
    let failures = 0;
    // Bounded: until the login is there, the user went back, or the deadline.
    while (current()) {
      if (Date.now() > deadline) {
        return this.#end('error', linkError('systemError', 'OAUTH_LOGIN_TIMEOUT', 'The login in the new window did not finish in time.'));
      }
      let result;
      try {
        result = await api.oauthResult(state);
        failures = 0;
      } catch (cause) {
        if (++failures < POLL_FAILURES_TOLERATED && cause instanceof LinkApiError && cause.code === 'NETWORK_ERROR') {
          await wait(POLL_MAX_MS);
          continue;
        }
        return void (current() && this.#fail(cause));
      }
      if (!current()) return;
      if (result.status === 'connected') {
        this.oauthWindow = null;
        return this.#connected(result, provider);
      }
    }
  }

  /** The user confirmed leaving while the job runs. */
  leave(): void {
    if (this.confirmingClose) this.#exit('user_closed', null);
  }

  /** The user stays: the job goes on, and a widget that asked to close hears so. */
  stay(): void {
    if (!this.confirmingClose) return;
    this.confirmingClose = false;
    this.#channel?.answerClose('stay');
    this.#host.requestUpdate();
  }

  /** A reconnect session logs in to one account's platform: there is no search to go back to. */
  get canSearch(): boolean {
    return this.session?.account_id == null;
  }

  /** Search → login with the picked employer or platform. */
  pick(item: SearchResult): void {
    if (this.screen !== 'search') return;
    if (item.kind === 'employer') this.#emit('select_employer', { selectedEmployerId: item.id, selectedEmployerName: item.name });
    else this.#emit('select_platform', { selectedPlatformId: item.id, selectedPlatformName: item.name });
    this.provider = {
      platformId: item.platform_id,
      employerId: item.kind === 'employer' ? item.id : null,
      name: item.name,
    };
    this.#go('login');
  }

  /** Login or one-time code → back to search. */
  back(): void {
    // Not while a login is in flight: its answer (an account, maybe) must not be dropped on the floor.
    if ((this.screen !== 'login' && this.screen !== 'mfa') || this.busy || !this.canSearch) return;
    this.#credentials = null;
    this.oauthWindow = null;
    this.#go('search');
  }

  /** Logs in with the user's credentials. */
  async logIn(credentials: Credentials): Promise<void> {
    if (this.screen !== 'login' || this.busy) return;
    this.#credentials = credentials;
    await this.#attemptLogin('login');
  }

  /** Completes the login with the one-time code. */
  async verify(code: string): Promise<void> {
    if (this.screen !== 'mfa' || this.busy) return;
    await this.#attemptLogin('mfa', code);
  }

  /** Starts the deposit switch with the user's allocation. */
  async allocate(allocation: Allocation): Promise<void> {
    if (this.screen !== 'allocation' || this.busy || !this.#jobId) return;
    await this.#switchDeposit(this.#jobId, allocation);
  }

  /**
   * The user leaves (Escape, the close control, Done or Close). Once the
   * outcome is known, leaving reports that outcome: `completed` after success,
   * `error` after a failure; before that it is `user_closed`.
   */
  close(): void {
    if (SILENT_SCREENS.has(this.screen)) return;
    // Leaving now would leave the job's outcome unknown to the user: they confirm first (leave() or stay()).
    if (this.screen === 'running') {
      this.confirmingClose = true;
      return this.#host.requestUpdate();
    }
    if (this.screen === 'success') this.#exit('completed', null);
    else if (this.screen === 'error' || this.screen === 'invalid_token') this.#exit('error', this.error);
    else this.#exit('user_closed', null);
  }

  async #start(token: string): Promise<void> {
    try {
      const { api, session } = await LinkApi.start(token);
      this.api = api;
      this.session = session;
    } catch (cause) {
      return this.#fail(cause);
    }
    const { session } = this;
    this.#emit('open', { linkTokenId: session.link_token_id });
    if (session.platform_id !== null) {
      // The integrator already knows the platform (or the employer, whose platform the session names): no need to search for it.
      this.provider = { platformId: session.platform_id, employerId: session.employer_id, name: null };
    }
    if (!session.skip_intro_screen) this.#go('intro');
    else this.#go(this.provider ? 'login' : 'search');
  }

  async #attemptLogin(from: 'login' | 'mfa', mfaCode?: string): Promise<void> {
    const { api, provider } = this;
    const credentials = this.#credentials;
    if (!api || !provider || !credentials) return;
    this.#emit('login_attempt', { platformId: provider.platformId });
    this.#setBusy(true);
    let result;
    try {
      result = await api.login({
        platform_id: provider.platformId,
        employer_id: provider.employerId,
        ...credentials,
        ...(mfaCode === undefined ? {} : { mfa_code: mfaCode }),
      });
    } catch (cause) {
      if (this.screen !== from) return;
      this.#setBusy(false);
      if (cause instanceof LinkApiError && (cause.code === 'INVALID_CREDENTIALS' || cause.code === 'INVALID_MFA_CODE')) {
        const message = from === 'mfa' ? pageStrings().wrongCode : pageStrings().wrongCredentials;
        this.#emit('error', linkError('invalidCredentials', cause.code, cause.message, true));
        this.formError = message;
        this.#host.requestUpdate();
        return;
      }
      if (cause instanceof LinkApiError && cause.code === 'NETWORK_ERROR') {
        // A lost connection on a form is worth another try, not the end of the session.
        this.#emit('error', linkError('networkError', cause.code, cause.message, true));
        this.formError = pageStrings().unreachable;
        this.#host.requestUpdate();
        return;
      }
      return this.#fail(cause);
    }
    if (this.screen !== from) return;
    this.#setBusy(false);
    if (result.status === 'mfa_required') {
      this.#go('mfa');
      return;
    }
    return this.#connected(result, provider);
  }

  /** Logged in (with a password here, or on the platform's own page): the job follows. */
  #connected(result: Extract<LoginResult, { status: 'connected' }>, provider: LinkProvider): Promise<void> | void {
    this.#credentials = null;
    this.#accountId = result.account_id;
    this.#jobId = result.job_id;
    this.job = result.job;
    this.provider = { ...provider, platformId: result.platform_id };
    this.percentageAllowed = result.supports_percentage_allocation;
    this.#emit('login', { accountId: result.account_id, platformId: result.platform_id, linkTokenId: this.#linkTokenId() });
    if (result.job !== 'direct_deposit_switch') return this.#runJob(result.job_id, null);
    // The integrator chose the allocation in the Link token: the user is not asked, unless this provider cannot take it.
    const preset = this.session?.allocation ?? null;
    if (preset && (preset.type !== 'percentage' || this.percentageAllowed)) return this.#switchDeposit(result.job_id, preset);
    this.#go('allocation');
  }

  /** Runs the deposit switch; `input_allocation` says with what, whether the user chose it or the Link token did. */
  async #switchDeposit(jobId: string, allocation: Allocation): Promise<void> {
    this.#emit('input_allocation', { action: 'partial_switch', allocation });
    await this.#runJob(jobId, allocation);
  }

  async #runJob(jobId: string, allocation: Allocation | null): Promise<void> {
    const api = this.api;
    if (!api) return;
    this.#setBusy(true);
    try {
      await api.runJob(jobId, allocation);
    } catch (cause) {
      this.#setBusy(false);
      return this.#fail(cause);
    }
    this.#setBusy(false);
    this.#go('running');
    await this.#watchJob(api, jobId);
  }

  async #watchJob(api: LinkApi, jobId: string): Promise<void> {
    const deadline = Date.now() + JOB_WATCH_LIMIT_MS;
    let delay = POLL_FIRST_MS;
    let failures = 0;
    while (this.screen === 'running') {
      await wait(delay);
      delay = Math.min(delay * 1.5, POLL_MAX_MS);
      if (this.screen !== 'running') return;
      let job: LinkJob;
      try {
        job = await api.getJob(jobId);
        failures = 0;
      } catch (cause) {
        if (++failures < POLL_FAILURES_TOLERATED && cause instanceof LinkApiError && cause.code === 'NETWORK_ERROR') continue;
        return this.#fail(cause);
      }
      if (this.screen !== 'running') return;
      if (job.status === 'success') return this.#succeed(job);
      if (job.status === 'error') {
        const { code, message } = job.error ?? { code: 'JOB_FAILED', message: 'The job failed.' };
        return this.#end('error', linkError('platformError', code, message));
      }
      if (Date.now() > deadline) {
        return this.#end('error', linkError('systemError', 'JOB_WATCH_TIMEOUT', 'The job did not finish in time.'));
      }
    }
  }

  #succeed(job: LinkJob): void {
    if (!this.provider || !this.#accountId) return;
    this.#emit('success', {
      accountId: this.#accountId,
      platformId: this.provider.platformId,
      jobId: job.job_id,
      job: job.job,
      params: job.params,
      linkTokenId: this.#linkTokenId(),
    });
    this.#go('success');
  }

  /** Turns any thrown value into a terminal error screen with a typed {@link LinkError}. */
  #fail(cause: unknown): void {
    if (this.screen === 'closed') return;
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

  #end(screen: 'error' | 'invalid_token', error: LinkError): void {
    this.error = error;
    this.busy = false;
    this.#emit('error', error);
    this.#go(screen);
  }

  #exit(reason: FrameExitPayload['reason'], error: LinkError | null): void {
    const payload: FrameExitPayload = { reason, error };
    if (this.#accountId) payload.accountId = this.#accountId;
    this.#emit('exit', payload);
    this.#channel?.dispose();
    // Inline, the page shows on in the widget's page: its final screen (success, error) stays there.
    if (!this.inline || !FINAL_SCREENS.has(this.screen)) this.#go('closed');
    this.exited = true;
    this.#host.requestUpdate();
  }

  #go(screen: LinkScreenName): void {
    // After exit the page is over: an answer still in flight must not bring a screen back.
    if (this.screen === 'closed' || this.exited) return;
    this.screen = screen;
    this.formError = null;
    this.confirmingClose = false;
    this.busy = false;
    if (!SILENT_SCREENS.has(screen)) this.#emit('screen_transition', { screenName: screen, ...this.#picked() });
    this.#host.requestUpdate();
  }

  /** Inline, reports the content's height to the widget when it changed (every screen): the widget sizes its frame to it. */
  reportHeight(height: number): void {
    const rounded = Math.ceil(height);
    if (!this.inline) return;
    if (rounded !== this.#reportedHeight && this.#channel?.sendHeight(rounded)) this.#reportedHeight = rounded;
  }

  /** The employer or platform picked so far, in `screen_transition`'s fields (Pinwheel's); the name only when known. */
  #picked(): Omit<ScreenTransitionPayload, 'screenName'> {
    const provider = this.provider;
    if (!provider) return {};
    const { employerId, platformId, name } = provider;
    // No key for a name not known (the Link token preset the platform): a message carries no `undefined`.
    if (employerId) return name === null ? { selectedEmployerId: employerId } : { selectedEmployerId: employerId, selectedEmployerName: name };
    return name === null ? { selectedPlatformId: platformId } : { selectedPlatformId: platformId, selectedPlatformName: name };
  }

  #setBusy(busy: boolean): void {
    this.busy = busy;
    if (busy) this.formError = null;
    this.#host.requestUpdate();
  }

  #linkTokenId(): string {
    return this.session?.link_token_id ?? '';
  }

  #emit<N extends EventMessage['name']>(name: N, payload: EventOf<N>['payload']): void {
    // The cast joins name and payload, which TypeScript checks separately; LinkPageChannel validates the result.
    this.#channel?.send({ type: 'payroll-link:event', name, payload } as EventOf<N>);
  }

  readonly #onKeydown = (event: KeyboardEvent): void => {
    // Inline, the flow is part of the widget's page: Escape there is the page's, not a way out of the flow.
    if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing || this.inline) return;
    event.preventDefault();
    this.close();
  };
}
