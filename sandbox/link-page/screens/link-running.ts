import { css, html } from 'lit';
import { LinkScreen } from './link-screen.js';

/**
 * Shown while the job runs on the payroll platform. The page polls the job;
 * this screen only says so, with a spinner that stands still for users who
 * ask for reduced motion.
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
      @media (prefers-reduced-motion: reduce) {
        .spinner {
          animation: none;
        }
      }
    `,
  ];

  static override properties = {
    heading: { attribute: false },
  };

  /** What is happening, e.g. "Switching your direct deposit"; null for a general "Working on it". */
  declare heading: string | null;

  constructor() {
    super();
    this.heading = null;
  }

  override render() {
    return html`
      <div class="spinner" aria-hidden="true"></div>
      <h1 tabindex="-1">${this.heading ?? this.strings.runningDefault}</h1>
      <p class="lead" role="status">${this.strings.runningStatus}</p>
    `;
  }
}

if (!customElements.get('link-running')) customElements.define('link-running', LinkRunning);

declare global {
  interface HTMLElementTagNameMap {
    'link-running': LinkRunning;
  }
}
