/**
 * Entry of the sandbox's hosted Link page: the sandbox server bundles this
 * file with esbuild into `/link/app.js`. It defines `<link-app>` and the
 * screens it renders.
 */
import { LitElement, html, type TemplateResult } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { LinkError } from '../../src/protocol.js';
import { linkAppStyles, linkDocumentStyles } from './link-app.styles.js';
import { LinkFlow, type LinkScreenName } from './link-flow.js';
import './link-allocation.js';
import './link-intro.js';
import './link-login.js';
import './link-mfa.js';
import './link-result.js';
import './link-running.js';
import './link-search.js';

/** Headings of the terminal error screen, by error type: say what failed, not how. */
const ERROR_HEADINGS: Partial<Record<LinkError['type'], string>> = {
  platformError: 'Your payroll provider could not finish',
  networkError: 'We could not reach the service',
};

/** Screens without a close control: nothing to close yet, or already closed. */
const NO_CLOSE: ReadonlySet<LinkScreenName> = new Set(['waiting', 'standalone', 'closed']);

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

  #renderScreen(): TemplateResult {
    const flow = this.#flow;
    const session = flow.session;
    const providerName = flow.provider?.name ?? null;
    const sandbox = session?.mode === 'sandbox';
    const depositSwitch = flow.job === 'direct_deposit_switch';
    switch (flow.screen) {
      case 'waiting':
        return html`<link-result .heading=${'Getting ready'} .message=${'Starting your secure session…'}></link-result>`;
      case 'standalone':
        return html`<link-result
          .heading=${'Open this page from the app'}
          .message=${'This is the Payroll Link flow. It runs inside the app that asked you to connect your payroll account, which starts it for you. Go back to that app and start again there.'}
        ></link-result>`;
      case 'intro':
        return html`<link-intro
          .orgName=${session?.org_name ?? ''}
          .depositSwitch=${session?.jobs.includes('direct_deposit_switch') ?? false}
          .onContinue=${() => flow.begin()}
        ></link-intro>`;
      case 'search':
        return html`<link-search .api=${flow.api} .onPick=${flow.pick.bind(flow)}></link-search>`;
      case 'login':
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
        return html`<link-running .heading=${depositSwitch ? 'Switching your direct deposit' : 'Syncing your account'}></link-running>`;
      case 'success':
        return html`<link-result
          .tone=${'success'}
          .heading=${depositSwitch ? 'Your direct deposit is switched' : 'Your account is connected'}
          .message=${depositSwitch
            ? `Your paychecks${providerName ? ` from ${providerName}` : ''} will go to the new account from the next pay date.`
            : `${session?.org_name ?? 'The app'} can now see your payroll data.`}
          .action=${'Done'}
          .onAction=${() => flow.close()}
        ></link-result>`;
      case 'error':
        return html`<link-result
          .tone=${'error'}
          .heading=${(flow.error && ERROR_HEADINGS[flow.error.type]) ?? 'Something went wrong'}
          .message=${flow.error?.message ?? ''}
          .detail=${flow.error ? `Error code: ${flow.error.code}` : null}
          .action=${'Close'}
          .onAction=${() => flow.close()}
        ></link-result>`;
      case 'invalid_token':
        return html`<link-result
          .tone=${'error'}
          .heading=${'This link is no longer valid'}
          .message=${'It may have been used already, or it has expired. Close this window and start again from the app.'}
          .detail=${flow.error ? `Error code: ${flow.error.code}` : null}
          .action=${'Close'}
          .onAction=${() => flow.close()}
        ></link-result>`;
      case 'closed':
        return html`<link-result .heading=${'Session ended'} .message=${'You can close this window.'}></link-result>`;
    }
  }

  override render() {
    const closable = !NO_CLOSE.has(this.#flow.screen) && !this.#flow.hostCloseControl;
    return html`
      <header class=${this.#flow.hostCloseControl ? 'host-close' : ''}>
        <span class="brand">Payroll Link</span>
        <span class="badge">Sandbox</span>
        ${closable ? html`<button type="button" class="close" aria-label="Close Payroll Link" @click=${() => this.#flow.close()}>×</button>` : null}
      </header>
      <main>${keyed(this.#flow.screen, this.#renderScreen())}</main>
      <footer>Test mode: no real payroll account is changed.</footer>
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
