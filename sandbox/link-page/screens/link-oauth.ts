import { css, html, nothing } from 'lit';
import type { OAuthWindow } from '../app/link-flow-screen.js';
import { WAIT_WARNING_MS } from '../app/poll.js';
import { LinkScreen } from './link-screen.js';
import { waitWarning } from './link-wait-warning.js';

/**
 * The login screen of a platform that logs in on its own page, in a new window (the sandbox's OAuth-style
 * platform). Its button asks the widget to open that window; while the user logs in there, it says so. When the
 * browser blocked the widget's popup, it offers "Continue in a new window": that click is a gesture inside this
 * frame, so the page opens the window itself (the widget's frame allows popups for this), with `noopener`.
 * Near the wait's time limit it warns, and offers to keep waiting or to try again in a new window.
 *
 * @summary OAuth-style login screen of the Link flow.
 */
export class LinkOAuth extends LinkScreen {
  static override styles = [
    LinkScreen.styles,
    css`
      .back {
        margin: -0.5rem 0 0.5rem;
      }
    `,
  ];

  static override properties = {
    providerName: { attribute: false },
    busy: { attribute: false },
    canGoBack: { attribute: false },
    error: { attribute: false },
    window: { attribute: false },
  };

  /** The platform's name; null when the Link token preset it. */
  declare providerName: string | null;
  /** The login page's URL is being asked for. */
  declare busy: boolean;
  /** False in a reconnect session: no search to go back to. */
  declare canGoBack: boolean;
  /** Why the last attempt failed. */
  declare error: string | null;
  /** The login window, once asked for: its URL, whether the browser blocked it, and the wait for the login there. */
  declare window: OAuthWindow | null;
  /** Called when the user asks to log in. */
  onLogIn: () => void = () => {};
  /** Warned of the wait's limit, the user waits another full period. */
  onKeepWaiting: () => void = () => {};
  /** Warned of the wait's limit, the user logs in again, in a new window. */
  onTryAgain: () => void = () => {};
  /** Called when the user goes back to the search. */
  onBack: () => void = () => {};

  constructor() {
    super();
    this.providerName = null;
    this.busy = false;
    this.canGoBack = true;
    this.error = null;
    this.window = null;
  }

  /** Opens the window from this click, the gesture the browser wants: `noopener`, so it can never reach this page. */
  #continue(): void {
    if (this.window) window.open(this.window.url, '_blank', 'noopener');
  }

  override render() {
    const t = this.strings;
    const opening = this.window;
    return html`
      ${
        this.canGoBack
          ? html`<button type="button" class="link-button back" aria-disabled=${this.busy} @click=${() => this.onBack()}>${t.backToSearch}</button>`
          : nothing
      }
      <h1 tabindex="-1">${t.loginHeading(this.providerName)}</h1>
      <p class="lead">${t.oauthLead(this.providerName)}</p>
      <p class="form-error" role="alert">${this.error ?? (opening?.blocked ? t.oauthBlocked : '')}</p>
      ${
        opening === null
          ? html`<button type="button" class="primary" aria-disabled=${this.busy} @click=${() => !this.busy && this.onLogIn()}>
            ${t.oauthLogIn(this.providerName)}
          </button>`
          : opening.blocked
            ? html`<button type="button" class="primary" @click=${() => this.#continue()}>${t.oauthContinue}</button>`
            : nothing
      }
      ${
        opening
          ? html`<p role="status" tabindex="-1" data-focus-fallback>${t.oauthWaiting}</p>
              ${waitWarning(t, {
                limit: opening.wait.limit,
                near: t.oauthWaitNear(WAIT_WARNING_MS / 60_000),
                passed: t.oauthWaitPassed,
                onKeepWaiting: () => this.onKeepWaiting(),
                onTryAgain: () => this.onTryAgain(),
              })}`
          : nothing
      }
    `;
  }
}

if (!customElements.get('link-oauth')) customElements.define('link-oauth', LinkOAuth);

declare global {
  interface HTMLElementTagNameMap {
    'link-oauth': LinkOAuth;
  }
}
