/**
 * The `--payroll-link-*` custom properties as the page sets them for `element` (on it or on an ancestor), as a
 * stylesheet whose `:host` rule gives them to a shadow host elsewhere in the page: the theme travels with the modal,
 * which opens in `<body>`, outside the element. A constructed sheet, not an inline style, so strict CSP allows it. Read
 * once, when the flow opens: a theme changed later reaches the next session.
 */
export function themeSheet(element: Element): CSSStyleSheet | undefined {
  // Safari before 16.4 cannot construct a stylesheet: nor can openLink build its modal there, and it reports
  // that (MODAL_UNAVAILABLE) through the session's error path. Nothing to carry over, then.
  if (!('replaceSync' in CSSStyleSheet.prototype)) return undefined;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(':host{}');
  const theme = (sheet.cssRules[0] as CSSStyleRule).style;
  const computed = getComputedStyle(element);
  // A computed style lists the custom properties set on the element, in Chromium and Firefox alike. Read as a
  // list, not iterated: happy-dom's is not iterable.
  for (const name of Array.from(computed)) {
    if (name.startsWith('--payroll-link-')) theme.setProperty(name, computed.getPropertyValue(name));
  }
  return sheet;
}
