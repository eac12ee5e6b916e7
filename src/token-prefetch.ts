import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { fetchLinkToken, isStale, type SessionToken, type TokenInput, type TokenSource } from './core/fetch-link-token.js';

/** After a fetch ahead failed, hovering again does not retry before this: the click still fetches at once. */
const RETRY_COOLDOWN_MS = 10_000;

/** A token fetched ahead, handed to one session. */
export interface TakenToken {
  token: Promise<TokenInput>;
  /** Stops the fetch if it is still under way (the session ended first). */
  cancel(): void;
}

/**
 * Fetches a Link token ahead of the click (on connect, hover or focus) so the
 * flow opens at once. A token serves one session: `take()` hands it over and
 * forgets it. A token is never handed over when it went stale while waiting,
 * or when it was fetched for another endpoint or end user than the current
 * one; a fetch ahead that failed is not reported (the click fetches again and
 * reports).
 */
export class TokenPrefetch implements ReactiveController {
  #pending: Promise<SessionToken> | null = null;
  #ready: SessionToken | null = null;
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
    this.#dropUnusable();
    if (this.#pending || Date.now() - this.#failedAt < RETRY_COOLDOWN_MS) return;
    const abort = new AbortController();
    const source = this.#source();
    const pending = fetchLinkToken(source, abort.signal);
    this.#abort = abort;
    this.#fetchedFor = source;
    this.#pending = pending;
    pending.then(
      (token) => {
        if (this.#pending === pending) this.#ready = token;
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
    this.#dropUnusable();
    const pending = this.#pending;
    const abort = this.#abort;
    this.#pending = null;
    this.#ready = null;
    this.#abort = null;
    this.#fetchedFor = null;
    if (!pending || !abort) return undefined;
    return { token: pending.then((token) => token.input), cancel: () => abort.abort() };
  }

  /** Forgets any token on hand and stops a fetch under way. */
  discard(): void {
    this.#abort?.abort();
    this.#abort = null;
    this.#pending = null;
    this.#ready = null;
    this.#fetchedFor = null;
  }

  #dropUnusable(): void {
    if (!this.#pending) return;
    const now = this.#source();
    const fetchedFor = this.#fetchedFor;
    const sameSource =
      fetchedFor !== null &&
      fetchedFor.tokenUrl === now.tokenUrl &&
      fetchedFor.endUserId === now.endUserId &&
      fetchedFor.fetchToken === now.fetchToken;
    if (!sameSource || (this.#ready && isStale(this.#ready))) this.discard();
  }
}
