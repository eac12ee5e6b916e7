import type {
  EventMessage,
  ExitDetail,
  ExitReason,
  LinkError,
  LinkEventDetail,
  LoginDetail,
  OpenDetail,
  SuccessDetail,
} from '../protocol.js';
import {
  fetchLinkToken,
  isStale,
  settleWithin,
  toSessionToken,
  type SessionToken,
  type TokenFetchTuning,
  type TokenInput,
  type TokenSource,
} from './fetch-link-token.js';
import { saveFocus } from './focus-return.js';
import { connectFrame, type DroppedMessage, type FrameChannel } from './frame-channel.js';
import { LinkFailure, linkError } from './link-error.js';
import { createLinkModal, type LinkModal } from './link-modal.js';
import { sameTokenSource } from './same-token-source.js';
import { lockScroll } from './scroll-lock.js';
import { guarded } from '../shared/guarded.js';
import { widgetStrings, type WidgetStrings } from '../strings.js';

/** The callbacks of a session. Each is read at the moment it fires, so it may be replaced while the session runs. */
export interface LinkCallbacks {
  /** The Link frame is showing and has its token. */
  onOpen?: (detail: OpenDetail) => void;
  /** The user logged in to their payroll platform. At most once per session. */
  onLogin?: (detail: LoginDetail) => void;
  /** The job finished. At most once per session. */
  onSuccess?: (detail: SuccessDetail) => void;
  /** Something failed; `pendingRetry: true` means the flow goes on (e.g. a wrong password). */
  onError?: (detail: LinkError) => void;
  /** The session ended. Exactly once per session, always last. */
  onExit?: (detail: ExitDetail) => void;
  /** Every event the Link flow emits. */
  onEvent?: (detail: LinkEventDetail) => void;
}

/** Options of {@link openLink}. */
export interface OpenLinkOptions extends TokenSource, LinkCallbacks {
  /** The hosted Link page. Its origin is the only origin whose messages are trusted. */
  linkUrl: string;
  /** A token fetched ahead of time. Used if still fresh; otherwise a new one comes from `fetchToken` or `tokenUrl`. */
  token?: TokenInput | Promise<TokenInput>;
  /**
   * Stops the work behind a `token` promise (a fetch ahead, still retrying) when the session stops waiting
   * for it without a token: it gave up (after `tokenFetch.timeoutMs`), or ended meanwhile. Otherwise that
   * work would run on beside the session's own fetch.
   */
  cancelToken?: () => void;
  /**
   * Where the modal `<dialog>` is placed. Default: a new shadow-rooted element at the end of `<body>`.
   * It must be rendered while the modal shows: once the page hides the dialog (it, the container or an
   * ancestor gets `display: none` or `content-visibility: hidden`), the session ends rather than leave the
   * page blocked behind a modal nobody sees: `onError` with error code `MODAL_HIDDEN`, then `onExit` with
   * `reason: 'closed_by_host'` and that error.
   */
  container?: ParentNode;
  /**
   * Styles for the default container, adopted after the modal's own: e.g. `:host { --payroll-link-modal-width: 520px }`.
   * A constructed stylesheet, so strict CSP allows it.
   */
  theme?: CSSStyleSheet;
  /**
   * Where the default container goes. Default: the end of `<body>`. `<payroll-link>` passes the open modal
   * it sits in, if any (a dialog library's), so the flow stays inside it: see `enclosingModal`.
   */
  containerParent?: Element;
  /** Where focus returns when the session ends. Default: the element focused when the session started. */
  returnFocusTo?: HTMLElement | null;
  /** Accessible name of the modal and the frame. Default: `strings.title`, in the page's language. */
  title?: string;
  /**
   * The page's language (a BCP 47 tag such as `es-MX`): the modal's own words come in it (English or
   * Spanish) and the Link page is told it. Default: `<html lang>`.
   */
  language?: string;
  /** The modal's own words (`close`, `loading`), over the language's defaults. */
  strings?: Partial<Pick<WidgetStrings, 'close' | 'loading'>>;
  /** How long the Link page may take to say it is ready before the session ends with an error. */
  readyTimeoutMs?: number;
  /** Token fetch tuning (timeouts, retries); the defaults suit users. */
  tokenFetch?: TokenFetchTuning;
  /** Debug hook: called for every message refused (wrong origin, wrong window, failed schema). */
  onDroppedMessage?: (dropped: DroppedMessage) => void;
}

/** A running Link session. */
export interface LinkHandle {
  /** Ends the session (`reason: 'closed_by_host'`). Does nothing once it has ended. */
  close(): void;
  /** Settles with the exit detail when the session ends, whatever the reason. Never rejects. */
  readonly closed: Promise<ExitDetail>;
  /** Settles when the Link frame is ready and has its token, or when the session ends before that. Never rejects. */
  readonly ready: Promise<void>;
  /** How many incoming messages were refused so far. */
  readonly droppedMessages: number;
}

/** Options of {@link prepareLink}: those of {@link openLink}, and whether to fetch the token at once. */
export interface PrepareLinkOptions extends OpenLinkOptions {
  /**
   * Fetch the token now, beside the frame, from `fetchToken` or `tokenUrl` (when no `token` is given), so
   * that `open()` finds it on hand. Default true. Each token is a billable call to the service: prepare on
   * a sign of intent (hover, focus), not on every page view. A token fetched ahead and never used is left
   * to expire; one that failed is fetched again, silently, at `open()`.
   */
  fetchTokenAhead?: boolean;
}

/** What may still be given at {@link PreparedLink.open}: the token, its source, callbacks, theme, focus target and tuning. */
export type OpenPreparedOptions = Partial<Omit<OpenLinkOptions, 'linkUrl' | 'container' | 'containerParent' | 'title' | 'language' | 'strings'>>;

/** A Link flow built ahead of the click, hidden: see {@link prepareLink}. */
export interface PreparedLink {
  /**
   * Shows the flow and hands the token to the frame once both are there: at once, when the Link page has
   * loaded and the token was fetched ahead. Options given here override the ones given to `prepareLink`
   * (a token fetched meanwhile, the callbacks). Starts the one session this preparation serves: a second
   * call returns the same handle, and after `dispose()` it returns a session that has already ended.
   */
  open(options?: OpenPreparedOptions): LinkHandle;
  /**
   * Tears down what was prepared (the hidden frame, the token fetch under way) when the user never opened
   * it: the page's part when the button goes away or the preparation is no longer wanted (the Link URL or
   * the token's source changed, nobody clicked for a while). No callback fires. After `open()` it does
   * nothing: end the session with its handle's `close()`.
   */
  dispose(): void;
}

const DEFAULT_READY_TIMEOUT_MS = 20_000;

/**
 * Where a session is. The moves between phases are the session's rules:
 *
 * ```text
 * warming ──open()──▶ waiting ──frame ready and token on hand: hand-over──▶ open
 *    │                   ▲                                                   │
 *    │                   └──── the Link page refused the token (once) ───────┤
 *    ▼                                                                       ▼
 * disposed ──open()──▶ ended ◀── closed, hidden, failed, Link exit (from waiting or open)
 * ```
 *
 * - `warming`: built hidden (`prepareLink`); the frame loads, the token may be on its way; no token reaches
 *   the frame, no callback fires.
 * - `waiting`: shown; the token goes over once the Link page is ready and the token is on hand.
 * - `open`: the token was handed over; Link events count only now (login and success at most once, see
 *   onFrameEvent). A second "ready" here is the Link page reloading: a failure. The Link page refusing the
 *   token goes back to `waiting` with a new frame and token, once per session.
 * - `ended`: terminal; `onExit` was called, exactly once, and nothing else is called after it.
 * - `disposed`: torn down before anyone opened it; `open()` then ends at once.
 */
type SessionPhase = 'warming' | 'waiting' | 'open' | 'ended' | 'disposed';

const MOVES: Record<SessionPhase, readonly SessionPhase[]> = {
  warming: ['waiting', 'disposed'],
  waiting: ['open', 'ended'],
  open: ['waiting', 'ended'],
  disposed: ['ended'],
  ended: [],
};

/**
 * Opens the hosted Link flow in a modal frame: gets a token (from `token`,
 * `fetchToken` or `tokenUrl`), loads `linkUrl` in parallel, hands the token to
 * the frame over `postMessage` once it says it is ready, and reports what
 * happens through the callbacks. Framework-free; the `<payroll-link>` element
 * is a thin shell over it.
 *
 * @example
 * ```js
 * const link = openLink({
 *   linkUrl: 'https://link.example.com/link',
 *   tokenUrl: '/api/link-token',
 *   onSuccess: ({ accountId, jobId }) => save(accountId, jobId),
 * });
 * const { reason } = await link.closed;
 * ```
 */
export function openLink(options: OpenLinkOptions): LinkHandle {
  return prepareLink({ ...options, fetchTokenAhead: false }).open();
}

/**
 * Builds the Link flow ahead of the click, hidden: the modal `<dialog>` stays
 * closed (not rendered, not focusable, not in the accessibility tree) while
 * the Link page loads in its frame and says it is ready, and the token is
 * fetched beside it (see `fetchTokenAhead`). `open()` then only shows the
 * dialog and hands the token over: the Link page shows at once. The token
 * never reaches the frame before `open()` (a token handed over starts a
 * single-use Link session). `openLink()` is `prepareLink()` then `open()` in
 * one call.
 *
 * Call it on a sign of intent (the pointer over your button, focus) and
 * `dispose()` what you prepared when it is no longer wanted: the hidden frame
 * holds a page (often a process) of its own. It is never moved in the DOM
 * (moving a frame reloads it).
 *
 * @example
 * ```js
 * let prepared;
 * button.addEventListener('pointerenter', () => {
 *   prepared ??= prepareLink({ linkUrl: 'https://link.example.com/link', tokenUrl: '/api/link-token', onSuccess: save });
 * });
 * button.addEventListener('click', () => {
 *   const link = (prepared ?? prepareLink({ linkUrl: 'https://link.example.com/link', tokenUrl: '/api/link-token', onSuccess: save })).open();
 *   prepared = undefined;
 * });
 * ```
 */
export function prepareLink(prepareOptions: PrepareLinkOptions): PreparedLink {
  // Read when used, so that open() can still give what it knows better (the token, callbacks, theme).
  const options: OpenLinkOptions = { ...prepareOptions };
  // The page's language, read when the flow is built: the modal's own words, and what the Link page is told.
  const language = options.language ?? document.documentElement.lang;
  const words = widgetStrings(language, options.strings);
  const abort = new AbortController();
  let phase: SessionPhase = 'warming';
  let frameReady = false;
  let token: SessionToken | null = null;
  let accountId: string | undefined;
  let loggedIn = false;
  let succeeded = false;
  let dropped = 0;
  let failure: { reason: ExitReason; error: LinkError } | null = null;
  let renewed = false;
  let modal: LinkModal | null = null;
  let modalFailure: unknown = null;
  let channel: FrameChannel | null = null;
  let readyTimer: ReturnType<typeof setTimeout> | undefined;
  let releaseScroll = () => {};
  let restoreFocus = () => {};
  let resolveReady!: () => void;
  let resolveClosed!: (detail: ExitDetail) => void;
  let handle: LinkHandle | null = null;
  const linkOrigin = originOf(options.linkUrl);
  const canRefetch = () => Boolean(options.fetchToken || options.tokenUrl);
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  const closed = new Promise<ExitDetail>((resolve) => (resolveClosed = resolve));
  /** Shown and not yet ended: the only phases in which callbacks (but onExit) fire and failures end the session. */
  const running = () => phase === 'waiting' || phase === 'open';
  /** Every change of phase goes through here: a move the session's rules do not allow is a bug, never taken. */
  const moveTo = (next: SessionPhase): boolean => {
    if (!MOVES[phase].includes(next)) return false;
    phase = next;
    return true;
  };

  /**
   * Calls an integrator callback; a callback that throws is reported, never allowed to break the session.
   * Once the session has ended (a callback may end it: remove the element, call `close()`), only `onExit`
   * is still called, so that it stays the last thing the integrator hears.
   */
  const call = <K extends keyof LinkCallbacks>(name: K, detail: Parameters<NonNullable<LinkCallbacks[K]>>[0]) => {
    if (!running() && name !== 'onExit') return;
    guarded(options[name] as ((value: typeof detail) => void) | undefined, detail);
  };

  /** Stops everything this preparation or session started and removes what it added to the page. */
  const tearDown = () => {
    abort.abort();
    clearTimeout(readyTimer);
    channel?.dispose();
    modal?.remove();
    releaseScroll();
    restoreFocus();
  };

  const end = (reason: ExitReason, error: LinkError | null) => {
    if (!moveTo('ended')) return;
    // A failure being reported wins over a close requested from inside its own onError callback.
    if (failure) ({ reason, error } = failure);
    tearDown();
    // Once the job succeeded, closing (or hiding) the modal is the natural end of a completed session.
    const completed = succeeded && (reason === 'user_closed' || reason === 'closed_by_host');
    const detail: ExitDetail = { reason: completed ? 'completed' : reason, error: completed ? null : error, linkTokenId: token?.id ?? null };
    // A reconnect session is about its account from the start, even when it ends before the login.
    const account = accountId ?? options.accountId;
    if (account) detail.accountId = account;
    resolveReady();
    resolveClosed(detail);
    call('onExit', detail);
  };

  /** Reports `error` through onError, then ends the session with it (as `reason`: most failures are errors). */
  const fail = (error: LinkError, reason: ExitReason = 'error') => {
    if (!running()) return;
    failure = { reason, error };
    call('onError', error);
    end(reason, error);
  };

  /** The token goes to the frame only once the session waits for it (opened, not yet handed over) and both are there. */
  const handOver = () => {
    if (phase !== 'waiting' || !frameReady || !token || !channel) return;
    moveTo('open');
    channel.sendToken(token.token, language || undefined);
    modal?.markReady();
    // A renewed token opens the same session: the integrator heard onOpen already.
    if (!renewed) call('onOpen', { linkTokenId: token.id });
    resolveReady();
  };

  const onFrameEvent = (message: EventMessage) => {
    if (phase !== 'open') return;
    if ((message.name === 'login' && loggedIn) || (message.name === 'success' && succeeded)) {
      dropped++;
      return;
    }
    // The Link page refused a token the widget thought fresh (clocks disagree, or it was spent): before
    // anything else happened, try once more with a new token in a new frame; the user never sees the failure.
    if (message.name === 'error' && message.payload.type === 'invalidLinkToken' && !loggedIn && !renewed && canRefetch()) {
      renewed = true;
      renewToken();
      return;
    }
    // State first: a callback below may end the session, and the exit detail must already know this.
    if (message.name === 'login') {
      // A reconnect session brings back one account: a login to another is an error, never a silent new account.
      if (options.accountId && message.payload.accountId !== options.accountId) {
        return fail(linkError('invalidCredentials', 'ACCOUNT_MISMATCH', 'The user logged in to another account than the one to reconnect.'));
      }
      loggedIn = true;
      accountId = message.payload.accountId;
    } else if (message.name === 'success') {
      succeeded = true;
      accountId ??= message.payload.accountId;
    }
    call('onEvent', { name: message.name, payload: message.payload } as LinkEventDetail);
    switch (message.name) {
      case 'login':
        call('onLogin', message.payload);
        break;
      case 'success':
        call('onSuccess', message.payload);
        break;
      case 'error':
        call('onError', message.payload);
        break;
      case 'exit':
        accountId ??= message.payload.accountId;
        end(message.payload.reason, message.payload.error);
        break;
    }
  };

  const acquireToken = async (given: OpenLinkOptions['token'], cancelGiven: (() => void) | undefined): Promise<SessionToken> => {
    if (given !== undefined) {
      try {
        const taken = toSessionToken(await settleWithin(given, abort.signal, options.tokenFetch?.timeoutMs));
        if (!isStale(taken)) return taken;
        if (!canRefetch()) throw new LinkFailure(linkError('invalidLinkToken', 'TOKEN_EXPIRED', 'The Link token given has expired.'));
      } catch (error) {
        // Given up on: a fetch ahead still retrying must stop, not run beside the session's own.
        cancelGiven?.();
        // A token fetched ahead that failed or expired is replaced silently when there is a source for a new
        // one; not when the session has ended meanwhile.
        if (!canRefetch() || abort.signal.aborted) throw error;
      }
    }
    return fetchLinkToken(options, abort.signal, options.tokenFetch);
  };

  const takeToken = (pending: Promise<SessionToken>) =>
    pending.then(
      (fresh) => {
        token = fresh;
        handOver();
      },
      (error: unknown) => {
        if (!running()) return;
        fail(error instanceof LinkFailure ? error.linkError : linkError('systemError', 'UNEXPECTED', String(error)));
      },
    );

  const watchReady = () => {
    clearTimeout(readyTimer);
    readyTimer = setTimeout(
      () => fail(linkError('networkError', 'LINK_UNAVAILABLE', 'The Link page did not load in time.')),
      options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
    );
  };

  const listen = (frame: HTMLIFrameElement, origin: string) =>
    connectFrame({
      frame,
      linkOrigin: origin,
      onReady() {
        if (phase === 'ended' || phase === 'disposed') return;
        // A second "ready" means the Link page reloaded and lost the single-use token: the session cannot go on.
        // (Before the hand-over a reload loses nothing: the page is simply ready again.)
        if (phase === 'open') return fail(linkError('systemError', 'LINK_RELOADED', 'The Link page reloaded during the session.'));
        frameReady = true;
        clearTimeout(readyTimer);
        handOver();
      },
      onEvent: onFrameEvent,
      onDrop(message) {
        dropped++;
        guarded(options.onDroppedMessage, message);
      },
    });

  /** A new frame and a new token, once per session (see onFrameEvent). */
  const renewToken = () => {
    if (!modal || !linkOrigin) return;
    channel?.dispose();
    moveTo('waiting');
    frameReady = false;
    token = null;
    channel = listen(modal.replaceFrame(), linkOrigin);
    watchReady();
    void takeToken(fetchLinkToken(options, abort.signal, options.tokenFetch));
  };

  /** A session that cannot start ends through the usual error path, once the caller holds its handle. */
  const failSoon = (code: string, message: string) => queueMicrotask(() => fail(linkError('clientError', code, message)));

  // Prepared: the modal built closed, its frame loading and listened to, the token on its way if asked.
  let ahead: Promise<TokenInput> | undefined;
  if (linkOrigin !== null) {
    try {
      modal = createLinkModal({
        container: options.container,
        theme: options.theme,
        containerParent: options.containerParent,
        linkUrl: new URL(options.linkUrl, document.baseURI).href,
        title: options.title ?? words.title,
        closeLabel: words.close,
        loadingText: words.loading,
        onUserClose: () => end('user_closed', null),
        onHidden: () => {
          // Hidden once the job succeeded: the session is complete, nothing failed (see end()).
          if (succeeded) end('closed_by_host', null);
          else fail(linkError('clientError', 'MODAL_HIDDEN', 'The page hid the Link modal.'), 'closed_by_host');
        },
      });
      channel = listen(modal.frame, linkOrigin);
    } catch (error) {
      // The browser lacks what the modal needs (constructed stylesheets): reported when the session starts.
      modalFailure = error;
    }
    if (modal && prepareOptions.fetchTokenAhead !== false && options.token === undefined && canRefetch()) {
      ahead = fetchLinkToken(options, abort.signal, options.tokenFetch).then((fetched) => fetched.input);
      // A failure here is no one's yet: open() replaces that token silently (see acquireToken).
      ahead.catch(() => {});
    }
  }

  /** Starts the session: shows the dialog and takes the token; the hand-over follows once both are there. */
  const start = () => {
    moveTo('waiting');
    if (linkOrigin === null) {
      failSoon('INVALID_LINK_URL', 'link-url (linkUrl) must be an https URL (plain http only on localhost or 127.0.0.1).');
      return;
    }
    restoreFocus = saveFocus(options.returnFocusTo ?? undefined);
    try {
      if (modalFailure) throw modalFailure;
      releaseScroll = lockScroll();
      modal!.show(options.theme);
    } catch (error) {
      // showModal() refused (a container outside the document...), or the browser lacks what the modal needs
      // (constructed stylesheets). end() releases the scroll lock and gives focus back; nothing is thrown at
      // the caller, and `closed` and `ready` settle as documented.
      failSoon('MODAL_UNAVAILABLE', `The Link modal could not be shown (${error}).`);
      return;
    }
    // Nothing below throws: a timer, and an async token fetch whose failures takeToken reports.
    if (!frameReady) watchReady();
    const given = options.token ?? ahead;
    void takeToken(acquireToken(given, options.token !== undefined ? options.cancelToken : undefined));
    handOver();
  };

  return {
    open(late) {
      if (handle) return handle;
      // A token fetched ahead belongs to the source it was fetched from: another user's, account's or endpoint's
      // token must never start this session, so a changed source means a fresh fetch.
      if (late && !sameTokenSource(options, { ...options, ...late })) ahead = undefined;
      if (late) Object.assign(options, late);
      handle = {
        close: () => end('closed_by_host', null),
        closed,
        ready,
        get droppedMessages() {
          return dropped;
        },
      };
      // Disposed before it was opened: a session that ended before it began, with nothing left to tear down.
      if (phase === 'disposed') end('closed_by_host', null);
      else start();
      return handle;
    },
    dispose() {
      if (moveTo('disposed')) tearDown();
    },
  };
}

/**
 * The exact origin of a Link URL (relative URLs resolve against the page), or
 * null when it is not one we hand a token to: https, or plain http on loopback
 * only (the sandbox on a developer's machine), never a token in clear text
 * across a network.
 */
function originOf(linkUrl: unknown): string | null {
  if (typeof linkUrl !== 'string' || linkUrl.trim() === '') return null;
  try {
    const url = new URL(linkUrl, document.baseURI);
    if (url.protocol === 'https:') return url.origin;
    return url.protocol === 'http:' && LOOPBACK.test(url.hostname) ? url.origin : null;
  } catch {
    return null;
  }
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;
