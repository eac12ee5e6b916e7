import { css, html, nothing } from 'lit';
import type { Credentials } from '../app/link-flow-screen.js';
import { LinkScreen } from './link-screen.js';
import { SANDBOX_PASSWORD, SANDBOX_USERNAMES } from '../../state/sandbox-users.js';

/**
 * The login form for the chosen payroll provider. In sandbox mode it also
 * shows the test credentials, each with a button that fills the form.
 *
 * @summary Login screen of the Link flow.
 */
export class LinkLogin extends LinkScreen {
  static override styles = [
    LinkScreen.styles,
    css`
      .back {
        margin: -0.5rem 0 0.5rem;
      }
      .panel {
        margin-top: 1.5rem;
        padding: 0.9rem 1rem;
        border: 1px dashed var(--link-border-strong);
        border-radius: 10px;
        background: var(--link-surface);
      }
      .panel ul {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: 0.6rem;
      }
      .panel li {
        display: flex;
        gap: 0.75rem;
        justify-content: space-between;
        align-items: center;
        font-size: 0.88rem;
      }
      .panel p {
        font-size: 0.88rem;
        margin: 0 0 0.6rem;
      }
      .outcome {
        display: block;
        color: var(--link-muted);
      }
      .use {
        flex: none;
        min-height: 36px;
        padding: 0.3rem 0.7rem;
        font-size: 0.85rem;
      }
    `,
  ];

  static override properties = {
    providerName: { attribute: false },
    sandbox: { attribute: false },
    busy: { attribute: false },
    canGoBack: { attribute: false },
    error: { attribute: false },
    _username: { state: true },
    _password: { state: true },
    _missing: { state: true },
  };

  /** The employer or platform's name; null when the Link token preset the platform. */
  declare providerName: string | null;
  /** Shows the sandbox's test credentials. */
  declare sandbox: boolean;
  /** A login call is in flight. */
  declare busy: boolean;
  /** False in a reconnect session: the account fixes the platform, so there is no search to go back to. */
  declare canGoBack: boolean;
  /** Why the last attempt failed, shown above the form. */
  declare error: string | null;
  declare _username: string;
  declare _password: string;
  /** Set when the form was sent with an empty field; checked here so the server only sees complete logins. */
  declare _missing: string | null;
  /** Called with what the user typed. */
  onLogIn: (credentials: Credentials) => void = () => {};
  /** Called when the user goes back to the search. */
  onBack: () => void = () => {};

  constructor() {
    super();
    this.providerName = null;
    this.sandbox = false;
    this.busy = false;
    this.canGoBack = true;
    this.error = null;
    this._username = '';
    this._password = '';
    this._missing = null;
  }

  #onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    if (this.busy) return;
    const username = this._username.trim();
    if (!username || !this._password) {
      this._missing = this.strings.missingCredentials;
      return;
    }
    this._missing = null;
    this.onLogIn({ username, password: this._password });
  }

  #fill(username: string): void {
    this._username = username;
    this._password = SANDBOX_PASSWORD;
    this._missing = null;
    this.renderRoot.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
  }

  override render() {
    const t = this.strings;
    const message = this._missing ?? this.error;
    const invalid = message !== null;
    return html`
      ${
        this.canGoBack
          ? html`<button type="button" class="link-button back" aria-disabled=${this.busy} @click=${() => this.onBack()}>${t.backToSearch}</button>`
          : nothing
      }
      <h1 tabindex="-1">${t.loginHeading(this.providerName)}</h1>
      <p class="lead">${t.loginLead}</p>
      <form @submit=${this.#onSubmit} novalidate>
        <p id="login-error" class="form-error" role="alert">${message ?? ''}</p>
        <div>
          <label for="username">${t.username}</label>
          <input
            id="username"
            type="text"
            autocomplete="username"
            maxlength="200"
            autocapitalize="none"
            spellcheck="false"
            required
            aria-invalid=${invalid}
            aria-describedby="login-error"
            .value=${this._username}
            @input=${(e: InputEvent) => (this._username = (e.target as HTMLInputElement).value)}
          />
        </div>
        <div>
          <label for="password">${t.password}</label>
          <input
            id="password"
            type="password"
            autocomplete="current-password"
            maxlength="200"
            required
            aria-invalid=${invalid}
            aria-describedby="login-error"
            .value=${this._password}
            @input=${(e: InputEvent) => (this._password = (e.target as HTMLInputElement).value)}
          />
        </div>
        <button type="submit" class="primary" aria-disabled=${this.busy}>${this.busy ? t.loggingIn : t.logIn}</button>
      </form>
      ${
        this.sandbox
          ? html`<section class="panel" aria-labelledby="sandbox-heading">
            <h2 id="sandbox-heading">${t.sandboxCredentialsHeading}</h2>
            <p>${t.sandboxPassword[0]}<code>${SANDBOX_PASSWORD}</code>${t.sandboxPassword[1]}</p>
            <ul>
              ${SANDBOX_USERNAMES.map(
                (username) => html`<li>
                  <span><code>${username}</code><span class="outcome">${t.sandboxOutcomes[username]}</span></span>
                  <button type="button" class="secondary use" aria-label=${t.useLabel(username)} @click=${() => this.#fill(username)}>
                    ${t.use}
                  </button>
                </li>`,
              )}
            </ul>
          </section>`
          : null
      }
    `;
  }
}

if (!customElements.get('link-login')) customElements.define('link-login', LinkLogin);

declare global {
  interface HTMLElementTagNameMap {
    'link-login': LinkLogin;
  }
}
