/**
 * Entry of the sandbox's hosted Link page: the sandbox server bundles this
 * file with esbuild into `/link/app.js`. It defines `<link-app>` and the
 * screens it renders.
 */
import { LitElement, html, type PropertyValues, type TemplateResult } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { linkAppStyles, linkDocumentStyles } from './link-app.styles.js';
import { LinkFlow } from './link-flow.js';
import { SILENT_SCREENS } from './link-flow-screen.js';
import '../screens/link-allocation.js';
import '../screens/link-intro.js';
import '../screens/link-login.js';
import '../screens/link-mfa.js';
import '../screens/link-oauth.js';
import '../screens/link-result.js';
import '../screens/link-running.js';
import '../screens/link-search.js';
import type { LinkScreen } from '../screens/link-screen.js';
import { pageStrings, setPageLanguage } from './link-strings.js';

/**
 * The hosted Link page: a header with a close control, and the current screen
 * of the {@link LinkFlow}, which owns the state, the API calls and the Link
 * events. Each screen is keyed by name, so a new screen is a new element and
 * moves focus to its own heading, when the flow may take focus (link-focus.ts).
 * When the header's close control goes while it has focus (the session
 * exited, inline), focus moves to the screen (see `LinkScreen.focusFallback`).
 *
 * Landmarks: as a page of its own, one `main`, with a banner and a footer. In a
 * frame, the host page has its own: the whole app is one region (this element),
 * named by the page's title, and its parts are plain containers, so nothing
 * duplicates the host page's landmarks.
 *
 * @summary The sandbox's hosted Link flow.
 * @tag link-app
 */
export class LinkApp extends LitElement {
  static override styles = linkAppStyles;

  readonly #flow = new LinkFlow(this);
  #tokenLanguageApplied = false;
  #focusWasInside = false;
  /** Inside a frame (the widget's), not a page of its own: decides the landmarks (see the class comment). */
  readonly #framed = window.top !== window;
  /** The content's height goes to the widget on every change of screen or size (an inline frame follows it). */
  readonly #sizer = new ResizeObserver(() => this.#reportHeight());

  override connectedCallback(): void {
    super.connectedCallback();
    this.#sizer.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#sizer.disconnect();
  }

  override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    this.#reportHeight();
    if (this.#focusWasInside && this.shadowRoot?.activeElement == null) void this.#focusScreen();
  }

  /** Once the screen has rendered (a new one may take focus itself), focus to it, if nothing has focus yet. */
  async #focusScreen(): Promise<void> {
    const screen = this.shadowRoot?.querySelector<LinkScreen>('.screen > *');
    await screen?.updateComplete;
    if (this.shadowRoot?.activeElement == null) screen?.focusFallback();
  }

  #reportHeight(): void {
    this.#flow.reportHeight(this.getBoundingClientRect().height);
  }

  override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    this.#focusWasInside = this.shadowRoot?.activeElement != null;
    const { colorScheme } = this.#flow.frame;
    // Inline, the page is as tall as its content (the widget sizes the frame to it), not the frame's viewport.
    this.toggleAttribute('inline', this.#flow.inline);
    // The colour mode the widget asked for: the palette (on this host) and the document's own background and controls.
    this.dataset.colorScheme = colorScheme;
    document.documentElement.dataset.colorScheme = colorScheme;
    // The Link token's language, where the integrator's backend set one, wins over the embedding page's (see link-strings.ts).
    const tokenLanguage = this.#flow.session?.language ?? null;
    if (tokenLanguage !== null && !this.#tokenLanguageApplied) {
      this.#tokenLanguageApplied = true;
      setPageLanguage(tokenLanguage);
    }
    if (this.#framed) {
      this.setAttribute('role', 'region');
      this.setAttribute('aria-label', pageStrings().documentTitle);
    }
  }

  #renderScreen(): TemplateResult {
    const t = pageStrings();
    const flow = this.#flow;
    const screen = flow.screen;
    switch (screen.name) {
      case 'waiting':
        return html`<link-result .heading=${t.waitingHeading} .message=${t.waitingMessage}></link-result>`;
      case 'standalone':
        return html`<link-result .heading=${t.standaloneHeading} .message=${t.standaloneMessage}></link-result>`;
      case 'intro': {
        const { session } = screen.started;
        return html`<link-intro
          .orgName=${session.org_name}
          .depositSwitch=${session.jobs.includes('direct_deposit_switch')}
          .onContinue=${() => flow.begin()}
        ></link-intro>`;
      }
      case 'search':
        return html`<link-search .api=${screen.started.api} .onPick=${flow.pick.bind(flow)}></link-search>`;
      case 'login':
        if (flow.oauth) {
          return html`<link-oauth
            .providerName=${screen.provider.name}
            .busy=${screen.busy}
            .error=${screen.formError && t[screen.formError]}
            .window=${screen.oauthWindow}
            .onLogIn=${() => flow.logInWithOAuth()}
            .onKeepWaiting=${() => flow.keepWaiting()}
            .onTryAgain=${() => flow.tryAgain()}
            .canGoBack=${flow.canSearch}
            .onBack=${() => flow.back()}
          ></link-oauth>`;
        }
        return html`<link-login
          .providerName=${screen.provider.name}
          .sandbox=${screen.started.session.mode === 'sandbox'}
          .busy=${screen.busy}
          .error=${screen.formError && t[screen.formError]}
          .onLogIn=${flow.logIn.bind(flow)}
          .canGoBack=${flow.canSearch}
          .onBack=${() => flow.back()}
        ></link-login>`;
      case 'mfa':
        return html`<link-mfa
          .sandbox=${screen.started.session.mode === 'sandbox'}
          .busy=${screen.busy}
          .error=${screen.formError && t[screen.formError]}
          .onVerify=${flow.verify.bind(flow)}
          .canGoBack=${flow.canSearch}
          .onBack=${() => flow.back()}
        ></link-mfa>`;
      case 'allocation':
        return html`<link-allocation
          .providerName=${screen.provider.name}
          .allowPercentage=${screen.connected.percentageAllowed}
          .busy=${screen.busy}
          .onAllocate=${flow.allocate.bind(flow)}
        ></link-allocation>`;
      case 'running': {
        const depositSwitch = screen.connected.job === 'direct_deposit_switch';
        return html`<link-running
          .heading=${depositSwitch ? t.runningSwitch : t.runningSync}
          .leaveQuestion=${screen.confirmingClose ? t.leaveQuestion(depositSwitch) : null}
          .waitLimit=${screen.wait.limit}
          .onKeepWaiting=${() => flow.keepWaiting()}
          .onLeave=${() => flow.leave()}
          .onStay=${() => flow.stay()}
        ></link-running>`;
      }
      case 'success': {
        const depositSwitch = screen.connected.job === 'direct_deposit_switch';
        return html`<link-result
          .tone=${'success'}
          .heading=${depositSwitch ? t.successSwitchHeading : t.successConnectHeading}
          .message=${depositSwitch ? t.successSwitchMessage(screen.provider.name) : t.successConnectMessage(screen.started.session.org_name)}
          .action=${screen.exited ? null : t.done}
          .onAction=${() => flow.close()}
        ></link-result>`;
      }
      case 'error':
        return html`<link-result
          .tone=${'error'}
          .heading=${t.errorHeadings[screen.error.type] ?? t.errorHeading}
          .message=${t.errorMessage(screen.error)}
          .detail=${t.errorCode(screen.error.code)}
          .action=${screen.exited ? null : t.close}
          .onAction=${() => flow.close()}
        ></link-result>`;
      case 'invalid_token':
        return html`<link-result
          .tone=${'error'}
          .heading=${t.invalidTokenHeading}
          .message=${t.invalidTokenMessage}
          .detail=${t.errorCode(screen.error.code)}
          .action=${screen.exited ? null : t.close}
          .onAction=${() => flow.close()}
        ></link-result>`;
      case 'closed':
        return html`<link-result .heading=${t.closedHeading} .message=${t.closedMessage}></link-result>`;
    }
  }

  override render() {
    const t = pageStrings();
    const { hostCloseControl } = this.#flow.frame;
    const { screen } = this.#flow;
    // Not after the exit either: an inline frame stays on its final screen, with nothing left to press.
    const closable = !SILENT_SCREENS.has(screen.name) && !hostCloseControl && !this.#flow.exited;
    // The leave question is an alert dialog: nothing else in the page is reachable while it asks.
    const asking = screen.name === 'running' && screen.confirmingClose;
    const head = html`
      <span class="brand">${t.brand}</span>
      <span class="badge">${t.sandboxBadge}</span>
      ${closable ? html`<button type="button" class="close" aria-label=${t.closeLabel} @click=${() => this.#flow.close()}>×</button>` : null}
    `;
    const headClass = `header${hostCloseControl ? ' host-close' : ''}`;
    const content = keyed(screen.name, this.#renderScreen());
    if (this.#framed) {
      return html`
        <div class=${headClass} ?inert=${asking}>${head}</div>
        <div class="screen">${content}</div>
        <div class="footer" ?inert=${asking}>${t.footer}</div>
      `;
    }
    return html`
      <header class=${headClass} ?inert=${asking}>${head}</header>
      <main class="screen">${content}</main>
      <footer class="footer" ?inert=${asking}>${t.footer}</footer>
    `;
  }
}

if (!customElements.get('link-app')) customElements.define('link-app', LinkApp);

// The document's own margins, through a constructed sheet: the CSP allows no inline style.
const documentSheet = linkDocumentStyles.styleSheet;
if (documentSheet && !document.adoptedStyleSheets.includes(documentSheet)) {
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, documentSheet];
}

declare global {
  interface HTMLElementTagNameMap {
    'link-app': LinkApp;
  }
}
