/** The chrome's dark defaults (every text at least 4.5:1 on the background, the focus ring 3:1), said once for `dark` and `auto`. */
const DARK = 'color-scheme:dark;--m-bg:#0f172a;--m-fg:#f1f5f9;--m-muted:#cbd5e1;--m-ring:#93c5fd;--m-hover:rgb(255 255 255 / 0.12);';

/**
 * Styles of the Link modal, as plain CSS text so the framework-free core can adopt them as a constructed stylesheet.
 * Themed through `--payroll-link-*` custom properties. `pointer-events: auto` on the container: a page's open menu or
 * dialog may set `pointer-events: none` on `<body>`, which the modal would otherwise inherit, leaving the Link flow
 * unclickable. Written one rule per line, without spaces: the text ships as it is written, in the session's code.
 *
 * Colour mode (`data-color-scheme` on the dialog): the defaults of the custom properties are the `--m-*` properties,
 * light unless the dialog says `dark`, or `auto` and the user prefers dark. An integrator's `--payroll-link-*` value
 * wins in both modes.
 *
 * The dialog's edge in forced colours (Windows high contrast, which drops its shadow) is its outline, transparent
 * otherwise. On a short viewport (400 % zoom: 320x256) the Link page scrolls under a close control that overlays
 * its corner: there the control takes its own row above the frame.
 */
export const modalCss = `
:host{pointer-events:auto;}
.dialog{--m-bg:#fff;--m-fg:#0f172a;--m-muted:#475569;--m-ring:#2563eb;--m-hover:rgb(0 0 0 / 0.06);color-scheme:light;color:var(--m-fg);}
.dialog[data-color-scheme=auto]{color-scheme:light dark;}
.dialog[data-color-scheme=dark]{${DARK}}
@media (prefers-color-scheme:dark){.dialog[data-color-scheme=auto]{${DARK}}}
.dialog{box-sizing:border-box;width:min(var(--payroll-link-modal-width, 440px), 100vw);height:min(var(--payroll-link-modal-height, 680px), 100dvh);max-width:100vw;max-height:100dvh;padding:0;border:none;outline:1px solid transparent;border-radius:var(--payroll-link-modal-radius, 16px);background:var(--payroll-link-modal-background, var(--m-bg));box-shadow:0 24px 64px rgb(0 0 0 / 0.3);overflow:hidden;}
.dialog[open]{display:flex;flex-direction:column;}
.dialog::backdrop{background:var(--payroll-link-backdrop, rgb(15 23 42 / 0.55));}
.close{position:absolute;top:4px;right:4px;z-index:1;font:inherit;font-size:1.5rem;line-height:1;width:44px;height:44px;border:none;border-radius:50%;background:transparent;color:inherit;cursor:pointer;}
.close:hover{background:var(--m-hover);}
.close:focus-visible{outline:2px solid var(--payroll-link-focus-ring, var(--m-ring));outline-offset:2px;}
.body{position:relative;flex:1;}
.frame{position:absolute;inset:0;width:100%;height:100%;border:0;}
.loading{position:absolute;inset:0;display:grid;place-items:center;color:var(--payroll-link-muted-color, var(--m-muted));}
.dialog[data-ready] .loading{display:none;}
@media (max-width:480px){.dialog{width:100vw;height:100dvh;border-radius:0;}}
@media (max-height:480px){.close{position:static;margin:4px 4px 0 auto;}}
`;
