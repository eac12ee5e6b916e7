import { parseColorScheme, type ColorScheme, type ExitDetail, type ExitReason, type LinkError } from '../protocol.js';
import { guarded } from '../shared/guarded.js';
import { widgetStrings } from './strings.js';
import { acquireToken, canFetch, fetchLinkToken, type SessionToken, type TokenInput } from './fetch-link-token.js';
import { connectFrame, type FrameChannel, type InitFields } from './frame-channel.js';
import { LinkFailure, linkError } from './link-error.js';
import type { LinkCallbacks, LinkHandle, OpenLinkOptions, OpenPreparedOptions, PrepareLinkOptions } from './link-options.js';
import { openWindow, trustedLinkUrl } from './trusted-urls.js';
import type { LinkPresentation } from './modal/link-modal.js';
import { createPresentation } from './modal/link-presentation.js';
import { userGaveFocus } from './inline/user-gave-focus.js';
import { sameTokenSource } from './same-token-source.js';
import { ELEMENT_EVENTS, type ElementEventRow } from '../protocol/element-events.js';
import type { LinkPageOptionName } from '../protocol/element-options.js';
import { transition, type EffectRunners, type SessionEvent, type SessionState } from './session-moves.js';

const DEFAULT_READY_TIMEOUT_MS = 20_000;
/** The default of {@link OpenLinkOptions.closeRequestTimeoutMs}. */
const DEFAULT_CLOSE_REQUEST_TIMEOUT_MS = 2_000;

/**
 * One Link session, from the flow built hidden (`prepareLink`) to its end. Where it is and where each event
 * leads, and the work each move calls for, is data (session-moves.ts: the states, the table `MOVES`, `transition`);
 * this class feeds it the events (`#send`) and runs the work it is handed (`#effects`): the presentation, the frame
 * channel, the token, the callbacks. `prepareLink()` and `openLink()` are this class.
 */
export class LinkSession {
  #state: SessionState = { name: 'prefetched', frameReady: false };
  /** {@link LinkHandle.droppedMessages} */
  #dropped = 0;
  // Replaced at once by the promises' own (an executor runs as the promise is built).
  #resolveReady = () => {};
  #resolveClosed: (detail: ExitDetail) => void = () => {};
  /** {@link LinkHandle.ready} */
  readonly ready = new Promise<void>((resolve) => (this.#resolveReady = resolve));
  /** {@link LinkHandle.closed} */
  readonly closed = new Promise<ExitDetail>((resolve) => (this.#resolveClosed = resolve));
  // Read when used, so that open() can still give what it knows better (the token, callbacks, theme).
  readonly #options: OpenLinkOptions;
  /** The page's language, read when the flow is built: the modal's own words, and what the Link page is told. */
  readonly #language: string;
  /** The Link page's origin, once its URL was found one to trust: the only origin whose messages count. */
  #linkOrigin = '';
  /** The colour mode, read when the flow shows (it may come with `open()`): the modal's, and what the Link page is told. */
  #colorScheme: ColorScheme = 'light';
  readonly #abort = new AbortController();
  /** The modal or the inline box, built hidden; null when it could not be built (then `#cannotShow` says why). */
  readonly #view: LinkPresentation | null = null;
  readonly #cannotShow: LinkError | null = null;
  #channel: FrameChannel | null = null;
  /** The token fetched ahead (`fetchTokenAhead`): `open()` takes it, unless the token's source changed. */
  #prefetchedToken: Promise<TokenInput> | undefined;
  #handle: LinkHandle | null = null;
  #readyTimer: ReturnType<typeof setTimeout> | undefined;
  #closeTimer: ReturnType<typeof setTimeout> | undefined;

  /** Builds the flow hidden: the modal closed, its frame loading and listened to, the token on its way if asked. */
  constructor(prepareOptions: PrepareLinkOptions) {
    const options = (this.#options = { ...prepareOptions });
    const language = (this.#language = options.language ?? document.documentElement.lang);
    const url = trustedLinkUrl(options.linkUrl);
    if (!url) {
      this.#cannotShow = linkError(
        'clientError',
        'INVALID_LINK_URL',
        'link-url (linkUrl) must be an https URL (plain http only on localhost or 127.0.0.1).',
      );
      return;
    }
    this.#linkOrigin = url.origin;
    const words = widgetStrings(language, options.strings);
    try {
      this.#view = createPresentation({
        ...options,
        linkUrl: url.href,
        lang: language,
        title: options.title ?? words.title,
        closeLabel: words.close,
        loadingText: words.loading,
        // Escape and the close control ask the flow; a dialog the browser closed itself is gone: the session ends.
        onUserClose: (ask) => this.#sendWithEnding(ask ? 'requestClose' : 'close', 'user_closed'),
        onHidden: () => this.#sendWithEnding('hidden', 'closed_by_host'),
      });
    } catch (error) {
      // No container to show inline in, or a browser without what the modal needs: reported when the session starts.
      this.#cannotShow = failureOf(error, unavailable(error));
      return;
    }
    this.#channel = this.#listen(this.#view.frame);
    if (prepareOptions.fetchTokenAhead !== false && options.token === undefined && canFetch(this.#options)) {
      // A failure here is no one's yet: open() replaces that token silently (see acquireToken).
      this.#prefetchedToken = fetchLinkToken(options, this.#abort.signal, options.tokenFetch).then((fetched) => fetched.input);
      this.#prefetchedToken.catch(() => {});
    }
  }

  /** The state, for tests and tools: read it, never change it. */
  get state(): SessionState {
    return this.#state;
  }

  /** Starts the one session this preparation serves: see `PreparedLink.open`. */
  open(openOptions?: OpenPreparedOptions): LinkHandle {
    if (this.#handle) return this.#handle;
    const options = this.#options;
    // A token fetched ahead belongs to the source it was fetched from: another user's, account's or endpoint's
    // token must never start this session, so a changed source means a fresh fetch.
    if (openOptions && !sameTokenSource(options, { ...options, ...openOptions })) this.#prefetchedToken = undefined;
    Object.assign(options, openOptions);
    // Read now, while the user's click or key press that opened it (if any) is still the page's activation.
    options.takeFocus = options.display !== 'inline' || (options.takeFocus ?? userGaveFocus());
    const session = this;
    this.#handle = {
      close: () => this.#sendWithEnding('close', 'closed_by_host'),
      requestClose: () => this.#sendWithEnding('requestClose', 'closed_by_host'),
      closed: this.closed,
      ready: this.ready,
      get droppedMessages() {
        return session.#dropped;
      },
    };
    // Disposed before it was opened, it ends as it begins (`closed_by_host`), with nothing left to tear down.
    this.#sendWithEnding('show', 'closed_by_host');
    return this.#handle;
  }

  /** Tears down what was prepared, when nobody opened it: see `PreparedLink.dispose`. */
  dispose(): void {
    this.#send({ type: 'dispose' });
  }

  /** The one way the state changes: the table says where `event` leads and what work follows. False when nothing moved. */
  #send(event: SessionEvent): boolean {
    const from = this.#state;
    const { state, effects } = transition(from, event);
    this.#state = state;
    // Each effect gets what it needs of the two: the table's types hold every move to effects that fit them.
    for (const effect of effects) (this.#effects[effect] as (state: SessionState, event: SessionEvent) => void)(state, event);
    return state !== from;
  }

  /** The work a move calls for, by its name in the table (see `EffectInput` in session-moves.ts). */
  readonly #effects: EffectRunners = {
    onReady: () => guarded(this.#options.onReady, { linkUrl: this.#view?.frame.src ?? '' }),
    // Shows the flow and takes the token; the hand-over follows once both are there.
    show: ({ frameReady }) => {
      const options = this.#options;
      this.#colorScheme = parseColorScheme(options.colorScheme);
      // A session that cannot start ends through the usual error path, once the caller holds its handle.
      const failSoon = (error: LinkError) => queueMicrotask(() => this.#send({ type: 'fail', error }));
      // No Link URL to trust, or nothing to show it in: nothing was shown, nothing to give back.
      if (this.#cannotShow) return failSoon(this.#cannotShow);
      try {
        this.#view?.show(options.theme, this.#colorScheme, options.returnFocusTo);
      } catch (error) {
        // showModal() refused (a container outside the document...). The end releases the scroll lock and gives
        // focus back; nothing is thrown at the caller, and `closed` and `ready` settle as documented.
        return failSoon(unavailable(error));
      }
      // Nothing below throws: a timer, and an async token fetch whose failures #takeToken reports.
      if (!frameReady) this.#watchReady();
      const given = options.token ?? this.#prefetchedToken;
      const cancelGiven = options.token !== undefined ? options.cancelToken : undefined;
      this.#takeToken(acquireToken(options, this.#abort.signal, options.tokenFetch, given, cancelGiven));
    },
    sendToken: ({ token }) => {
      const options = this.#options;
      // The options the Link page is told (`linkPage` in their rows of ELEMENT_OPTIONS), as the init's fields of their
      // names: one the init message has no field for is a type error here.
      const told: Pick<InitFields, LinkPageOptionName> = options;
      this.#channel?.sendToken(token.token, {
        ...told,
        // Inline, the Link page keeps its own close control and sizes to its content (see HeightMessageSchema); in
        // the modal, the modal's close control overlays the frame's corner, which the Link page leaves free.
        hostCloseControl: options.display !== 'inline',
        display: options.display === 'inline' ? 'inline' : undefined,
        colorScheme: this.#colorScheme,
        takeFocus: options.takeFocus,
        language: this.#language,
      });
      this.#view?.markReady();
      this.#resolveReady();
    },
    onOpen: ({ token }) => this.#call(this.#options.onOpen, { linkTokenId: token.id }),
    // A new frame and a new token, once per session (see `onLink` in session-moves.ts).
    renew: () => {
      const view = this.#view;
      this.#channel?.dispose();
      if (view) this.#channel = this.#listen(view.replaceFrame());
      this.#watchReady();
      this.#takeToken(fetchLinkToken(this.#options, this.#abort.signal, this.#options.tokenFetch));
    },
    onError: ({ error, reason }) => {
      this.#call(this.#options.onError, error);
      // Unless onError closed the session itself: then it has ended already, with this failure.
      this.#sendWithEnding('close', reason);
    },
    dispose: () => this.#tearDown(),
    keepScreen: () => this.#tearDown(true),
    onExit: ({ exit }) => {
      this.#resolveReady();
      this.#resolveClosed(exit);
      guarded(this.#options.onExit, exit);
    },
    // The message without its `type`: its name and its payload, typed by that name; then the callback of that name.
    onEvent: (_, { message: { type, ...link } }) => {
      const options = this.#options;
      this.#call(options.onEvent, { ...link, typed: true });
      // The callback of the element's event this Link event brings, if any (`linkEvent` in ELEMENT_EVENTS: `onLogin`…).
      for (const { linkEvent, callback } of Object.values<ElementEventRow>(ELEMENT_EVENTS))
        if (linkEvent === link.name)
          this.#call(options[callback as keyof LinkCallbacks] as ((payload: typeof link.payload) => void) | undefined, link.payload);
      // The Link page's end, after its callbacks: unless one of them ended the session already.
      if (link.name === 'exit') this.#send({ type: 'exit', ...link.payload, accountId: link.payload.accountId ?? options.accountId });
    },
    onUntypedEvent: (_, { message }) => this.#call(this.#options.onEvent, { ...message, typed: false }),
    // The Link page asks for a window (see {@link openWindow}); a refused URL and a blocked popup are non-terminal errors.
    openUrl: ({ token }, { url }) => {
      const outcome = openWindow(url, token.token, this.#options.onOpenUrl);
      // The Link page hears the outcome (a blocked popup: it offers a button whose click, its own gesture, opens the window).
      this.#channel?.send({ type: 'payroll-link:open-url-result', url, outcome });
      if (outcome === 'refused')
        this.#call(
          this.#options.onError,
          linkError('systemError', 'OPEN_URL_REFUSED', 'The Link page asked to open a URL the contract refuses.', true),
        );
      if (outcome === 'blocked')
        this.#call(this.#options.onError, linkError('clientError', 'POPUP_BLOCKED', 'The browser blocked a popup.', true));
    },
    requestClose: (_, { reason }) => {
      this.#channel?.send({ type: 'payroll-link:close-request' });
      clearTimeout(this.#closeTimer);
      const timeoutMs = this.#options.closeRequestTimeoutMs ?? DEFAULT_CLOSE_REQUEST_TIMEOUT_MS;
      this.#closeTimer = setTimeout(() => this.#sendWithEnding('close', reason), timeoutMs);
    },
    // The flow asks its user (whether or not the page asked it to close) or they stayed: no bound on a person, and
    // the modal's close control is inert while the question shows (the Link page holds focus in it).
    closeAnswer: (_, { answer }) => (clearTimeout(this.#closeTimer), this.#view?.asking?.(answer)),
  };

  /** Calls an integrator callback, never allowed to break the session; none once a callback has ended it (onExit is the last). */
  #call<T>(callback: ((detail: T) => void) | undefined, detail: T): void {
    if (this.#state.name !== 'ended') guarded(callback, detail);
  }

  /**
   * Sends an event that may end the session, with how it ends then (`reason`): a close (by the page, by the user,
   * after a failure), a close request (before the flow holds the port, or unanswered in time), the modal hidden,
   * and `show`, which ends a session disposed before it was opened.
   */
  #sendWithEnding(type: 'show' | 'close' | 'requestClose' | 'hidden', reason: ExitReason): void {
    this.#send({ type, reason, error: null, accountId: this.#options.accountId });
  }

  /** Stops everything this preparation or session started and removes what it added to the page. */
  #tearDown(keepScreen?: boolean): void {
    this.#abort.abort();
    clearTimeout(this.#readyTimer);
    clearTimeout(this.#closeTimer);
    this.#channel?.dispose();
    this.#view?.remove(keepScreen);
  }

  #takeToken(pending: Promise<SessionToken>): void {
    pending.then(
      (token) => this.#send({ type: 'token', token }),
      (error: unknown) => this.#send({ type: 'fail', error: failureOf(error, linkError('systemError', 'UNEXPECTED', String(error))) }),
    );
  }

  #watchReady(): void {
    clearTimeout(this.#readyTimer);
    this.#readyTimer = setTimeout(() => this.#send({ type: 'timeout' }), this.#options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
  }

  #listen(frame: HTMLIFrameElement): FrameChannel {
    return connectFrame({
      frame,
      linkOrigin: this.#linkOrigin,
      // The wait for the Link page is over, whatever the session does with it.
      onReady: () => (clearTimeout(this.#readyTimer), this.#send({ type: 'frameReady' })),
      // A Link event that changes nothing (a second login or success) is refused like a message that breaks the contract.
      onEvent: (message) => {
        if (!this.#send({ type: 'link', message, accountId: this.#options.accountId, renewable: canFetch(this.#options) })) this.#dropped++;
      },
      onHeight: (height) => this.#view?.fit?.(height),
      onOpenUrl: (url) => this.#send({ type: 'openUrl', url }),
      onCloseAnswer: (answer) => this.#send({ type: 'closeAnswer', answer }),
      onUntypedEvent: (message) => this.#send({ type: 'untyped', message }),
      onDrop: (message) => {
        this.#dropped++;
        guarded(this.#options.onDroppedMessage, message);
      },
    });
  }
}

/** The modal could not be shown: `MODAL_UNAVAILABLE`, with the browser's reason. */
const unavailable = (error: unknown) => linkError('clientError', 'MODAL_UNAVAILABLE', `The Link modal could not be shown (${error}).`);

/** The `LinkError` a failure carries, or `otherwise` for one that is no `LinkFailure`. */
const failureOf = (error: unknown, otherwise: LinkError) => (error instanceof LinkFailure ? error.linkError : otherwise);
