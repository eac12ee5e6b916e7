/**
 * A server-rendered page for the tests of `payroll-link/styles.css`: a same-origin frame of the test page (its own
 * document, so `<payroll-link>` is undefined when it first paints) with the stylesheet in its head, and the
 * element's script added to it later, as a late bundle.
 */
import { oneEvent } from '@open-wc/testing';

/** Resolves after the next rendering update of `win` (its layout and observers done). */
export const nextFrames = async (win: Window) => {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => win.requestAnimationFrame(resolve));
};

/** The page, loaded: `body` and `head` (after the stylesheet) are the server's markup, no script. Remove `page` after. */
export async function serverRenderedPage(body: string, head = '') {
  const page = document.createElement('iframe');
  page.width = '800';
  page.height = '900';
  page.srcdoc = `<!doctype html><html><head><link rel="stylesheet" href="/src/element/styles.css">${head}</head><body>
    ${body}</body></html>`;
  const loaded = oneEvent(page, 'load');
  document.body.append(page);
  await loaded;
  return { page, win: page.contentWindow!, doc: page.contentDocument! };
}

/** The element's script, late: `<payroll-link>` is defined once the module has run. */
export function addElementScript(doc: Document): void {
  const script = doc.createElement('script');
  script.type = 'module';
  script.textContent = "import '/src/index.ts';";
  doc.head.append(script);
}
