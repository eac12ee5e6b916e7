import { css, unsafeCSS } from 'lit';

const darkBackground = unsafeCSS('#111827');

/**
 * The palette in the dark colour mode: the same roles, every text colour still at least 4.5:1 on its background,
 * and a control's own boundary (`--link-border-strong`, `--link-focus`) at least 3:1 (WCAG 1.4.11).
 */
const darkPalette = css`
  color-scheme: dark;
  --link-text: #f9fafb;
  --link-muted: #d1d5db;
  --link-border: #374151;
  --link-border-strong: #9ca3af;
  --link-surface: #1f2937;
  --link-accent: #93c5fd;
  --link-accent-hover: #bfdbfe;
  --link-accent-soft: #1e3a8a;
  --link-focus: #93c5fd;
  --link-danger: #fca5a5;
  --link-danger-bg: #450a0a;
  --link-danger-border: #7f1d1d;
  --link-success: #86efac;
  --link-success-bg: #14532d;
  --link-background: ${darkBackground};
  --link-on-accent: #111827;
`;

/**
 * The Link page's frame and palette. The palette is a set of custom
 * properties on the app's host that every screen inherits: neutral greys with
 * one accent, every text colour at least 4.5:1 on its background (WCAG 1.4.3),
 * a field's border and the focus ring at least 3:1 (1.4.11; checked by
 * test/node/link-page-contrast.test.ts). `--link-border` only separates: no
 * control relies on it for its boundary.
 */
export const linkAppStyles = css`
  :host {
    --link-text: #111827;
    --link-muted: #4b5563;
    --link-border: #e5e7eb;
    --link-border-strong: #6b7280;
    --link-surface: #f9fafb;
    --link-accent: #1d4ed8;
    --link-accent-hover: #1e40af;
    --link-accent-soft: #e0e7ff;
    --link-focus: #2563eb;
    --link-danger: #b91c1c;
    --link-danger-bg: #fef2f2;
    --link-danger-border: #fecaca;
    --link-success: #15803d;
    --link-success-bg: #dcfce7;
    --link-background: #fff;
    --link-on-accent: #fff;
    display: flex;
    flex-direction: column;
    min-height: 100vh;
    min-height: 100dvh;
    color: var(--link-text);
    background: var(--link-background);
    font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
    font-size: 16px;
  }
  /* Inline in the widget's page: as tall as the content, which the page reports (see link-app.ts). */
  :host([inline]) {
    min-height: 0;
  }
  /* Dark, when the widget asks for it (the init's colorScheme), or asks for auto and the user prefers it. */
  :host([data-color-scheme='dark']) {
    ${darkPalette}
  }
  @media (prefers-color-scheme: dark) {
    :host([data-color-scheme='auto']) {
      ${darkPalette}
    }
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  .header {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    padding: 0.75rem 1rem;
    border-bottom: 1px solid var(--link-border);
  }
  /* The host page's close control overlays this corner (44 px, 4 px in): keep it free. */
  .header.host-close {
    min-height: 52px;
    padding-right: 56px;
  }
  .brand {
    font-weight: 700;
    letter-spacing: -0.01em;
  }
  .badge {
    font-size: 0.72rem;
    font-weight: 600;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    color: #92400e;
    background: #fef3c7;
    border-radius: 999px;
    padding: 0.15rem 0.55rem;
  }
  .close {
    margin-left: auto;
    width: 44px;
    height: 44px;
    display: inline-grid;
    place-items: center;
    border: none;
    border-radius: 8px;
    background: none;
    color: var(--link-muted);
    font: inherit;
    font-size: 1.5rem;
    line-height: 1;
    cursor: pointer;
  }
  .close:hover {
    background: var(--link-surface);
    color: var(--link-text);
  }
  .close:focus-visible {
    outline: 3px solid var(--link-focus);
    outline-offset: 2px;
  }
  .screen {
    flex: 1;
    width: 100%;
    max-width: 28rem;
    margin: 0 auto;
    padding: 1.5rem 1.25rem 2rem;
  }
  .footer {
    padding: 0.75rem 1rem 1rem;
    text-align: center;
    font-size: 0.78rem;
    color: var(--link-muted);
  }
  @media (max-width: 360px) {
    .screen {
      padding: 1rem 0.9rem 1.5rem;
    }
  }
`;

/** The document around the app: no margins, so the app fills the frame; its background and controls in the app's colour mode. */
export const linkDocumentStyles = css`
  html,
  body {
    margin: 0;
    padding: 0;
    background: #fff;
  }
  html {
    color-scheme: light;
  }
  html[data-color-scheme='dark'],
  html[data-color-scheme='dark'] body {
    color-scheme: dark;
    background: ${darkBackground};
  }
  @media (prefers-color-scheme: dark) {
    html[data-color-scheme='auto'],
    html[data-color-scheme='auto'] body {
      color-scheme: dark;
      background: ${darkBackground};
    }
  }
`;
