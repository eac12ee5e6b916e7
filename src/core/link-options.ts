/**
 * The session's contract: its options, its callbacks and its handle, types only. `openLink()` and `prepareLink()`
 * (open-link.ts) take and return them, and the session (link-session.ts) implements them; both import this file,
 * neither imports the other's types.
 */
import type { Display, ExitDetail } from '../protocol.js';
import type { OptionValues, SessionOptionName } from '../protocol/element-options.js';
import type { CallbacksOf, PayrollLinkEventName } from '../protocol/element-events.js';
import type { TokenFetchTuning, TokenInput, TokenSource } from './fetch-link-token.js';
import type { DroppedMessage } from './frame-channel.js';
import type { WidgetStrings } from './strings.js';

/**
 * The callbacks of a session, one per event of the element's table (`ELEMENT_EVENTS`, src/protocol/element-events.ts:
 * each callback's doc comment is its event's), each given its event's detail. Each is read at the moment it fires, so
 * it may be replaced while the session runs.
 */
export interface LinkCallbacks extends CallbacksOf<PayrollLinkEventName> {}

/**
 * Options of `openLink`. Beside these, the callbacks (one per element event) and the element's options that a session
 * takes too (`session` in their rows of `ELEMENT_OPTIONS`: `colorScheme`, `onOpenUrl`).
 */
export interface OpenLinkOptions extends TokenSource, LinkCallbacks, Partial<Pick<OptionValues, SessionOptionName>> {
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
   * How the flow shows: {@link Display}. `'inline'` needs `container`, and leaves a session's final screen there
   * for you to remove: docs/inline.md says how it sizes, takes focus and ends.
   */
  display?: Display;
  /**
   * Where the modal `<dialog>` is placed (inline: where the flow's box goes, at the end). Default: a new shadow-rooted
   * element at the end of `<body>`. It must be rendered while the modal shows: once the page hides the dialog (it, the
   * container or an ancestor gets `display: none` or `content-visibility: hidden`), the session ends rather than leave
   * the page blocked behind a modal nobody sees: `onError` with error code `MODAL_HIDDEN`, then `onExit` with
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
  /**
   * The modal: where focus returns when the session ends. Default: the element focused when the session started.
   * Inline: where focus goes when the frame goes while it had focus (its user closed it), unless an `onExit`
   * callback moved it; made focusable (`tabindex="-1"`) and named with `title` then, if it was not focusable.
   * Inline without it, focus stays where the browser leaves it. `<payroll-link>` inline passes itself.
   */
  returnFocusTo?: HTMLElement | null;
  /**
   * Whether the user opened the flow, and so gives it focus: the Link page moves focus to its first screen only
   * then (later screens, only while focus is in the frame already). The modal always takes focus as it opens;
   * this is for `display: 'inline'`, whose default is whether the user is opening it now: a click or key press
   * just now (`navigator.userActivation.isActive`), with no text field outside the flow holding focus. Pass
   * false for a flow your page starts by itself. Read at `open()`.
   */
  takeFocus?: boolean;
  /** Accessible name of the modal and the frame. Default: `strings.title`, in the page's language. */
  title?: string;
  /**
   * The page's language (a BCP 47 tag such as `es-MX`): the modal's own words come in it (English or
   * Spanish) and the Link page is told it. Default: `<html lang>`.
   */
  language?: string;
  /**
   * The writing direction (`ltr`, `rtl`) of the modal's own container, at the end of `<body>`: `<payroll-link>`
   * passes its own (its nearest `dir`, in effect). Default: none (the page's).
   */
  dir?: string;
  /** The modal's own words (`close`, `loading`), over the language's defaults. */
  strings?: Partial<Pick<WidgetStrings, 'close' | 'loading'>>;
  /** How long the Link page may take to say it is ready before the session ends with an error. */
  readyTimeoutMs?: number;
  /** How long the Link page may take to answer {@link LinkHandle.requestClose} (or Escape, the close control). Default 2,000 ms. */
  closeRequestTimeoutMs?: number;
  /** Token fetch tuning (timeouts, retries); the defaults suit users. */
  tokenFetch?: TokenFetchTuning;
  /** Debug hook: called for every message refused (wrong origin, wrong window, failed schema). */
  onDroppedMessage?: (dropped: DroppedMessage) => void;
}

/** A running Link session. */
export interface LinkHandle {
  /** Ends the session (`reason: 'closed_by_host'`). Does nothing once it has ended. */
  close(): void;
  /**
   * Asks the Link flow to close, as Escape and the close control do: the flow ends (`reason: 'user_closed'`), or
   * first asks its user while a job runs ("leave anyway?"), and the session goes on if they stay. A flow that
   * does not answer within `closeRequestTimeoutMs` is ended (`reason: 'closed_by_host'`). `close()` ends at once.
   */
  requestClose(): void;
  /** Settles with the exit detail when the session ends, whatever the reason. Never rejects. */
  readonly closed: Promise<ExitDetail>;
  /** Settles when the Link frame is ready and has its token, or when the session ends before that. Never rejects. */
  readonly ready: Promise<void>;
  /** How many incoming messages were refused so far. */
  readonly droppedMessages: number;
}

/** Options of `prepareLink`: those of `openLink`, and whether to fetch the token at once. */
export interface PrepareLinkOptions extends OpenLinkOptions {
  /**
   * Fetch the token now, beside the frame, from `fetchToken` or `tokenUrl` (when no `token` is given), so
   * that `open()` finds it on hand. Default true. Each token is a billable call to the service, hence
   * {@link prepareLink} on a sign of intent. A token fetched ahead and never used is left to expire; one that
   * failed is fetched again, silently, at `open()`.
   */
  fetchTokenAhead?: boolean;
}

/** What may still be given at {@link PreparedLink.open}: the token, its source, callbacks, theme, focus target and tuning. */
export type OpenPreparedOptions = Partial<
  Omit<OpenLinkOptions, 'linkUrl' | 'display' | 'container' | 'containerParent' | 'title' | 'language' | 'dir' | 'strings'>
>;

/** A Link flow built ahead of the click, hidden: see `prepareLink`. */
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
