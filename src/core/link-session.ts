import { ColorSchemeSchema, type ColorScheme, type EventMessage, type ExitDetail, type ExitReason, type LinkError, type LinkEventDetail, type LinkEventEnvelope } from '../protocol.js';
import { guarded } from '../shared/guarded.js';
import { widgetStrings } from './strings.js';
import { exitDetail } from './exit-detail.js';
import { fetchLinkToken, isStale, settleWithin, toSessionToken, type SessionToken, type TokenInput } from './fetch-link-token.js';
import { saveFocus } from './modal/focus-return.js';
import { connectFrame, type FrameChannel } from './frame-channel.js';
import { LinkFailure, linkError } from './link-error.js';
import { createLinkInline, type LinkPresentation } from './inline/link-inline.js';
import { createLinkModal } from './modal/link-modal.js';
import { linkOrigin, windowUrl } from './link-origin.js';
import type { LinkCallbacks, LinkHandle, OpenLinkOptions, OpenPreparedOptions, PrepareLinkOptions } from './link-options.js';
import { sameTokenSource } from './same-token-source.js';
import { lockScroll } from './modal/scroll-lock.js';

/**
 * Where a session is. Each state carries its own data: nothing about the session lives beside it.
 *
 * ```text
 * prefetched ──show──▶ waiting ──handOver (frame ready, token on hand)──▶ open ──exit──▶ ended
 *     │                 ▲   │                                              │  │            ▲
 *     │                 │   └──fail, timeout──▶ failing ◀──fail, reload────┘  │            │
 *     │                 └───── renew (the Link page refused the token, once) ──┘            │
 *     │                                        failing ──close (after onError)─────────────┤
 *     ▼                                                                                     │
 * disposed ──show───────────────────────────────────────────────────────────────────────────┘
 * ```
 */
export type SessionState =
  /** Built hidden (`prepareLink`): the frame loads; no token reaches it, no callback fires. */
  | { name: 'prefetched'; frameReady: boolean }
  /** Shown: the token goes over once the Link page is ready and the token is on hand. `renewed`: the second token. */
  | WaitingState
  /** The token was handed over: Link events count now, login and success at most once each. */
  | OpenState
  /** A failure being reported (`onError` runs) from state `was`: a close asked for meanwhile ends with this failure. */
  | { name: 'failing'; reason: ExitReason; error: LinkError; was: WaitingState | OpenState }
  /** Terminal: `onExit` was called with `exit`, exactly once, and nothing is called after it. */
  | { name: 'ended'; exit: ExitDetail }
  /** Torn down before anyone opened it: `open()` then ends at once. */
  | { name: 'disposed' };

/** See {@link SessionState}. */
export type WaitingState = { name: 'waiting'; frameReady: boolean; token: SessionToken | null; renewed: boolean };
/** See {@link SessionState}. */
export type OpenState = { name: 'open'; token: SessionToken; renewed: boolean; loggedIn: boolean; succeeded: boolean; accountId?: string };

/** A state's name. */
export type SessionStateName = SessionState['name'];

/**
 * What moves a session: the page (`show`, `close`, `requestClose`, `dispose`), the frame (`frameReady`, the Link
 * events `login`, `success`, `error`, `exit`, `event` for any other, and `openUrl`, `closeAnswer`), the token
 * (`token`), and what the session itself decides (`handOver`, `renew`, `fail`, `timeout`, `reload`).
 */
export type SessionEvent =
  | 'show'
  | 'frameReady'
  | 'token'
  | 'handOver'
  | 'login'
  | 'success'
  | 'error'
  | 'event'
  | 'renew'
  | 'exit'
  | 'fail'
  | 'timeout'
  | 'reload'
  | 'close'
  | 'requestClose'
  | 'closeAnswer'
  | 'openUrl'
  | 'dispose';

/**
 * The session's rules: for each event, the state it moves each state to. A state missing from an event's row
 * is a move the rules forbid: a bug, never taken (see {@link nextState}). `null`: the event may come in that
 * state and changes nothing. So may every event once the session has ended or was disposed (a token arriving
 * after a close), but `show` after `dispose`; and while a failure is being reported, every event but `close`.
 */
export const MOVES: { readonly [E in SessionEvent]: Partial<Record<SessionStateName, SessionStateName | null>> } = {
  show: { prefetched: 'waiting', disposed: 'ended' },
  frameReady: { prefetched: 'prefetched', waiting: 'waiting' },
  token: { waiting: 'waiting' },
  handOver: { waiting: 'open' },
  login: { open: 'open' },
  success: { open: 'open' },
  error: { open: 'open' },
  event: { open: 'open' },
  renew: { open: 'waiting' },
  exit: { open: 'ended' },
  fail: { waiting: 'failing', open: 'failing' },
  timeout: { waiting: 'failing' },
  reload: { open: 'failing' },
  close: { waiting: 'ended', open: 'ended', failing: 'ended' },
  // Asked of the flow once it holds the port; before that (or while a failure is reported) a request is a close.
  requestClose: { waiting: null, open: 'open' },
  closeAnswer: { open: 'open' },
  openUrl: { open: 'open' },
  dispose: { prefetched: 'disposed', waiting: null, open: null },
};

/**
 * Where `event` moves a session in state `from`: a state's name, `null` when it changes nothing, or `undefined`
 * for a move the rules forbid, which is a bug: it warns (naming the event and the state) and is never taken.
 */
export function nextState(event: SessionEvent, from: SessionStateName): SessionStateName | null | undefined {
  if (from === 'ended' || (from === 'disposed' && event !== 'show') || (from === 'failing' && event !== 'close')) return null;
  const to = MOVES[event][from];
  if (to === undefined) forbidden(event, from);
  return to;
}

const forbidden = (event: SessionEvent, from: SessionStateName) => console.warn('payroll-link: bug: a forbidden move, not taken:', event, 'in', from);

const DEFAULT_READY_TIMEOUT_MS = 20_000;
/** How long a flow asked to close may take to answer (end, or say it asks its user) before the session ends anyway. */
const DEFAULT_CLOSE_REQUEST_TIMEOUT_MS = 2_000;

/**
 * One Link session, from the flow built hidden (`prepareLink`) to its end: the state ({@link SessionState}),
 * the rules ({@link MOVES}), and the work each move calls for (the modal, the frame channel, the token).
 * Every change of state goes through one checked function, `#move`. `prepareLink()` and `openLink()` are this class.
 */
export class LinkSession {
  #state: SessionState = { name: 'prefetched', frameReady: false };
  /** How many incoming messages were refused so far. */
  #dropped = 0;
  #resolveReady!: () => void;
  #resolveClosed!: (detail: ExitDetail) => void;
  /** Settles when the token was handed over, or the session ended before that. */
  readonly ready = new Promise<void>((resolve) => (this.#resolveReady = resolve));
  /** Settles with the exit detail. */
  readonly closed = new Promise<ExitDetail>((resolve) => (this.#resolveClosed = resolve));
  // Read when used, so that open() can still give what it knows better (the token, callbacks, theme).
  readonly #options: OpenLinkOptions;
  /** The page's language, read when the flow is built: the modal's own words, and what the Link page is told. */
  readonly #language: string;
  readonly #linkOrigin: string | null;
  /** The colour mode, read when the flow shows (it may come with `open()`): the modal's, and what the Link page is told. */
  #colorScheme: ColorScheme = 'light';
  readonly #abort = new AbortController();
  /** The modal (or the inline box) built hidden; null when it could not be built (then `#cannotShow` says why). */
  readonly #modal: LinkPresentation | null = null;
  /** `display: 'inline'`: the same session, shown in the page's flow (no scroll lock, no focus moved). */
  readonly #inline: boolean = false;
  readonly #cannotShow: LinkError | null = null;
  #channel: FrameChannel | null = null;
  /** The token fetched ahead (`fetchTokenAhead`): `open()` takes it, unless the token's source changed. */
  #prefetchedToken: Promise<TokenInput> | undefined;
  #handle: LinkHandle | null = null;
  #readyTimer: ReturnType<typeof setTimeout> | undefined;
  #closeTimer: ReturnType<typeof setTimeout> | undefined;
  #releaseScroll = () => {};
  #restoreFocus = () => {};

  /** Builds the flow hidden: the modal closed, its frame loading and listened to, the token on its way if asked. */
  constructor(prepareOptions: PrepareLinkOptions) {
    const options = (this.#options = { ...prepareOptions });
    const language = (this.#language = options.language ?? document.documentElement.lang);
    const origin = (this.#linkOrigin = linkOrigin(options.linkUrl));
    if (origin === null) {
      this.#cannotShow = linkError('clientError', 'INVALID_LINK_URL', 'link-url (linkUrl) must be an https URL (plain http only on localhost or 127.0.0.1).');
      return;
    }
    const words = widgetStrings(language, options.strings);
    const inline = (this.#inline = options.display === 'inline');
    if (inline && !options.container) {
      this.#cannotShow = linkError('clientError', 'NO_CONTAINER', "display: 'inline' needs a container to show the Link flow in.");
      return;
    }
    try {
      const linkUrl = new URL(options.linkUrl, document.baseURI).href;
      const title = options.title ?? words.title;
      this.#modal = inline ? createLinkInline({ container: options.container!, linkUrl, title, loadingText: words.loading }) : createLinkModal({
        container: options.container,
        theme: options.theme,
        containerParent: options.containerParent,
        linkUrl,
        title,
        closeLabel: words.close,
        loadingText: words.loading,
        // Escape and the close control ask the flow; a dialog the browser closed itself is gone: the session ends.
        onUserClose: (ask) => (ask ? this.#requestClose('user_closed') : this.#end('close', 'user_closed', null)),
        onHidden: () => {
          // Hidden once the job succeeded: the session is complete, nothing failed (see exitDetail).
          const state = this.#state;
          if (state.name === 'open' && state.succeeded) this.#end('close', 'closed_by_host', null);
          else this.#fail('fail', linkError('clientError', 'MODAL_HIDDEN', 'The page hid the Link modal.'), 'closed_by_host');
        },
      });
    } catch (error) {
      // The browser lacks what the modal needs (constructed stylesheets): reported when the session starts.
      this.#cannotShow = unavailable(error);
      return;
    }
    this.#channel = this.#listen(this.#modal.frame);
    if (prepareOptions.fetchTokenAhead !== false && options.token === undefined && this.#canRefetch()) {
      // A failure here is no one's yet: open() replaces that token silently (see #acquireToken).
      (this.#prefetchedToken = fetchLinkToken(options, this.#abort.signal, options.tokenFetch).then((fetched) => fetched.input)).catch(() => {});
    }
  }

  /** The state, for tests and tools: read it, never change it. */
  get state(): SessionState {
    return this.#state;
  }

  /** Starts the one session this preparation serves: see `PreparedLink.open`. */
  open(late?: OpenPreparedOptions): LinkHandle {
    if (this.#handle) return this.#handle;
    const options = this.#options;
    // A token fetched ahead belongs to the source it was fetched from: another user's, account's or endpoint's
    // token must never start this session, so a changed source means a fresh fetch.
    if (late && !sameTokenSource(options, { ...options, ...late })) this.#prefetchedToken = undefined;
    Object.assign(options, late);
    const session = this;
    this.#handle = {
      close: () => this.#end('close', 'closed_by_host', null),
      requestClose: () => this.#requestClose('closed_by_host'),
      closed: this.closed,
      ready: this.ready,
      get droppedMessages() {
        return session.#dropped;
      },
    };
    // Disposed before it was opened: a session that ended before it began, with nothing left to tear down.
    if (this.#state.name === 'disposed') this.#end('show', 'closed_by_host', null);
    else this.#start();
    return this.#handle;
  }

  /** Tears down what was prepared, when nobody opened it: see `PreparedLink.dispose`. */
  dispose(): void {
    if (this.#move('dispose', { name: 'disposed' })) this.#tearDown();
  }

  /**
   * The one way the state changes: the rules ({@link nextState}) name the state `event` leads to, and the move
   * happens only when `next` is that state. False when nothing moved.
   */
  #move(event: SessionEvent, next: SessionState): boolean {
    const from = this.#state.name;
    const to = nextState(event, from);
    if (!to) return false;
    // A state other than the one the rules name is the same bug as a forbidden move.
    if (next.name !== to) return void forbidden(event, from), false;
    this.#state = next;
    return true;
  }

  /** Shows the dialog and takes the token; the hand-over follows once both are there. */
  #start(): void {
    const { frameReady } = this.#state as Extract<SessionState, { name: 'prefetched' }>;
    this.#move('show', { name: 'waiting', frameReady, token: null, renewed: false });
    const options = this.#options;
    this.#colorScheme = colorSchemeOf(options.colorScheme);
    // A session that cannot start ends through the usual error path, once the caller holds its handle.
    const failSoon = (error: LinkError) => queueMicrotask(() => this.#fail('fail', error));
    // No Link URL to trust, or no modal: nothing was shown, nothing to give back.
    if (this.#cannotShow) return failSoon(this.#cannotShow);
    try {
      // Inline, the flow is part of the page: the page keeps its scroll and its focus.
      if (!this.#inline) {
        this.#restoreFocus = saveFocus(options.returnFocusTo ?? undefined);
        this.#releaseScroll = lockScroll();
      }
      this.#modal!.show(options.theme, this.#colorScheme);
    } catch (error) {
      // showModal() refused (a container outside the document...). The end releases the scroll lock and gives
      // focus back; nothing is thrown at the caller, and `closed` and `ready` settle as documented.
      return failSoon(unavailable(error));
    }
    // Nothing below throws: a timer, and an async token fetch whose failures #takeToken reports.
    if (!frameReady) this.#watchReady();
    this.#takeToken(this.#acquireToken(options.token ?? this.#prefetchedToken, options.token !== undefined ? options.cancelToken : undefined));
  }

  /**
   * Calls an integrator callback; a callback that throws is reported, never allowed to break the session.
   * Once the session has ended (a callback may end it: remove the element, call `close()`), only `onExit`
   * is still called, so that it stays the last thing the integrator hears.
   */
  #call<K extends keyof LinkCallbacks>(name: K, detail: Parameters<NonNullable<LinkCallbacks[K]>>[0]): void {
    const { name: state } = this.#state;
    if (state !== 'waiting' && state !== 'open' && state !== 'failing' && name !== 'onExit') return;
    guarded(this.#options[name] as ((value: typeof detail) => void) | undefined, detail);
  }

  /** Reports `error` through onError, then ends the session with it (as `reason`: most failures are errors). */
  #fail(event: 'fail' | 'timeout' | 'reload', error: LinkError, reason: ExitReason = 'error'): void {
    if (!this.#move(event, { name: 'failing', reason, error, was: this.#state as WaitingState | OpenState })) return;
    this.#call('onError', error);
    // Unless onError closed the session itself: then it has ended already, with this failure.
    this.#end('close', reason, error);
  }

  /** Ends the session: the exit detail, everything torn down, the promises settled, `onExit` last. */
  #end(event: 'show' | 'close' | 'exit', reason: ExitReason, error: LinkError | null, exitAccountId?: string): void {
    let state = this.#state;
    // A failure being reported wins over a close requested from inside its own onError callback.
    if (state.name === 'failing') ({ reason, error, was: state } = state);
    const open = state.name === 'open' ? state : null;
    const token = state.name === 'waiting' ? state.token : open?.token;
    const exit = exitDetail(reason, error, token?.id ?? null, open?.accountId ?? exitAccountId ?? this.#options.accountId, open?.succeeded);
    if (!this.#move(event, { name: 'ended', exit })) return;
    // Ended by the Link page itself on its final screen (success or error): an inline frame stays there. Closed by
    // its user (its own close, or its answer to a close request), nothing is left to show: the frame goes.
    this.#tearDown(event === 'exit' && exit.reason !== 'user_closed');
    this.#resolveReady();
    this.#resolveClosed(exit);
    this.#call('onExit', exit);
  }

  /** Stops everything this preparation or session started and removes what it added to the page. */
  #tearDown(keepFinalScreen = false): void {
    this.#abort.abort();
    clearTimeout(this.#readyTimer);
    clearTimeout(this.#closeTimer);
    this.#channel?.dispose();
    this.#modal?.remove(keepFinalScreen);
    this.#releaseScroll();
    this.#restoreFocus();
  }

  /** The token goes to the frame only once the session waits for it (shown, not yet handed over) and both are there. */
  #handOver(): void {
    const state = this.#state;
    if (state.name !== 'waiting' || !state.frameReady || !state.token) return;
    const { token, renewed } = state;
    this.#move('handOver', { name: 'open', token, renewed, loggedIn: false, succeeded: false });
    this.#channel!.sendToken(token.token, this.#language || undefined, this.#colorScheme, this.#inline);
    this.#modal!.markReady();
    // A renewed token opens the same session: the integrator heard onOpen already.
    if (!renewed) this.#call('onOpen', { linkTokenId: token.id });
    this.#resolveReady();
  }

  #onReady(): void {
    const state = this.#state;
    // A second "ready" means the Link page reloaded and lost the single-use token: the session cannot go on.
    // (Before the hand-over a reload loses nothing: the page is simply ready again.)
    if (state.name === 'open') return this.#fail('reload', linkError('systemError', 'LINK_RELOADED', 'The Link page reloaded during the session.'));
    if (!this.#move('frameReady', { ...(state as WaitingState), frameReady: true })) return;
    // Built ahead and loaded, not yet shown: open() would be instant now. Said once (a reload before open() is silent).
    if (state.name === 'prefetched') return void (state.frameReady || guarded(this.#options.onReady, { linkUrl: this.#modal!.frame.src }));
    clearTimeout(this.#readyTimer);
    this.#handOver();
  }

  /** A Link event: it comes over the port, which exists only once the token was handed over. */
  #onFrameEvent({ name, payload }: EventMessage): void {
    const state = this.#state as OpenState;
    if ((name === 'login' && state.loggedIn) || (name === 'success' && state.succeeded)) return void this.#dropped++;
    // The Link page refused a token the widget thought fresh (clocks disagree, or it was spent): before
    // anything else happened, try once more with a new token in a new frame; the user never sees the failure.
    if (name === 'error' && payload.type === 'invalidLinkToken' && !state.loggedIn && !state.succeeded && !state.renewed && this.#canRefetch()) {
      return this.#renew();
    }
    const wanted = this.#options.accountId;
    // A reconnect session brings back one account: a login to another is an error, never a silent new account.
    if (name === 'login' && wanted && payload.accountId !== wanted) {
      return this.#fail('fail', linkError('invalidCredentials', 'ACCOUNT_MISMATCH', 'The user logged in to another account than the one to reconnect.'));
    }
    // State first: a callback below may end the session, and the exit detail must already know this.
    const next: OpenState =
      name === 'login'
        ? { ...state, loggedIn: true, accountId: payload.accountId }
        : name === 'success'
          ? { ...state, succeeded: true, accountId: state.accountId ?? payload.accountId }
          : state;
    if (!this.#move(name === 'login' || name === 'success' || name === 'error' ? name : 'event', next)) return;
    this.#call('onEvent', { name, payload, typed: true } as LinkEventDetail);
    if (name === 'login') this.#call('onLogin', payload);
    if (name === 'success') this.#call('onSuccess', payload);
    if (name === 'error') this.#call('onError', payload);
    // Unless a callback of that event ended the session already.
    if (name === 'exit') this.#end('exit', payload.reason, payload.error, payload.accountId);
  }

  /**
   * Asks the flow to close: it ends (its `exit`), or says it asks its user first (`closeAnswer`). Before the flow
   * holds the port, or without an answer within the bound, the session ends with `reason`.
   */
  #requestClose(reason: ExitReason): void {
    const state = this.#state;
    if (!this.#move('requestClose', state)) return this.#end('close', reason, null);
    this.#channel!.send({ type: 'payroll-link:close-request' });
    clearTimeout(this.#closeTimer);
    this.#closeTimer = setTimeout(() => this.#end('close', reason, null), this.#options.closeRequestTimeoutMs ?? DEFAULT_CLOSE_REQUEST_TIMEOUT_MS);
  }

  /** The flow asks its user (or the user stays): no bound on a person's answer. */
  #onCloseAnswer(): void {
    if (this.#move('closeAnswer', this.#state)) clearTimeout(this.#closeTimer);
  }

  /**
   * The Link page asks for a window: checked ({@link windowUrl}), then handed to the integrator's `onOpenUrl`, or
   * opened as a popup; a refused URL and a blocked popup are non-terminal errors. The Link page hears the outcome
   * (a blocked popup: it offers a button whose click, its own gesture, opens the window).
   */
  #onOpenUrl(raw: string): void {
    const state = this.#state as OpenState;
    if (!this.#move('openUrl', state)) return;
    const url = windowUrl(raw, state.token.token);
    const hook = this.#options.onOpenUrl;
    const outcome = !url ? 'refused' : hook ? (guarded(hook, url), 'opened') : openWindow(url) ? 'opened' : 'blocked';
    this.#channel!.send({ type: 'payroll-link:open-url-result', url: raw, outcome });
    if (outcome === 'refused') this.#call('onError', linkError('systemError', 'OPEN_URL_REFUSED', 'The Link page asked to open a URL the contract refuses.', true));
    if (outcome === 'blocked') this.#call('onError', linkError('clientError', 'POPUP_BLOCKED', 'The browser blocked a popup.', true));
  }

  /** A Link event outside the contract: passed on as it came (`typed: false`), never acted on. */
  #onUntypedEvent({ name, payload }: LinkEventEnvelope): void {
    if (this.#move('event', this.#state)) this.#call('onEvent', { name, payload, typed: false });
  }

  /** A new frame and a new token, once per session (see #onFrameEvent). */
  #renew(): void {
    this.#move('renew', { name: 'waiting', frameReady: false, token: null, renewed: true });
    this.#channel!.dispose();
    this.#channel = this.#listen(this.#modal!.replaceFrame());
    this.#watchReady();
    this.#takeToken(fetchLinkToken(this.#options, this.#abort.signal, this.#options.tokenFetch));
  }

  #canRefetch(): boolean {
    return Boolean(this.#options.fetchToken || this.#options.tokenUrl);
  }

  async #acquireToken(given: OpenLinkOptions['token'], cancelGiven: (() => void) | undefined): Promise<SessionToken> {
    const options = this.#options;
    const { signal } = this.#abort;
    if (given !== undefined) {
      try {
        const taken = toSessionToken(await settleWithin(given, signal, options.tokenFetch?.timeoutMs));
        if (!isStale(taken)) return taken;
        if (!this.#canRefetch()) throw new LinkFailure(linkError('invalidLinkToken', 'TOKEN_EXPIRED', 'The Link token given has expired.'));
      } catch (error) {
        // Given up on: a fetch ahead still retrying must stop, not run beside the session's own.
        cancelGiven?.();
        // A token fetched ahead that failed or expired is replaced silently when there is a source for a new
        // one; not when the session has ended meanwhile.
        if (!this.#canRefetch() || signal.aborted) throw error;
      }
    }
    return fetchLinkToken(options, signal, options.tokenFetch);
  }

  #takeToken(pending: Promise<SessionToken>): void {
    pending.then(
      (token) => {
        if (this.#move('token', { ...(this.#state as WaitingState), token })) this.#handOver();
      },
      (error: unknown) => this.#fail('fail', error instanceof LinkFailure ? error.linkError : linkError('systemError', 'UNEXPECTED', String(error))),
    );
  }

  #watchReady(): void {
    clearTimeout(this.#readyTimer);
    this.#readyTimer = setTimeout(
      () => this.#fail('timeout', linkError('networkError', 'LINK_UNAVAILABLE', 'The Link page did not load in time.')),
      this.#options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
    );
  }

  #listen(frame: HTMLIFrameElement): FrameChannel {
    return connectFrame({
      frame,
      linkOrigin: this.#linkOrigin!,
      onReady: () => this.#onReady(),
      onEvent: (message) => this.#onFrameEvent(message),
      onHeight: (height) => this.#modal!.fit?.(height),
      onOpenUrl: (url) => this.#onOpenUrl(url),
      onCloseAnswer: () => this.#onCloseAnswer(),
      onUntypedEvent: (message) => this.#onUntypedEvent(message),
      onDrop: (message) => {
        this.#dropped++;
        guarded(this.#options.onDroppedMessage, message);
      },
    });
  }
}

/** The modal could not be shown: `MODAL_UNAVAILABLE`, with the browser's reason. */
const unavailable = (error: unknown) => linkError('clientError', 'MODAL_UNAVAILABLE', `The Link modal could not be shown (${error}).`);

/**
 * Opens `url` in a new window with `noopener` semantics, and says whether the browser allowed it. `window.open`
 * with the `noopener` feature returns null whether it opened or was blocked, so this opens a blank window, cuts
 * its `opener`, then sends it to the URL: the page that loads there can never reach this one, and null means the
 * popup blocker refused (no user gesture the browser still honours).
 */
function openWindow(url: string): boolean {
  const opened = window.open('', '_blank');
  if (!opened) return false;
  opened.opener = null;
  opened.location.replace(url);
  return true;
}

/**
 * The colour mode a session draws in: the one asked for (`color-scheme`, `colorScheme`), or `light` when none
 * was. A value outside the contract (`"blue"`, a typo) falls back to `light` with a console warning rather than
 * ending the session: a colour is no reason to cost a user their connection, and an attribute's invalid value
 * falls back to its default in HTML too.
 */
function colorSchemeOf(asked: unknown): ColorScheme {
  if (asked === undefined || asked === null) return 'light';
  const parsed = ColorSchemeSchema.safeParse(asked);
  if (parsed.success) return parsed.data;
  console.warn(`payroll-link: color-scheme ${JSON.stringify(asked)} is not light, dark or auto: light is used.`);
  return 'light';
}
