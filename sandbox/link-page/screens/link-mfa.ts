import { html, nothing } from 'lit';
import { LinkScreen } from './link-screen.js';

/**
 * Asks for the one-time code the payroll provider sent (in the sandbox, the
 * code is `mfa_code`).
 *
 * @summary One-time code screen of the Link flow.
 */
export class LinkMfa extends LinkScreen {
  static override properties = {
    sandbox: { attribute: false },
    busy: { attribute: false },
    canGoBack: { attribute: false },
    error: { attribute: false },
    _code: { state: true },
    _missing: { state: true },
  };

  /** Shows the sandbox's test code. */
  declare sandbox: boolean;
  /** A verification call is in flight. */
  declare busy: boolean;
  /** False in a reconnect session: the account fixes the platform, so there is no search to go back to. */
  declare canGoBack: boolean;
  /** Why the last code was refused. */
  declare error: string | null;
  declare _code: string;
  /** Set when the form was sent empty. */
  declare _missing: string | null;
  /** Called with the code the user typed. */
  onVerify: (code: string) => void = () => {};
  /** Called when the user goes back to the search. */
  onBack: () => void = () => {};

  constructor() {
    super();
    this.sandbox = false;
    this.busy = false;
    this.canGoBack = true;
    this.error = null;
    this._code = '';
    this._missing = null;
  }

  #onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    if (this.busy) return;
    const code = this._code.trim();
    this._missing = code ? null : this.strings.missingCode;
    if (code) this.onVerify(code);
  }

  override render() {
    const t = this.strings;
    const message = this._missing ?? this.error;
    return html`
      ${this.canGoBack ? html`<button type="button" class="link-button" @click=${() => this.onBack()}>${t.backToSearch}</button>` : nothing}
      <h1 tabindex="-1">${t.mfaHeading}</h1>
      <p class="lead">${t.mfaLead}</p>
      <form @submit=${this.#onSubmit} novalidate>
        <p id="mfa-error" class="form-error" role="alert">${message ?? ''}</p>
        <div>
          <label for="code">${t.mfaLabel}</label>
          <input
            id="code"
            type="text"
            autocomplete="one-time-code"
            autocapitalize="none"
            spellcheck="false"
            required
            maxlength="50"
            aria-invalid=${message !== null}
            aria-describedby="mfa-error code-hint"
            .value=${this._code}
            @input=${(e: InputEvent) => (this._code = (e.target as HTMLInputElement).value)}
          />
          ${this.sandbox ? html`<p id="code-hint" class="hint">${t.mfaSandboxHint}<code>mfa_code</code>.</p>` : html`<span id="code-hint"></span>`}
        </div>
        <button type="submit" class="primary" aria-disabled=${this.busy}>${this.busy ? t.checking : t.verify}</button>
      </form>
    `;
  }
}

if (!customElements.get('link-mfa')) customElements.define('link-mfa', LinkMfa);

declare global {
  interface HTMLElementTagNameMap {
    'link-mfa': LinkMfa;
  }
}
