import { css, html, nothing, type PropertyValues } from 'lit';
import type { WaitLimit } from '../app/link-flow-screen.js';
import { WAIT_WARNING_MS } from '../app/poll.js';
import { LinkScreen } from './link-screen.js';
import { waitWarning } from './link-wait-warning.js';

/**
 * Shown while the job runs on the payroll platform. The page polls the job;
 * this screen only says so, with a spinner that stands still for users who
 * ask for reduced motion and keeps its turning segment distinct in forced
 * colours. Near the watch's time limit it warns and offers to keep waiting.
 * A user who closes meanwhile is asked first (`leaveQuestion`, an alert
 * dialog): leave, or stay while the job goes on. While it asks, every other
 * control of the page is inert (the heading stays readable), focus starts on
 * Stay, and Escape stays.
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
      /* Forced colours would paint the whole ring one colour, a static circle: system colours keep the segment apart. */
      @media (forced-colors: active) {
        .spinner {
          forced-color-adjust: none;
          border-color: GrayText;
          border-top-color: CanvasText;
        }
      }
    `,
  ];

  static override properties = {
    heading: { attribute: false },
    leaveQuestion: { attribute: false },
    waitLimit: { attribute: false },
  };

  /** What is happening, e.g. "Switching your direct deposit"; null for a general "Working on it". */
  declare heading: string | null;
  /** The question asked when the user closes while the job runs; null when nobody asked to leave. */
  declare leaveQuestion: string | null;
  /** Where the job's watch stands against its time limit. */
  declare waitLimit: WaitLimit;
  /** Warned of the watch's limit, the user waits another full period. */
  onKeepWaiting: () => void = () => {};
  /** The user leaves anyway. */
  onLeave: () => void = () => {};
  /** The user stays while the job goes on. */
  onStay: () => void = () => {};

  constructor() {
    super();
    this.heading = null;
    this.leaveQuestion = null;
    this.waitLimit = 'ahead';
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    // The question takes focus when it appears, on the safe answer: staying.
    if (changed.has('leaveQuestion') && this.leaveQuestion) this.renderRoot.querySelector<HTMLElement>('.stay')?.focus();
  }

  /** Escape inside the question is Stay (the alert dialog's safe answer), inline too, where the page's Escape is not the flow's. */
  #onQuestionKeydown(event: KeyboardEvent): void {
    if (event.key !== 'Escape' || event.isComposing) return;
    event.preventDefault();
    this.onStay();
  }

  override render() {
    const t = this.strings;
    const asking = this.leaveQuestion !== null;
    return html`
      <div class="spinner" aria-hidden="true"></div>
      <h1 tabindex="-1">${this.heading ?? t.runningDefault}</h1>
      <p class="lead" role="status">${t.runningStatus}</p>
      <!-- While the question asks, nothing else can be reached (Tab cycles Leave and Stay); the heading stays readable. -->
      <div ?inert=${asking}>
        ${waitWarning(t, {
          limit: this.waitLimit,
          near: t.jobWaitNear(WAIT_WARNING_MS / 60_000),
          passed: t.jobWaitPassed,
          onKeepWaiting: () => this.onKeepWaiting(),
        })}
      </div>
      ${
        this.leaveQuestion
          ? html`<section role="alertdialog" aria-labelledby="leave-question" @keydown=${this.#onQuestionKeydown}>
            <p id="leave-question">${this.leaveQuestion}</p>
            <div class="confirm">
              <button type="button" class="secondary" @click=${() => this.onLeave()}>${t.leave}</button>
              <button type="button" class="primary stay" @click=${() => this.onStay()}>${t.stay}</button>
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
