/**
 * Styles of the Link modal, as plain CSS text so the framework-free core can
 * adopt them as a constructed stylesheet. Themed through `--payroll-link-*`
 * custom properties. `pointer-events: auto` on the container: a page's open
 * menu or dialog may set `pointer-events: none` on `<body>`, which the modal
 * would otherwise inherit, leaving the Link flow unclickable. Written one rule per line, without spaces: the
 * text ships as it is written, in the session's code.
 */
export const modalCss = `
:host{pointer-events:auto;}
.dialog{box-sizing:border-box;width:min(var(--payroll-link-modal-width, 440px), 100vw);height:min(var(--payroll-link-modal-height, 680px), 100dvh);max-width:100vw;max-height:100dvh;padding:0;border:none;border-radius:var(--payroll-link-modal-radius, 16px);background:var(--payroll-link-modal-background, #fff);box-shadow:0 24px 64px rgb(0 0 0 / 0.3);overflow:hidden;}
.dialog[open]{display:flex;flex-direction:column;}
.dialog::backdrop{background:var(--payroll-link-backdrop, rgb(15 23 42 / 0.55));}
.close{position:absolute;top:4px;right:4px;z-index:1;font:inherit;font-size:1.5rem;line-height:1;width:44px;height:44px;border:none;border-radius:50%;background:transparent;color:inherit;cursor:pointer;}
.close:hover{background:rgb(0 0 0 / 0.06);}
.close:focus-visible{outline:2px solid var(--payroll-link-focus-ring, #2563eb);outline-offset:2px;}
.body{position:relative;flex:1;}
.frame{position:absolute;inset:0;width:100%;height:100%;border:0;}
.loading{position:absolute;inset:0;display:grid;place-items:center;color:var(--payroll-link-muted-color, #475569);}
.dialog[data-ready] .loading{display:none;}
@media (max-width:480px){.dialog{width:100vw;height:100dvh;border-radius:0;}}
`;
