import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { fetchLinkToken, isStale, type SessionToken, type TokenInput, type TokenSource } from './core/fetch-link-token.js';

/**
 * Fetches a Link token ahead of the click (on connect, hover or focus) so the
 * flow opens at once. A token serves one session: `take()` hands it over and
 * forgets it. A token that expired while waiting is never handed over; a fetch
 * ahead that failed is not reported (the click fetches again and reports).
 */
export class TokenPrefetch implements ReactiveController {
  #pending: Promise<SessionToken> | null = null;
  #ready: SessionToken | null = null;
  #abort: AbortController | null = null;
  readonly #source: () => TokenSource;

  constructor(host: ReactiveControllerHost, source: () => TokenSource) {
    this.#source = source;
    host.addController(this);
  }

  hostDisconnected(): void {
    this.discard();
  }

  /** Starts fetching a token unless a fresh one is on hand or on its way. */
  warm(): void {
    if (this.#ready && isStale(this.#ready)) this.discard();
    if (this.#pending) return;
    const abort = new AbortController();
    this.#abort = abort;
    const pending = fetchLinkToken(this.#source(), abort.signal);
    this.#pending = pending;
    pending.then(
      (token) => {
        if (this.#pending === pending) this.#ready = token;
      },
      () => {
        if (this.#pending === pending) this.discard();
      },
    );
  }

  /** The token fetched ahead (or its fetch still under way), handed over once; undefined when there is none fresh. */
  take(): Promise<TokenInput> | undefined {
    if (this.#ready && isStale(this.#ready)) this.discard();
    const pending = this.#pending;
    this.#pending = null;
    this.#ready = null;
    this.#abort = null;
    return pending?.then((token) => token.input);
  }

  /** Forgets any token on hand and stops a fetch under way (e.g. the end user changed). */
  discard(): void {
    this.#abort?.abort();
    this.#abort = null;
    this.#pending = null;
    this.#ready = null;
  }
}
