/**
 * The first element, looking through open shadow roots (the widget's modal and the Link page are Lit
 * elements), that matches `selector` and, if given, whose text is `text`; inside `host`'s shadow root if
 * given. Runs in the page.
 */
export function findDeep(selector: string, text: string | null, host: string | null): Element | null {
  const start = host === null ? document : document.querySelector(host)?.shadowRoot;
  if (!start) return null;
  const roots: Array<Document | ShadowRoot> = [start];
  for (let i = 0; i < roots.length; i++) {
    for (const element of roots[i]!.querySelectorAll('*')) {
      if (element.matches(selector) && (text === null || element.textContent?.trim() === text)) return element;
      if (element.shadowRoot) roots.push(element.shadowRoot);
    }
  }
  return null;
}
