import { css } from 'lit';

/**
 * The look shared by every screen of the Link page: type, buttons, fields,
 * messages. Lit adopts it as a constructed style sheet, which the page's strict
 * CSP (`style-src 'self'`, no inline styles) allows.
 */
export const linkScreenStyles = css`
  :host {
    display: block;
    color: var(--link-text);
  }
  * {
    box-sizing: border-box;
  }
  h1 {
    margin: 0 0 0.5rem;
    font-size: 1.375rem;
    line-height: 1.3;
    font-weight: 650;
  }
  h1:focus {
    /* Focus lands on the heading so screen readers announce each screen; it is not a control, so no ring. */
    outline: none;
  }
  h2 {
    margin: 0 0 0.5rem;
    font-size: 0.95rem;
    font-weight: 600;
  }
  p {
    margin: 0 0 1rem;
    line-height: 1.5;
  }
  .lead {
    color: var(--link-muted);
  }
  form,
  .stack {
    display: grid;
    gap: 1rem;
  }
  label,
  legend {
    display: block;
    font-weight: 600;
    font-size: 0.9rem;
    margin-bottom: 0.35rem;
  }
  input[type='text'],
  input[type='password'],
  input[type='search'] {
    width: 100%;
    font: inherit;
    padding: 0.65rem 0.75rem;
    border: 1px solid var(--link-border-strong);
    border-radius: 8px;
    background: var(--link-background);
    color: inherit;
  }
  input[aria-invalid='true'] {
    border-color: var(--link-danger);
  }
  input:focus-visible,
  button:focus-visible {
    outline: 3px solid var(--link-focus);
    outline-offset: 2px;
  }
  button {
    font: inherit;
    cursor: pointer;
    border-radius: 8px;
    min-height: 44px;
    padding: 0.6rem 1rem;
  }
  button:disabled {
    cursor: progress;
    opacity: 0.7;
  }
  .primary {
    width: 100%;
    border: 1px solid var(--link-accent);
    background: var(--link-accent);
    color: var(--link-on-accent);
    font-weight: 600;
  }
  .primary:hover:not(:disabled) {
    background: var(--link-accent-hover);
  }
  .secondary {
    border: 1px solid var(--link-border-strong);
    background: var(--link-background);
    color: var(--link-text);
  }
  .link-button {
    border: none;
    background: none;
    color: var(--link-accent);
    padding: 0.4rem 0;
    min-height: 0;
    text-decoration: underline;
    text-underline-offset: 2px;
  }
  .hint {
    font-size: 0.85rem;
    color: var(--link-muted);
    margin: 0.35rem 0 0;
  }
  .form-error {
    margin: 0;
    padding: 0.65rem 0.75rem;
    border-radius: 8px;
    border: 1px solid var(--link-danger-border);
    background: var(--link-danger-bg);
    color: var(--link-danger);
  }
  .form-error:empty {
    display: none;
  }
  /* A long wait's time limit (link-wait-warning.ts): the words, then the answers. */
  .wait-warning {
    margin: 1rem 0 0.75rem;
    padding: 0.65rem 0.75rem;
    border-radius: 8px;
    border: 1px solid var(--link-border-strong);
    background: var(--link-surface);
    text-align: left;
  }
  .wait-warning:empty {
    display: none;
  }
  .wait-answers {
    display: grid;
    gap: 0.75rem;
  }
  code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.85rem;
    font-weight: 600;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
