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

/**
 * Waits (within the session's `waitforTimeout`) for the element {@link findDeep} finds in the WebDriver session's
 * current frame, and returns it. For WebKit, whose WebDriver has no selector that pierces shadow roots.
 */
export async function waitForDeep(browser: WebdriverIO.Browser, selector: string, text: string | null = null, host: string | null = null) {
  let found: WebdriverIO.Element | undefined;
  await browser.waitUntil(
    async () => {
      const element = await browser.execute(findDeep, selector, text, host);
      if (!element) return false;
      found = await browser.$(element as unknown as WebdriverIO.Element).getElement();
      return true;
    },
    { timeoutMsg: `no ${selector}${text === null ? '' : ` "${text}"`}${host === null ? '' : ` in ${host}`} in time` },
  );
  return found!;
}
