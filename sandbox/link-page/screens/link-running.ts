import { css, html, nothing, type PropertyValues } from 'lit';
import { LinkScreen } from './link-screen.js';

/**
 * Shown while the job runs on the payroll platform. The page polls the job;
 * this screen only says so, with a spinner that stands still for users who
 * ask for reduced motion. A user who closes meanwhile is asked first
 * (`leaveQuestion`): leave, or stay while the job goes on.
 *
 * @summary Job-in-progress screen of the Link flow.
 */
export class LinkRunning extends LinkScreen {
  static override styles = [
    LinkScreen.styles,
    css`
      :host {
        text-align: center;
        padding-top: 2rem;
      }
      .spinner {
        width: 3rem;
        height: 3rem;
        margin: 0 auto 1.25rem;
        border-radius: 50%;
        border: 4px solid var(--link-accent-soft);
        border-top-color: var(--link-accent);
        animation: spin 0.9s linear infinite;
      }
      @keyframes spin {
        to {
          transform: rotate(360deg);
        }
      }
      .confirm {
        margin-top: 1.5rem;
        display: flex;
        gap: 0.75rem;
        justify-content: center;
      }
      @media (prefers-reduced-motion: reduce) {
        .spinner {
          animation: none;
        }
      }
    `,
  ];

  static override properties = {
    heading: { attribute: false },
    leaveQuestion: { attribute: false },
  };

  /** What is happening, e.g. "Switching your direct deposit"; null for a general "Working on it". */
  declare heading: string | null;
  /** The question asked when the user closes while the job runs; null when nobody asked to leave. */
  declare leaveQuestion: string | null;
  /** The user leaves anyway. */
  onLeave: () => void = () => {};
  /** The user stays while the job goes on. */
  onStay: () => void = () => {};

  constructor() {
    super();
    this.heading = null;
    this.leaveQuestion = null;
  }

  protected override updated(changed: PropertyValues<this>): void {
    // The question takes focus when it appears, on the safe answer: staying.
    if (changed.has('leaveQuestion') && this.leaveQuestion) this.renderRoot.querySelector<HTMLElement>('.stay')?.focus();
  }

  override render() {
    return html`
      <div class="spinner" aria-hidden="true"></div>
      <h1 tabindex="-1">${this.heading ?? this.strings.runningDefault}</h1>
      <p class="lead" role="status">${this.strings.runningStatus}</p>
      ${
        this.leaveQuestion
          ? html`<section role="alertdialog" aria-labelledby="leave-question">
            <p id="leave-question">${this.leaveQuestion}</p>
            <div class="confirm">
              <button type="button" class="secondary" @click=${() => this.onLeave()}>${this.strings.leave}</button>
              <button type="button" class="primary stay" @click=${() => this.onStay()}>${this.strings.stay}</button>
            </div>
          </section>`
          : nothing
      }
    `;
  }
}

if (!customElements.get('link-running')) customElements.define('link-running', LinkRunning);

declare global {
  interface HTMLElementTagNameMap {
    'link-running': LinkRunning;
  }
}
