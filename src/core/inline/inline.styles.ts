/**
 * The inline box's styles, as plain text (it ships as written, in the session's code). Height: the declared
 * `--payroll-link-inline-height` until the user is in the frame, then the Link page's report (a sheet of the box's
 * own: `fit` in link-inline.ts), always within `--payroll-link-inline-min-height` and `--payroll-link-inline-max-height`. Built
 * ahead (`prepareLink`), the box keeps its room, hidden (not focusable, not in the accessibility tree): showing
 * it moves nothing on the page. The loading text's default colour follows the session's colour mode
 * (`data-color-scheme`, as the modal's): slate-600 for a light page, slate-300 for a dark one, each at least
 * 4.5:1 on its page's likely background (white, slate-900). The page's `--payroll-link-muted-color` wins.
 */
export const inlineCss = `
:host{display:block;position:relative;box-sizing:border-box;width:100%;height:var(--payroll-link-inline-height, 640px);min-height:var(--payroll-link-inline-min-height, 360px);max-height:var(--payroll-link-inline-max-height, 960px);visibility:hidden;}
:host([data-shown]){visibility:visible;}
.frame{position:absolute;inset:0;width:100%;height:100%;border:0;}
.loading{position:absolute;inset:0;display:grid;place-items:center;color:var(--payroll-link-muted-color, #475569);}
:host([data-color-scheme=dark]) .loading{color:var(--payroll-link-muted-color, #cbd5e1);}
@media (prefers-color-scheme:dark){:host([data-color-scheme=auto]) .loading{color:var(--payroll-link-muted-color, #cbd5e1);}}
:host([data-ready]) .loading{display:none;}
`;
