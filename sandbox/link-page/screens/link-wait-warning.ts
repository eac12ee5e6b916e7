import { html, nothing, type TemplateResult } from 'lit';
import type { WaitLimit } from '../app/link-flow-screen.js';
import type { LinkStrings } from '../app/link-strings.js';

/** What a screen that waits long tells {@link waitWarning}: where the wait stands, its words, and the answers. */
export interface WaitWarning {
  readonly limit: WaitLimit;
  /** The warning, shown near the limit. */
  readonly near: string;
  /** What the screen says once the limit passed unanswered (the polling paused). */
  readonly passed: string;
  readonly onKeepWaiting: () => void;
  /** A fresh attempt (the login in a new window); no button without it. */
  readonly onTryAgain?: (() => void) | undefined;
}

/**
 * A long wait's time limit on screen (WCAG 2.2.1, Timing Adjustable): a live region that is always in the page,
 * so that its words are announced when they appear, near the limit and once it passed; with them, "Keep waiting"
 * (another full period) and, where the screen offers one, "Try again". Used by the screens that poll (the login in
 * the other window, the running job); their styles are the screens' shared ones (`.wait-warning`).
 */
export function waitWarning(t: Readonly<LinkStrings>, warning: WaitWarning): TemplateResult {
  const { limit, onTryAgain } = warning;
  return html`
    <p class="wait-warning" role="alert">${limit === 'near' ? warning.near : limit === 'passed' ? warning.passed : ''}</p>
    ${
      limit === 'ahead'
        ? nothing
        : html`<div class="wait-answers">
            <button type="button" class="primary" @click=${() => warning.onKeepWaiting()}>${t.keepWaiting}</button>
            ${onTryAgain ? html`<button type="button" class="secondary" @click=${() => onTryAgain()}>${t.tryAgain}</button>` : nothing}
          </div>`
    }
  `;
}
