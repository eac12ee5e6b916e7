import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { InitMessage } from '../../../src/protocol.js';
import type { Allocation, LinkJob, LinkPageSession, SearchResult } from '../../api/link-api-schemas.js';
import { LinkApi } from './link-api-client.js';
import type { LinkFlowEffect, LinkFlowEffectOf, LinkFlowEffectType, LinkFlowEvent } from './link-flow-events.js';
import { canSearch, isOAuth, known, transition } from './link-flow-moves.js';
import { isFinal, type Credentials, type LinkFlowScreen } from './link-flow-screen.js';
import { LinkPageChannel } from './link-page-channel.js';
import { poll, POLL_MAX_MS, WAIT_LIMIT_MS, WAIT_WARNING_MS, type PollOptions } from './poll.js';

/**
 * How the widget embeds this page: its init message as the contract parsed it (the token aside: the flow's), with
 * what an absent field means, as InitMessageSchema's comments say; the defaults stand before the init too. A new
 * init field reaches the page here with no edit; one whose absence means something gets its default here.
 * `takeFocus` has none: the channel applies it as the init arrives, before the schema (link-page-channel.ts).
 */
const frameSetup = ({ type, version, token, ...init }: Partial<InitMessage>) => ({
  ...init,
  hostCloseControl: init.hostCloseControl ?? false,
  display: init.display ?? 'modal',
  colorScheme: init.colorScheme ?? 'light',
});

/** How the widget embeds this page, from its init: fixed for the page's life. */
export type FrameSetup = Readonly<ReturnType<typeof frameSetup>>;

/** First pause between job polls; it grows by half each time, up to `POLL_MAX_MS`. */
const POLL_FIRST_MS = 200;

/**
 * How a poll's ends come back as events. `passed`, its period's time limit, is how the poll asks whether to go on:
 * while the screen would take it, the screen still waits for this period and has not paused at its limit.
 */
interface PollEvents<D> {
  answer(answer: D): LinkFlowEvent;
  passed: LinkFlowEvent;
  failed(cause: unknown): LinkFlowEvent;
}

/**
 * The Link flow's runner: it feeds every event (the widget's messages, the user's intents, the sandbox's answers)
 * to the pure `transition()` of link-flow-moves.ts, keeps the screen it returns, and runs the effects it hands
 * back: the calls to the sandbox through {@link LinkApi}, whose results come back as events, and the messages to
 * the widget through {@link LinkPageChannel}. The element that hosts it only renders {@link LinkFlow.screen} and
 * forwards the user's intents to the public methods here.
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
  frame: FrameSetup = frameSetup({});

  readonly #host: ReactiveControllerHost;
  /** Connected once, on the first `hostConnected`: null when the page is not in a frame. */
  #channel: LinkPageChannel | null | undefined = undefined;
  #reportedHeight = 0;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('keydown', this.#onKeydown);
    if (this.#channel !== undefined) return;
    this.#channel = LinkPageChannel.connect(
      (init) => {
        this.frame = frameSetup(init);
        this.#dispatch({ type: 'init', token: init.token });
      },
      (error) => this.#dispatch({ type: 'refused', error }),
      {
        onOpenUrlResult: ({ url, outcome }) => this.#dispatch({ type: 'openUrlResult', url, outcome }),
        onCloseRequest: () => this.#dispatch({ type: 'closeRequest', inline: this.inline }),
      },
    );
    if (!this.#channel) this.#dispatch({ type: 'standalone' });
  }

  hostDisconnected(): void {
    window.removeEventListener('keydown', this.#onKeydown);
  }

  /** The Link session, once the token has been accepted. */
  get session(): LinkPageSession | null {
    return known(this.screen).started?.session ?? null;
  }

  /** The widget shows this page inline, in its own page's flow: sized to its content, and its final screen stays. */
  get inline(): boolean {
    return this.frame.display === 'inline';
  }

  /** The session ended (`exit` sent): inline, the final screen stays, with nothing left to press. */
  get exited(): boolean {
    return this.screen.name === 'closed' || (isFinal(this.screen) && this.screen.exited);
  }

  /** A reconnect session logs in to one account's platform: there is no search to go back to. */
  get canSearch(): boolean {
    const { started } = known(this.screen);
    return started === null || canSearch(started);
  }

  /** The provider logs in on its own page, in a new window (the sandbox's OAuth-style platform), not with a password here. */
  get oauth(): boolean {
    return this.screen.name === 'login' && isOAuth(this.screen.provider);
  }

  /** Intro → search, or straight to the login when the Link token named the platform. */
  begin(): void {
    this.#dispatch({ type: 'begin' });
  }

  /** Search → login with the picked employer or platform. */
  pick(item: SearchResult): void {
    this.#dispatch({ type: 'pick', item });
  }

  /** Login or one-time code → back to search. */
  back(): void {
    this.#dispatch({ type: 'back' });
  }

  /** Logs in with the user's credentials. */
  logIn(credentials: Credentials): void {
    this.#dispatch({ type: 'logIn', credentials });
  }

  /** Completes the login with the one-time code. */
  verify(code: string): void {
    this.#dispatch({ type: 'verify', code });
  }

  /** Logs in through the platform's own page, in a new window the widget opens. */
  logInWithOAuth(): void {
    this.#dispatch({ type: 'logInWithOAuth' });
  }

  /** Starts the deposit switch with the user's allocation. */
  allocate(allocation: Allocation): void {
    this.#dispatch({ type: 'allocate', allocation });
  }

  /** The user confirmed leaving while the job runs. */
  leave(): void {
    this.#dispatch({ type: 'leave' });
  }

  /** The user stays: the job goes on, and a widget that asked to close hears so. */
  stay(): void {
    this.#dispatch({ type: 'stay' });
  }

  /** Warned of a wait's time limit (the login in the other window, the job), the user waits another full period. */
  keepWaiting(): void {
    this.#dispatch({ type: 'keepWaiting' });
  }

  /** Warned of the OAuth wait's limit, the user logs in again, in a new window: the same Link session. */
  tryAgain(): void {
    this.#dispatch({ type: 'tryAgain' });
  }

  /**
   * The user leaves (Escape, the close control, Done or Close). Once the
   * outcome is known, leaving reports that outcome: `completed` after success,
   * `error` after a failure; before that it is `user_closed`.
   */
  close(): void {
    this.#dispatch({ type: 'close', inline: this.inline });
  }

  /** Inline, reports the content's height to the widget when it changed (every screen): the widget sizes its frame to it. */
  reportHeight(height: number): void {
    const rounded = Math.ceil(height);
    if (!this.inline) return;
    if (rounded !== this.#reportedHeight && this.#channel?.sendHeight(rounded)) this.#reportedHeight = rounded;
  }

  /** One move: the screen it leads to is shown, then its effects run, in order. */
  #dispatch(event: LinkFlowEvent): void {
    const { state, effects } = transition(this.screen, event);
    if (state !== this.screen) {
      this.screen = state;
      this.#host.requestUpdate();
    }
    for (const effect of effects) {
      // The record's type pairs each runner with its effect, which this lookup does too.
      const run = this.#effects[effect.type] as (effect: LinkFlowEffect) => void;
      run(effect);
    }
  }

  /** Whether the screen shown takes `event` (it would move): a poll goes on only while its screen waits for its end. */
  #takes(event: LinkFlowEvent): boolean {
    return transition(this.screen, event).state !== this.screen;
  }

  /** Runs `call`; its answer or its failure comes back as an event. */
  #settle<T>(call: Promise<T>, answered: (answer: T) => LinkFlowEvent, failed: (cause: unknown) => LinkFlowEvent): void {
    call.then(
      (answer) => this.#dispatch(answered(answer)),
      (cause: unknown) => this.#dispatch(failed(cause)),
    );
  }

  /** Polls until `options.done`; how it ended comes back as an event, unless the screen stopped waiting for it. */
  #poll<T, D extends T>(options: Omit<PollOptions<T, D>, 'current'>, events: PollEvents<D>): void {
    void poll({ ...options, current: () => this.#takes(events.passed) }).then((outcome) => {
      if (outcome === 'gone') return;
      this.#dispatch('failed' in outcome ? events.failed(outcome.failed) : events.answer(outcome.answer));
    });
  }

  /** How each effect is run: one entry per effect, none looks at the screen. */
  readonly #effects: { readonly [T in LinkFlowEffectType]: (effect: LinkFlowEffectOf<T>) => void } = {
    emit: ({ message }) => void this.#channel?.send(message),
    start: ({ token }) =>
      this.#settle(
        LinkApi.start(token),
        (started) => ({ type: 'started', started }),
        (cause) => ({ type: 'startFailed', cause }),
      ),
    logIn: ({ api, request }) =>
      this.#settle(
        api.login(request),
        (result) => ({ type: 'loggedIn', result }),
        (cause) => ({ type: 'loginFailed', cause }),
      ),
    startOAuth: ({ api, platformId, employerId }) =>
      this.#settle(
        api.startOAuth(platformId, employerId),
        ({ state, url }) => ({ type: 'oauthStarted', state, url }),
        (cause) => ({ type: 'oauthStartFailed', cause }),
      ),
    openUrl: ({ url }) => this.#channel?.openUrl(url),
    pollOAuth: ({ api, state, url, round }) =>
      this.#poll(
        {
          ask: () => api.oauthResult(state),
          done: (result) => result.status === 'connected',
          // A long poll: asked again at once, after a pause only when the connection was lost.
          pause: (_, afterFailure) => (afterFailure ? POLL_MAX_MS : 0),
        },
        {
          answer: (result) => ({ type: 'oauthLoggedIn', url, result }),
          passed: { type: 'oauthWaitPassed', url, round },
          failed: (cause) => ({ type: 'oauthFailed', url, cause }),
        },
      ),
    runJob: ({ api, jobId, allocation }) =>
      this.#settle(
        api.runJob(jobId, allocation),
        () => ({ type: 'jobStarted' }),
        (cause) => ({ type: 'jobStartFailed', cause }),
      ),
    pollJob: ({ api, jobId, round }) =>
      this.#poll(
        {
          ask: () => api.getJob(jobId),
          done: (job): job is LinkJob => job.status === 'success' || job.status === 'error',
          pause: (attempt) => Math.min(POLL_FIRST_MS * 1.5 ** attempt, POLL_MAX_MS),
        },
        {
          answer: (job) => ({ type: 'jobEnded', job }),
          passed: { type: 'jobWaitPassed', round },
          failed: (cause) => ({ type: 'jobFailed', cause }),
        },
      ),
    // Timers are never cleared: an event of a period or a screen that is gone moves nothing (see the table).
    timeLimit: ({ near, passed }) => {
      setTimeout(() => this.#dispatch(near), WAIT_LIMIT_MS - WAIT_WARNING_MS);
      setTimeout(() => this.#dispatch(passed), WAIT_LIMIT_MS);
    },
    answerClose: ({ answer }) => this.#channel?.answerClose(answer),
    disconnect: () => this.#channel?.dispose(),
    logUnexpected: ({ cause }) => console.error('payroll-link: unexpected failure in the Link flow', cause),
  };

  readonly #onKeydown = (event: KeyboardEvent): void => {
    // Inline, the flow is part of the widget's page: Escape there is the page's, not a way out of the flow.
    if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing || this.inline) return;
    event.preventDefault();
    this.close();
  };
}
