import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SessionToken, TokenInput, TokenSource } from './core/fetch-link-token.js';
import { sameTokenSource } from './core/same-token-source.js';
import { loadSessionCode } from './load-session.js';

/** After a fetch ahead failed, hovering again does not retry before this: the click still fetches at once. */
const RETRY_COOLDOWN_MS = 10_000;

/** A token fetched ahead, with the session code's freshness check (loaded by then: it fetched the token). */
interface FetchedAhead {
  token: SessionToken;
  isStale: (token: SessionToken) => boolean;
}

/** A token fetched ahead, handed to one session. */
export interface TakenToken {
  token: Promise<TokenInput>;
  /** Stops the fetch if it is still under way (the session ended first). */
  cancel(): void;
}

/**
 * Fetches a Link token ahead of the click (on intent: hover, focus, press; or on connect with `prefetch="load"`) so the
 * flow opens at once. A token serves one session: `take()` hands it over and
 * forgets it. A token is never handed over when it went stale while waiting,
 * or when it was fetched for another endpoint, end user, account or (without an end
 * user) `fetchToken` function than the current one (see {@link sameTokenSource});
 * a fetch ahead that failed is not reported (the click fetches again and
 * reports).
 */
export class TokenPrefetch implements ReactiveController {
  #pending: Promise<FetchedAhead> | null = null;
  #ready: FetchedAhead | null = null;
  #abort: AbortController | null = null;
  #fetchedFor: TokenSource | null = null;
  #failedAt = -Infinity;
  readonly #source: () => TokenSource;

  constructor(host: ReactiveControllerHost, source: () => TokenSource) {
    this.#source = source;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.discard();
  }

  /** Starts fetching a token unless a usable one is on hand or on its way. */
  warm(): void {
    this.dropUnusable();
    if (this.#pending || Date.now() - this.#failedAt < RETRY_COOLDOWN_MS) return;
    const abort = new AbortController();
    const source = this.#source();
    // The fetch is the session code's: it loads first (at once when the hover that got here loaded it).
    const pending = loadSessionCode().then(async (code) => ({ token: await code.fetchLinkToken(source, abort.signal), isStale: code.isStale }));
    this.#abort = abort;
    this.#fetchedFor = source;
    this.#pending = pending;
    pending.then(
      (fetched) => {
        if (this.#pending === pending) this.#ready = fetched;
      },
      () => {
        if (this.#pending !== pending) return;
        this.#failedAt = Date.now();
        this.discard();
      },
    );
  }

  /** The token fetched ahead (or its fetch still under way), handed over once; undefined when there is none usable. */
  take(): TakenToken | undefined {
    this.dropUnusable();
    const pending = this.#pending;
    const abort = this.#abort;
    this.#pending = null;
    this.#ready = null;
    this.#abort = null;
    this.#fetchedFor = null;
    if (!pending || !abort) return undefined;
    const token = pending.then((fetched) => fetched.token.input);
    // The session may end before it reads the token (and then cancels it): that rejection is nobody's to report.
    token.catch(() => {});
    return { token, cancel: () => abort.abort() };
  }

  /** Forgets any token on hand and stops a fetch under way. */
  discard(): void {
    this.#abort?.abort();
    this.#abort = null;
    this.#pending = null;
    this.#ready = null;
    this.#fetchedFor = null;
  }

  /** Drops the token on hand (or its fetch) when it went stale or was fetched for another source than the current one. */
  dropUnusable(): void {
    if (!this.#pending) return;
    const fetchedFor = this.#fetchedFor;
    if (!fetchedFor || !sameTokenSource(fetchedFor, this.#source()) || (this.#ready && this.#ready.isStale(this.#ready.token))) this.discard();
  }
}
