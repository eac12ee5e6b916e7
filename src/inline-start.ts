import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** What {@link InlineStart} reads of its element. */
export interface InlineStartHost extends ReactiveControllerHost, HTMLElement {
  readonly hasUpdated: boolean;
  display: 'modal' | 'inline' | undefined;
  prefetch: boolean | 'load';
  disabled: boolean;
  show(): Promise<void>;
}

/**
 * When an inline element (`display="inline"`) starts its session by itself. Each token is a billable call to the
 * service, so not on page load: once the element comes within about one viewport of being visible (an
 * `IntersectionObserver` with a root margin of one viewport's height), or on connect with `prefetch="load"`.
 * Once per connection: a session ended stays on its final screen, and only `show()` starts another (the element
 * calls {@link InlineStart.stop} for any session it starts). A page with inline elements far below the fold mints
 * nothing until the user scrolls.
 */
export class InlineStart implements ReactiveController {
  readonly #host: InlineStartHost;
  #sight: IntersectionObserver | null = null;
  #started = false;

  constructor(host: InlineStartHost) {
    (this.#host = host).addController(this);
  }

  hostConnected(): void {
    // A reconnection (the element moved: its session ended) waits for sight again, after an update.
    if (this.#host.hasUpdated) this.#host.requestUpdate();
  }

  hostDisconnected(): void {
    this.stop();
    this.#started = false;
  }

  /** After each render (the box is there by then): watch for sight, once per connection, while inline and enabled. */
  hostUpdated(): void {
    const host = this.#host;
    if (this.#sight || this.#started || host.display !== 'inline' || host.disabled || !host.isConnected) return;
    // After this update, not inside it: starting sets the element's properties again.
    if (host.prefetch === 'load') return void host.updateComplete.then(() => this.#start());
    this.#sight = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && this.#start(), { rootMargin: '100% 0px' });
    this.#sight.observe(host);
  }

  /** A session started (by sight, `prefetch="load"` or `show()`): nothing more to watch for. */
  stop(): void {
    this.#started = true;
    this.#sight?.disconnect();
    this.#sight = null;
  }

  #start(): void {
    if (this.#host.disabled) return;
    this.stop();
    void this.#host.show();
  }
}
