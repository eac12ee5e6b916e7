import { css, html } from 'lit';
import { LinkScreen } from './link-screen.js';

/** The mood of a {@link LinkResult}: it picks the icon and its colour. */
export type ResultTone = 'success' | 'error' | 'info';

const ICONS: Record<ResultTone, string> = { success: '✓', error: '!', info: 'i' };

/**
 * A screen that states an outcome: success, a failed job, a refused token, a
 * page opened outside the widget. It has one optional action button.
 *
 * @summary Outcome screen of the Link flow.
 */
export class LinkResult extends LinkScreen {
  static override styles = [
    LinkScreen.styles,
    css`
      :host {
        text-align: center;
        padding-top: 1.5rem;
      }
      .icon {
        display: inline-grid;
        place-items: center;
        width: 3.5rem;
        height: 3.5rem;
        border-radius: 50%;
        font-size: 1.6rem;
        font-weight: 700;
        margin-bottom: 1rem;
      }
      .success {
        background: var(--link-success-bg);
        color: var(--link-success);
      }
      .error {
        background: var(--link-danger-bg);
        color: var(--link-danger);
      }
      .info {
        background: var(--link-accent-soft);
        color: var(--link-accent);
      }
      .detail {
        font-size: 0.85rem;
        color: var(--link-muted);
      }
    `,
  ];

  static override properties = {
    tone: { attribute: false },
    heading: { attribute: false },
    message: { attribute: false },
    detail: { attribute: false },
    action: { attribute: false },
  };

  /** Picks the icon. */
  declare tone: ResultTone;
  /** The screen's `<h1>`. */
  declare heading: string;
  /** What happened, in plain words. */
  declare message: string;
  /** A technical detail such as an error code, shown small; null for none. */
  declare detail: string | null;
  /** The action button's label; null for no button. */
  declare action: string | null;
  /** Called when the action button is pressed. */
  onAction: () => void = () => {};

  constructor() {
    super();
    this.tone = 'info';
    this.heading = '';
    this.message = '';
    this.detail = null;
    this.action = null;
  }

  override render() {
    return html`
      <div class="icon ${this.tone}" aria-hidden="true">${ICONS[this.tone]}</div>
      <h1 tabindex="-1">${this.heading}</h1>
      <p class="lead">${this.message}</p>
      ${this.detail ? html`<p class="detail">${this.detail}</p>` : null}
      ${this.action ? html`<button type="button" class="primary" @click=${() => this.onAction()}>${this.action}</button>` : null}
    `;
  }
}

if (!customElements.get('link-result')) customElements.define('link-result', LinkResult);

declare global {
  interface HTMLElementTagNameMap {
    'link-result': LinkResult;
  }
}
