import { LitElement, html, nothing, type PropertyValues } from 'lit';
import type { LinkCallbacks, LinkHandle } from '../core/link-options.js';
import { ELEMENT_OPTIONS, type OptionValues, type SessionOptionName } from '../protocol/element-options.js';
import { emit, relayEvents } from './events.js';
import { payrollLinkStyles } from './payroll-link.styles.js';
import { themeSheet } from './theme-sheet.js';
import { LinkPrefetch } from './link-prefetch.js';
import { languageOf, widgetStrings } from '../core/strings.js';

/**
 * A button that connects an end user's payroll account through the service's hosted Link flow. It gets a short-lived
 * Link token from the integrator's backend (`token-url`), opens `link-url` in a modal frame, hands the token to the
 * frame over `postMessage` (never in a URL), and reports what happens through DOM events and callback properties.
 *
 * The modal always opens in a container of its own (`<div data-payroll-link-modal>`) at the end of `<body>`, or inside
 * the page's open modal the element sits in (a dialog library's: see `enclosingModal`), never inside the element, so
 * hiding the element (`hidden`, a menu that closes on click, a breakpoint, a Suspense fallback) never hides the flow.
 * The container gets the element's `--payroll-link-*` custom properties as they are when the flow opens; its parts are
 * styled as `[data-payroll-link-modal]::part(dialog)` (and `close-button`, `loading`, `frame`).
 *
 * Its properties are the rows of `ELEMENT_OPTIONS`, its events and callback properties those of `ELEMENT_EVENTS`
 * (src/protocol/), but `onOpen`, deliberately: `show()` resolves and `link-open` fires then, and a property `onOpen`
 * would clash with the React wrapper's `onOpen`, the listener of `link-open`. No `@fires` here: see the tables.
 *
 * @summary Connects a payroll account through the hosted Link flow.
 * @tag payroll-link
 *
 * @slot - The button's label. Default: "Connect payroll" (in Spanish pages, "Conectar nómina"; see `strings`).
 *
 * @csspart button - The trigger `<button>`.
 * @csspart spinner - The loading indicator inside the button.
 * @csspart error - The message shown when a session could not start or ended in an error.
 * @csspart inline - Inline: the box the flow shows in (its `frame` and `loading` parts are exported too).
 *
 * @cssprop --payroll-link-button-background - Button background. Default #1d4ed8.
 * @cssprop --payroll-link-button-color - Button text colour. Default #fff.
 * @cssprop --payroll-link-button-radius - Button corner radius. Default 999px.
 * @cssprop --payroll-link-button-padding - Button padding. Default 0.7em 1.3em.
 * @cssprop --payroll-link-focus-ring - Focus outline colour. Default #2563eb.
 * @cssprop --payroll-link-error-color - Error message colour. Default #b91c1c.
 * @cssprop --payroll-link-modal-width - Modal width. Default 440px.
 * @cssprop --payroll-link-modal-height - Modal height. Default 680px.
 * @cssprop --payroll-link-modal-radius - Modal corner radius. Default 16px.
 * @cssprop --payroll-link-modal-background - Modal background. Default #fff.
 * @cssprop --payroll-link-backdrop - Backdrop colour behind the modal.
 * @cssprop --payroll-link-muted-color - Colour of the loading text (the modal's, and the inline box's).
 * @cssprop --payroll-link-inline-height - Inline: the flow's height until the Link page reports its own (no layout shift when it starts). Default 640px.
 * @cssprop --payroll-link-inline-min-height - Inline: the least height the flow takes, whatever the Link page reports. Default 360px.
 * @cssprop --payroll-link-inline-max-height - Inline: the most height the flow takes (the Link page scrolls inside beyond it). Default 960px.
 *
 * @example
 * ```html
 * <payroll-link token-url="/api/link-token" link-url="https://link.example.com/link" prefetch></payroll-link>
 * <script type="module">
 *   document.querySelector('payroll-link').onSuccess = ({ accountId, jobId }) => save(accountId, jobId);
 * </script>
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- its fields from the tables: see the interface below
export class PayrollLink extends LitElement {
  static override styles = payrollLinkStyles;

  // The framework typings read the options here (src/frameworks/payroll-link-props.ts), the manifest from the table.
  static override properties = { ...ELEMENT_OPTIONS, _status: { state: true } } as const;

  declare private _status: 'idle' | 'loading' | 'error';

  #session: LinkHandle | null = null;
  /** The token and the Link frame fetched ahead: it follows this element's properties on its own. */
  readonly #prefetch = new LinkPrefetch(this);
  /** Inline, the wait to be seen (see `display`). Here, not in a controller: these bytes load before intent. */
  #startWhenSeen: IntersectionObserver | undefined;
  /**
   * Inline, a session started in this connection (seen, on connect, or by `show()`): nothing more to wait for. An
   * ended one stays on its final screen (or leaves nothing, closed by its user: `data-ended`), and only `show()`
   * starts another.
   */
  #startedInline = false;

  constructor() {
    super();
    // Each option's default, from its row.
    for (const [property, { value }] of Object.entries(ELEMENT_OPTIONS))
      if (value !== undefined) (this as Record<string, unknown>)[property] = value;
    this._status = 'idle';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved (its session ended on removal): inline, it waits to be seen again, after an update.
    if (this.hasUpdated) this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#startWhenSeen?.disconnect();
    this.#startWhenSeen = undefined;
    this.#startedInline = false;
    // Removal mid-flow (SPA navigation, React unmount) ends the session and removes its frame; inline, the frame
    // an ended session left on its final screen goes too.
    this.#session?.close();
    this.#inlineBox()?.replaceChildren();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('open')) {
      if (this.open && !this.#session) void this.#start(false);
      if (!this.open && this.#session) this.close();
    }
  }

  protected override updated(): void {
    if (this.#startWhenSeen || this.#startedInline || this.display !== 'inline' || this.disabled) return;
    // After this update, not inside it: starting sets our properties again.
    // Started by itself, not by its user: the Link page takes no focus (its user may be typing elsewhere).
    if (this.prefetch === 'load') return void this.updateComplete.then(() => this.#start(false, false));
    // Without IntersectionObserver (jsdom; no browser that can show the flow lacks it), nothing says when the
    // element is seen: it waits for show(), so an app's unit test that renders it mints no token.
    if (self.IntersectionObserver)
      (this.#startWhenSeen = new IntersectionObserver(
        (entries) => entries.some((entry) => entry.isIntersecting) && void this.#start(false, false),
        { rootMargin: '100% 0px' },
      )).observe(this);
  }

  /**
   * Opens the Link flow. Resolves when the frame is ready and has its token, or when the session ends before that (see
   * `link-exit`). Calling it again while a session runs returns the same session: one token fetch, one frame. Works on
   * a hidden element too (your own button): the modal opens in `<body>`. Inline, it starts the session at once, whether
   * or not the element was seen; once a session has ended, a new one takes the place of its final screen. Inline, the
   * flow takes focus only when the user is opening it now (called from a click or key press, no text field holding
   * focus): called by a script on its own, it leaves focus where it is, as a flow started on scroll does.
   */
  show(): Promise<void> {
    return this.#start(false);
  }

  /** Ends the running session (`reason: 'closed_by_host'`), if any. */
  close(): void {
    this.#session?.close();
  }

  /**
   * Asks the running flow to close, as Escape and the close control do: it ends (`reason: 'user_closed'`), or
   * first asks its user while a job runs, and goes on if they stay. A flow that does not answer in time is ended
   * (`closed_by_host`). `close()` ends at once.
   */
  requestClose(): void {
    this.#session?.requestClose();
  }

  /**
   * Starts a session, or returns the running one. `fromButton`: focus goes back to our button afterwards.
   * `takeFocus`: whether its user opened it, so that the Link page may take focus (inline; the modal always does):
   * false when it starts by itself, unknown for `show()` (the session asks the page then: see `userGaveFocus`).
   */
  #start(fromButton: boolean, takeFocus?: boolean): Promise<void> {
    if (this.#session) return this.#session.ready;
    // A detached element opens nothing (removal is what ends its sessions); a disabled one must not open.
    if (this.disabled || !this.isConnected) {
      this.open = false;
      return Promise.resolve();
    }
    const box = this.display === 'inline' ? this.#inlineBox() : null;
    if (box) {
      this.#startWhenSeen?.disconnect();
      this.#startWhenSeen = undefined;
      this.#startedInline = true;
      // The last session's final screen, if any, gives way to the new one.
      box.replaceChildren();
    } else if (this.display === 'inline') {
      // Not rendered as inline yet (`open` in the markup, `display` just set): once it is.
      return this.updateComplete.then(() => this.#start(fromButton, takeFocus));
    }
    // The theme, the modal's place and the focus target first: once `open` is set and the token taken, only the session runs, which
    // never throws (what fails ends the session through onError and onExit), so nothing can leave us spinning.
    const theme = themeSheet(this);
    // Started from the page's own control (show()), focus goes back there, not to our button. Inline, to this
    // element, when the frame goes with focus in it (nothing else took focus: see `returnFocusTo`).
    const returnFocusTo = box ? this : fromButton ? this.renderRoot.querySelector<HTMLElement>('.button') : undefined;
    // The token and the frame prefetched, if they are for this source, Link URL and place: the click then only shows the frame.
    const { token: taken, link: prepared } = this.#prefetch.take(box ?? undefined);
    this._status = 'loading';
    this.open = true;
    const session: LinkHandle = prepared.open({
      ...this.#prefetch.source(),
      token: taken?.token,
      cancelToken: taken?.cancel,
      // Our custom properties go with the modal to its own container (why its own: the class's doc block).
      theme,
      returnFocusTo,
      takeFocus,
      // The options `openLink()` takes too (`session` in their rows: `colorScheme`, `onOpenUrl`).
      ...sessionOptions(this),
      // Each event relays only while its session is the running one (but link-open and link-exit, below).
      ...relayEvents(this, () => this.#session === session),
      onOpen: (detail) => {
        this._status = 'idle';
        emit(this, 'link-open', detail);
      },
      onExit: (detail) => {
        taken?.cancel();
        this.#session = null;
        this.open = false;
        this._status = detail.reason === 'error' ? 'error' : 'idle';
        // Focus came back to our button while `open` was still true, so its focusin fetched nothing. A user who
        // closed the flow before its end often opens it again: fetch that token ahead now. Not when the page
        // closed it (closed_by_host: no sign the user comes back), nor after a completed session (its user is
        // done), since each token minted costs the backend a call to the service; nor after an error (the
        // endpoint may be failing; the next click fetches and reports anyway).
        if (detail.reason === 'user_closed') this.#prefetch.prefetch();
        emit(this, 'link-exit', detail);
        this.onExit?.(detail);
      },
    });
    this.#session = session;
    return session.ready;
  }

  /** Inline: the box in our shadow root the flow shows in (rendered once `display` is `'inline'`). */
  #inlineBox(): HTMLElement | null | undefined {
    return this.renderRoot?.querySelector<HTMLElement>('.inline');
  }

  #onClick = () => {
    void this.#start(true, true);
  };

  protected override render() {
    const loading = this._status === 'loading';
    const words = widgetStrings(languageOf(this), this.strings);
    const error = this._status === 'error' ? html`<p part="error" class="error" role="alert">${words.error}</p>` : nothing;
    if (this.display === 'inline')
      return html`<div part="inline" class="inline" ?data-ended=${this.#startedInline && !this.#session}></div>${error}`;
    // Named, not hidden: it still says "loading" where it does not turn (reduced motion) or shows no arc (forced colours).
    const spinner = loading ? html`<span part="spinner" class="spinner" role="img" aria-label=${words.loading}></span>` : nothing;
    // No whitespace between the tags: it would be text nodes, loaded before intent and rendered as nothing.
    return html`<button part="button" class="button" type="button" ?disabled=${this.disabled} aria-busy=${String(loading)} @click=${this.#onClick}>${spinner}<slot>${words.connect}</slot></button>${error}`;
  }
}

// Its typed fields, each described by its row: one per option, and a callback property per event (read when it fires).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- types only: Lit makes the options' accessors
export interface PayrollLink extends OptionValues, CallbackProperties {}

/** `LinkCallbacks` as properties of the element (each set or `undefined`), but `onOpen`. */
type CallbackProperties = { [K in keyof LinkCallbacks as K extends 'onOpen' ? never : K]-?: LinkCallbacks[K] | undefined };

/** The element's options that `openLink()` takes too, as they are now. */
function sessionOptions(element: PayrollLink): Pick<OptionValues, SessionOptionName> {
  const options: Record<string, unknown> = {};
  for (const [property, row] of Object.entries(ELEMENT_OPTIONS))
    if ('session' in row) options[property] = element[property as SessionOptionName];
  return options as Pick<OptionValues, SessionOptionName>;
}

declare global {
  interface HTMLElementTagNameMap {
    'payroll-link': PayrollLink;
  }
}

// Guarded: a second copy of the package on the page must not throw, and server-side rendering has no registry.
if (typeof customElements !== 'undefined' && !customElements.get('payroll-link')) {
  customElements.define('payroll-link', PayrollLink);
}
