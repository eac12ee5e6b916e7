/**
 * Entry of the sandbox's hosted Link page: the sandbox server bundles this
 * file with esbuild into `/link/app.js`. It defines `<link-app>` and the
 * screens it renders.
 */
import { LitElement, html, type TemplateResult } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { linkAppStyles, linkDocumentStyles } from './link-app.styles.js';
import { LinkFlow, SILENT_SCREENS } from './link-flow.js';
import '../screens/link-allocation.js';
import '../screens/link-intro.js';
import '../screens/link-login.js';
import '../screens/link-mfa.js';
import '../screens/link-oauth.js';
import '../screens/link-result.js';
import '../screens/link-running.js';
import '../screens/link-search.js';
import { pageStrings, setPageLanguage } from './link-strings.js';

/**
 * The hosted Link page: a header with a close control, and the current screen
 * of the {@link LinkFlow}, which owns the state, the API calls and the Link
 * events. Each screen is keyed by name, so a new screen is a new element and
 * moves focus to its own heading.
 *
 * @summary The sandbox's hosted Link flow.
 * @tag link-app
 */
export class LinkApp extends LitElement {
  static override styles = linkAppStyles;

  readonly #flow = new LinkFlow(this);
  #tokenLanguageApplied = false;
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

  override updated(): void {
    this.#reportHeight();
  }

  #reportHeight(): void {
    this.#flow.reportHeight(this.getBoundingClientRect().height);
  }

  override willUpdate(): void {
    // Inline, the page is as tall as its content (the widget sizes the frame to it), not the frame's viewport.
    this.toggleAttribute('inline', this.#flow.inline);
    // The colour mode the widget asked for: the palette (on this host) and the document's own background and controls.
    const scheme = this.#flow.colorScheme;
    this.dataset.colorScheme = scheme;
    document.documentElement.dataset.colorScheme = scheme;
    // The Link token's language, where the integrator's backend set one, wins over the embedding page's (see link-strings.ts).
    const tokenLanguage = this.#flow.session?.language ?? null;
    if (tokenLanguage !== null && !this.#tokenLanguageApplied) {
      this.#tokenLanguageApplied = true;
      setPageLanguage(tokenLanguage);
    }
  }

  #renderScreen(): TemplateResult {
    const t = pageStrings();
    const flow = this.#flow;
    const session = flow.session;
    const providerName = flow.provider?.name ?? null;
    const sandbox = session?.mode === 'sandbox';
    const depositSwitch = flow.job === 'direct_deposit_switch';
    switch (flow.screen) {
      case 'waiting':
        return html`<link-result .heading=${t.waitingHeading} .message=${t.waitingMessage}></link-result>`;
      case 'standalone':
        return html`<link-result .heading=${t.standaloneHeading} .message=${t.standaloneMessage}></link-result>`;
      case 'intro':
        return html`<link-intro
          .orgName=${session?.org_name ?? ''}
          .depositSwitch=${session?.jobs.includes('direct_deposit_switch') ?? false}
          .onContinue=${() => flow.begin()}
        ></link-intro>`;
      case 'search':
        return html`<link-search .api=${flow.api} .onPick=${flow.pick.bind(flow)}></link-search>`;
      case 'login':
        if (flow.oauth) {
          return html`<link-oauth
            .providerName=${providerName}
            .busy=${flow.busy}
            .error=${flow.formError}
            .window=${flow.oauthWindow}
            .onLogIn=${() => void flow.logInWithOAuth()}
            .canGoBack=${flow.canSearch}
            .onBack=${() => flow.back()}
          ></link-oauth>`;
        }
        return html`<link-login
          .providerName=${providerName}
          .sandbox=${sandbox}
          .busy=${flow.busy}
          .error=${flow.formError}
          .onLogIn=${flow.logIn.bind(flow)}
          .canGoBack=${flow.canSearch}
          .onBack=${() => flow.back()}
        ></link-login>`;
      case 'mfa':
        return html`<link-mfa
          .sandbox=${sandbox}
          .busy=${flow.busy}
          .error=${flow.formError}
          .onVerify=${flow.verify.bind(flow)}
          .canGoBack=${flow.canSearch}
          .onBack=${() => flow.back()}
        ></link-mfa>`;
      case 'allocation':
        return html`<link-allocation
          .providerName=${providerName}
          .allowPercentage=${flow.percentageAllowed}
          .busy=${flow.busy}
          .onAllocate=${flow.allocate.bind(flow)}
        ></link-allocation>`;
      case 'running':
        return html`<link-running
          .heading=${depositSwitch ? t.runningSwitch : t.runningSync}
          .leaveQuestion=${flow.confirmingClose ? t.leaveQuestion(depositSwitch) : null}
          .onLeave=${() => flow.leave()}
          .onStay=${() => flow.stay()}
        ></link-running>`;
      case 'success':
        return html`<link-result
          .tone=${'success'}
          .heading=${depositSwitch ? t.successSwitchHeading : t.successConnectHeading}
          .message=${depositSwitch ? t.successSwitchMessage(providerName) : t.successConnectMessage(session?.org_name ?? null)}
          .action=${flow.exited ? null : t.done}
          .onAction=${() => flow.close()}
        ></link-result>`;
      case 'error':
        return html`<link-result
          .tone=${'error'}
          .heading=${(flow.error && t.errorHeadings[flow.error.type]) ?? t.errorHeading}
          .message=${t.errorMessage(flow.error)}
          .detail=${flow.error ? t.errorCode(flow.error.code) : null}
          .action=${flow.exited ? null : t.close}
          .onAction=${() => flow.close()}
        ></link-result>`;
      case 'invalid_token':
        return html`<link-result
          .tone=${'error'}
          .heading=${t.invalidTokenHeading}
          .message=${t.invalidTokenMessage}
          .detail=${flow.error ? t.errorCode(flow.error.code) : null}
          .action=${flow.exited ? null : t.close}
          .onAction=${() => flow.close()}
        ></link-result>`;
      case 'closed':
        return html`<link-result .heading=${t.closedHeading} .message=${t.closedMessage}></link-result>`;
    }
  }

  override render() {
    const t = pageStrings();
    // Not after the exit either: an inline frame stays on its final screen, with nothing left to press.
    const closable = !SILENT_SCREENS.has(this.#flow.screen) && !this.#flow.hostCloseControl && !this.#flow.exited;
    return html`
      <header class=${this.#flow.hostCloseControl ? 'host-close' : ''}>
        <span class="brand">${t.brand}</span>
        <span class="badge">${t.sandboxBadge}</span>
        ${closable ? html`<button type="button" class="close" aria-label=${t.closeLabel} @click=${() => this.#flow.close()}>×</button>` : null}
      </header>
      <main>${keyed(this.#flow.screen, this.#renderScreen())}</main>
      <footer>${t.footer}</footer>
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
