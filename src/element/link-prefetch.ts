import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { enclosingModal } from '../core/enclosing-modal.js';
import type { SessionToken, TokenInput, TokenSource } from '../core/fetch-link-token.js';
import type { LinkCallbacks, PreparedLink } from '../core/link-options.js';
import type { Display } from '../protocol.js';
import { relayEvents } from './events.js';
import { sameRecord } from '../shared/same-record.js';
import { TOKEN_FAILURE_MEMORY_MS } from '../core/token-failure-memory.js';
import { sameTokenSource, tokenSourceOf } from '../core/same-token-source.js';
import { lazyPrepareLink, loadSessionCode, preloadSessionCode } from './load-session.js';
import { languageOf, widgetStrings, type WidgetStrings } from '../core/strings.js';

/** A frame prefetched and never opened is torn down this long after the last sign of intent: it holds a page (often a process). */
export const FRAME_IDLE_MS = 120_000;

/** A token prefetched, handed to one session. */
export interface TakenToken {
  token: Promise<TokenInput>;
  /** Stops the fetch if it is still under way (the session ended first). */
  cancel(): void;
}

/** A token prefetched with the session code's freshness check (loaded by then: it fetched the token). */
interface FetchedToken {
  token: SessionToken;
  isStale: (token: SessionToken) => boolean;
}

/** A token prefetch: its fetch (and the token, once `ready`), whom it is for, and how to stop it. */
interface PrefetchedToken {
  fetched: Promise<FetchedToken>;
  ready?: FetchedToken;
  source: TokenSource;
  abort: AbortController;
  /** Its fetch failed (at `#tokenFailedAt`): kept for the click to report, for {@link TOKEN_FAILURE_MEMORY_MS}. */
  failed?: true;
}

/**
 * What the controller reads of its element: the properties that decide what to prefetch, for whom, and where. The
 * token's source and the callbacks are typed from the session's (`TokenSource`, `LinkCallbacks`), as the element's are:
 * a flow built ahead relays what it fires before `open()` (`link-ready`) as the element's events.
 */
export interface LinkPrefetchHost extends ReactiveControllerHost, HTMLElement, TokenSource, LinkCallbacks {
  readonly hasUpdated: boolean;
  prefetch: boolean | 'load';
  /** Inline, the element starts its session itself when seen: nothing to prefetch. */
  display?: Display | undefined;
  disabled: boolean;
  open: boolean;
  linkUrl: string | undefined;
  strings: Partial<WidgetStrings> | undefined;
}

/**
 * Where and how a Link frame is built: the Link page, the open modal of the page its container goes into (if
 * any), and the modal's words in the page's language. A frame prefetched for one place never serves another
 * (a frame is never moved: moving it reloads it).
 */
export interface FramePlace {
  linkUrl: string;
  containerParent: Element | undefined;
  language: string;
  /**
   * The element's writing direction (`ltr`, `rtl`: its nearest `dir`, or CSS `direction`, in effect across shadow
   * roots): the modal's container, at the end of `<body>`, carries it (and the language).
   */
  dir: string;
  /** All the words, in that language: the session takes its title and the modal's own from them. */
  strings: WidgetStrings;
}

/** What a session starts from: the token prefetched (if any), and the flow, prefetched or built now. */
export interface Prefetched {
  /** None inline: that flow is built at once, and fetches its own. */
  token?: TakenToken | undefined;
  link: PreparedLink;
}

/**
 * The element's prefetch: on a sign of intent (the pointer over the element, focus, a press) it loads the
 * session's code and, with `prefetch`, fetches the token and builds the Link frame hidden ("Instant open": the
 * modal closed, its Link page loading, no token in it); with `prefetch="load"` on connect too. It reacts to the
 * element's properties at each update, so the element steers nothing by hand. At most one token and one frame:
 * `take()` hands both to the session that opens, once. A token is never handed over when it went stale while
 * waiting or was fetched for another source (see {@link sameTokenSource}). A token prefetch that failed stands
 * for {@link TOKEN_FAILURE_MEMORY_MS}: no sign of intent fetches again, and a click meanwhile gets that failure and
 * reports it, without calling the failing endpoint again (the fetch said it once on the console). The frame goes
 * when the Link URL or whom the token is for changes, when `prefetch` goes off or the element is disabled, with
 * the element, and after {@link FRAME_IDLE_MS} without intent.
 */
export class LinkPrefetch implements ReactiveController {
  readonly #host: LinkPrefetchHost;
  #token: PrefetchedToken | null = null;
  #tokenFailedAt = -Infinity;
  #frame: { link: PreparedLink; place: FramePlace; idle: ReturnType<typeof setTimeout> } | null = null;
  /** What decided the last prefetch, by name, as the last update saw it (see hostUpdate). */
  #seen = {};
  /** The Link URL the last update saw: a new one replaces the frame built ahead, and calls for no token. */
  #seenLinkUrl: string | undefined;
  /** On a device without hover, the wait for the element to be seen, to load the session's code (see hostConnected). */
  #preloadWhenSeen: IntersectionObserver | null = null;

  constructor(host: LinkPrefetchHost) {
    this.#host = host;
    host.addController(this);
    // A hover is a pointer moving over the element (`pointerenter` also fires when a closing modal uncovers it
    // under a resting pointer); a tap moves no pointer before it presses, and iOS does not focus a tapped button:
    // the press is the hint. On the host itself: listeners die with the element, so reconnecting adds none.
    for (const type of ['pointermove', 'pointerdown', 'focusin']) host.addEventListener(type, this.#onIntent);
  }

  /** Whom the token is for. */
  source(): TokenSource {
    return tokenSourceOf(this.#host);
  }

  hostConnected(): void {
    // Not at once: frameworks set properties just after inserting the element (Angular binds `[endUserId]` in
    // the same task), and a token fetched before that would be for nobody. The first connection prefetches at
    // its first update; a reconnection (the element moved) once the pending update, if any, is done.
    if (this.#host.hasUpdated) void this.#host.updateComplete.then(() => this.#prefetchWithoutIntent());
    // Without hover, the tap is intent and click at once (its `pointerdown` comes with `touchstart`): the token
    // and the frame would wait for the code after it. The code mints nothing, so it loads once the element is
    // first seen, when the page is idle (not on a desktop page: there a hover loads it). The tap's press then
    // starts the token and the frame together. Only where both features exist (jsdom has neither): without them
    // the press loads the code, as before the element was seen.
    if (self.IntersectionObserver && self.matchMedia?.('(hover: none)').matches) {
      const observer = (this.#preloadWhenSeen = new IntersectionObserver(([entry]) => {
        if (!entry!.isIntersecting) return;
        observer.disconnect();
        (self.requestIdleCallback ?? setTimeout)(preloadSessionCode);
      }));
      observer.observe(this.#host);
    }
  }

  hostDisconnected(): void {
    this.#preloadWhenSeen?.disconnect();
    this.#discardToken();
    this.#discardFrame();
  }

  hostUpdate(): void {
    const host = this.#host;
    // A token prefetched for another source is never handed over (checked at take()); checking at each update
    // as well stops its fetch at once.
    this.#dropUnusableToken();
    // Whether this update calls for a prefetch: the first update (frameworks set properties after connecting),
    // `prefetch` or `disabled` changed, or whom the token is for (as when a server-rendered element gets its
    // properties at hydration). Not a new `fetchToken` function in place of another: React hands one on every
    // render, and a fetch each time would cost the backend a call to the service per render (without
    // `end-user-id`, that change drops the token on hand, and the next sign of intent prefetches again).
    const seen = { prefetch: host.prefetch, disabled: host.disabled, ...this.source(), fetchToken: Boolean(host.fetchToken) };
    const callsForPrefetch = !sameRecord(seen, this.#seen);
    // The frame goes too when the Link URL changed, and while prefetch is off or the element disabled.
    if (callsForPrefetch || host.linkUrl !== this.#seenLinkUrl || !host.prefetch || host.disabled) this.#discardFrame();
    this.#seen = seen;
    this.#seenLinkUrl = host.linkUrl;
    if (callsForPrefetch) this.#prefetchWithoutIntent();
  }

  /** Prefetches the token and the frame, with either `prefetch` form: on intent, or after the user closed the flow unfinished. */
  prefetch(): void {
    const host = this.#host;
    // `open` is still true when focus comes back to the button at the end of a session: its end decides then.
    // A detached element (a session ended by its removal) prefetches nothing: nobody would ever use or drop it.
    const wanted = host.prefetch && host.display !== 'inline' && !host.disabled && !host.open;
    if (!wanted || !host.isConnected || !(host.tokenUrl || host.fetchToken)) return;
    this.#prefetchToken();
    if (!host.linkUrl) return;
    const place = this.#place();
    if (this.#frame && !sameRecord(this.#frame.place, place)) this.#discardFrame();
    // The frame on hand (for this place) is kept, with a new idle timer.
    const link = this.#detachFrame()?.link ?? lazyPrepareLink({ ...place, fetchTokenAhead: false, ...relayEvents(host, () => true) });
    this.#frame = { link, place, idle: setTimeout(() => this.#discardFrame(), FRAME_IDLE_MS) };
  }

  /**
   * Hands the token prefetched (if any) and the frame prefetched for this place (or one built now) to the session
   * that opens. `inlineBox`: the flow is built now, inline in that box.
   */
  take(inlineBox?: ParentNode): Prefetched {
    const place = this.#place();
    if (inlineBox) return { link: lazyPrepareLink({ ...place, display: 'inline', container: inlineBox, fetchTokenAhead: false }) };
    // One prefetched for another place is torn down instead.
    const frame = this.#frame && sameRecord(this.#frame.place, place) ? this.#detachFrame() : this.#discardFrame();
    return { token: this.#takeToken(), link: frame?.link ?? lazyPrepareLink({ ...place, fetchTokenAhead: false }) };
  }

  /** Starts fetching a token unless a usable one is on hand or on its way. */
  #prefetchToken(): void {
    this.#dropUnusableToken();
    if (this.#token || Date.now() - this.#tokenFailedAt < TOKEN_FAILURE_MEMORY_MS) return;
    const abort = new AbortController();
    const source = this.source();
    // The fetch is the session code's: it loads first (at once when the sign of intent that got here loaded it).
    const fetched = loadSessionCode().then(async (code) => ({
      token: await code.fetchLinkToken(source, abort.signal),
      isStale: code.isStale,
    }));
    const token: PrefetchedToken = (this.#token = { fetched, source, abort });
    fetched.then(
      (ready) => (token.ready = ready),
      () => {
        // Stopped (dropped, or its session ended) is no failure of the endpoint.
        if (abort.signal.aborted) return;
        this.#tokenFailedAt = Date.now();
        token.failed = true;
      },
    );
  }

  /** The token prefetched (or its fetch still under way), handed over once; undefined when there is none usable. */
  #takeToken(): TakenToken | undefined {
    this.#dropUnusableToken();
    const taken = this.#token;
    this.#token = null;
    if (!taken) return undefined;
    const token = taken.fetched.then((fetched) => fetched.token.input);
    // The session may end before it reads the token (and then cancels it): that rejection is nobody's to report.
    token.catch(() => {});
    return { token, cancel: () => taken.abort.abort() };
  }

  #discardToken(): void {
    this.#token?.abort.abort();
    this.#token = null;
  }

  /**
   * Drops the token on hand (or its fetch) when it went stale, was fetched for another source than the current
   * one, or failed longer ago than {@link TOKEN_FAILURE_MEMORY_MS}.
   */
  #dropUnusableToken(): void {
    const token = this.#token;
    const forgotten = token?.failed && Date.now() - this.#tokenFailedAt >= TOKEN_FAILURE_MEMORY_MS;
    if (token && (forgotten || !sameTokenSource(token.source, this.source()) || token.ready?.isStale(token.ready.token)))
      this.#discardToken();
  }

  /** With `prefetch="load"`, what is due without a sign of intent: on connect, and when what decides it changed. */
  #prefetchWithoutIntent(): void {
    if (this.#host.prefetch === 'load') this.prefetch();
  }

  #onIntent = () => {
    // The session's code costs no token: it loads on intent with or without `prefetch`.
    if (!this.#host.disabled) preloadSessionCode();
    this.prefetch();
  };

  /** Takes the frame built ahead (if any) off the controller's hands, its idle timer stopped. */
  #detachFrame() {
    const frame = this.#frame;
    this.#frame = null;
    if (frame) clearTimeout(frame.idle);
    return frame;
  }

  #discardFrame(): undefined {
    this.#detachFrame()?.link.dispose();
  }

  /** Where and how the flow is built now: the Link page, the modal it goes in, and the words of the page's language. */
  #place(): FramePlace {
    const host = this.#host;
    const language = languageOf(host);
    return {
      linkUrl: host.linkUrl ?? '',
      containerParent: enclosingModal(host),
      language,
      dir: getComputedStyle(host).direction,
      strings: widgetStrings(language, host.strings),
    };
  }
}
