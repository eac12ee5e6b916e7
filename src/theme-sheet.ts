/**
 * The `--payroll-link-*` custom properties as the page sets them for `element`
 * (on it or on an ancestor), as a stylesheet whose `:host` rule gives them to
 * a shadow host elsewhere in the page: the theme travels with a modal that
 * cannot sit inside the element. A constructed sheet, not an inline style, so
 * strict CSP allows it.
 */
export function themeSheet(element: Element): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(':host {}');
  const theme = (sheet.cssRules[0] as CSSStyleRule).style;
  const computed = getComputedStyle(element);
  // A computed style lists the custom properties set on the element, in Chromium and Firefox alike.
  for (const name of computed) {
    if (name.startsWith('--payroll-link-')) theme.setProperty(name, computed.getPropertyValue(name));
  }
  return sheet;
}
