import { css } from 'lit';

/**
 * Styles of `<payroll-link>`: the trigger button and its states (the modal is the core's, in `<body>`). Inline,
 * the empty box takes the room the flow will take (its declared height), so the flow's arrival moves nothing, even
 * while the session's code loads; not once a session has ended (`data-ended`): one its user closed leaves nothing,
 * and no empty room. Before the element is defined, the stylesheet payroll-link/styles.css (src/element/styles.css)
 * holds the same room, and the button's height: it restates the button's padding and its default, so a change of
 * either here changes it there too (test/browser/button-room.test.ts compares the two boxes).
 * No comments inside the CSS: the text ships as written, before intent. Forced colours (Windows high contrast)
 * draw no background: the button's edge is its outline, transparent otherwise (an outline, not a border: it takes
 * no room, so styles.css's room still fits). The spinner keeps its own colours there, or its gap would be filled
 * in: a static ring; under reduced motion it stands still, and it is named (see render()) either way.
 */
export const payrollLinkStyles = css`
  :host {
    display: inline-block;
    font: inherit;
  }
  :host([hidden]) {
    display: none;
  }
  :host([display='inline']) {
    display: block;
  }
  .inline:empty:not([data-ended]) {
    height: var(--payroll-link-inline-height, 640px);
  }
  .button {
    display: inline-flex;
    align-items: center;
    gap: 0.5em;
    font: inherit;
    font-weight: 600;
    padding: var(--payroll-link-button-padding, 0.7em 1.3em);
    border: none;
    outline: 1px solid transparent;
    border-radius: var(--payroll-link-button-radius, 999px);
    background: var(--payroll-link-button-background, #1d4ed8);
    color: var(--payroll-link-button-color, #fff);
    cursor: pointer;
  }
  .button:hover:not(:disabled) {
    filter: brightness(1.1);
  }
  .button:focus-visible {
    outline: 2px solid var(--payroll-link-focus-ring, #2563eb);
    outline-offset: 2px;
  }
  .button:disabled {
    cursor: not-allowed;
    opacity: 0.55;
  }
  .spinner {
    width: 1em;
    height: 1em;
    border: 2px solid currentColor;
    border-right-color: transparent;
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
    forced-color-adjust: none;
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
  .error {
    margin: 0.4em 0 0;
    font-size: 0.875em;
    color: var(--payroll-link-error-color, #b91c1c);
  }
`;
