/**
 * Locks page scrolling while a Link modal is open and restores it exactly.
 *
 * The lock is a constructed stylesheet adopted by the document, not an inline `style` on `<html>`: the page's own
 * `overflow` is never touched (so there is nothing to restore but the sheet), and strict CSP (`style-src 'self'`)
 * allows constructed sheets. Reference-counted so overlapping sessions compose.
 */
const locks = new WeakMap<Document, { count: number; sheet: CSSStyleSheet; x: number; y: number }>();

/** Locks scrolling of `doc`; returns the function that releases this lock. */
export function lockScroll(doc: Document = document): () => void {
  let lock = locks.get(doc);
  if (!lock) {
    const view = doc.defaultView!;
    const sheet = new view.CSSStyleSheet();
    // A gutter keeps the layout from jumping when a classic scrollbar disappears; only then. Reserved on a page
    // with no scrollbar (or overlay scrollbars), it would shift the page by half its width and leave a strip the
    // backdrop does not dim.
    const gutter = hasClassicScrollbar(doc) ? 'scrollbar-gutter:stable' : '';
    sheet.replaceSync(`html{overflow:hidden!important;${gutter}}`);
    lock = { count: 0, sheet, x: view.scrollX, y: view.scrollY };
    // Adopted before it is counted: a document that cannot adopt (jsdom) throws here and keeps no lock.
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
    locks.set(doc, lock);
  }
  lock.count++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const current = locks.get(doc);
    if (!current || --current.count > 0) return;
    locks.delete(doc);
    doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((s) => s !== current.sheet);
    const view = doc.defaultView;
    if (view && (view.scrollX !== current.x || view.scrollY !== current.y)) view.scrollTo(current.x, current.y);
  };
}

/** Whether the page shows a vertical scrollbar that takes room (a classic one, not an overlay): the room the lock must keep. */
function hasClassicScrollbar(doc: Document): boolean {
  return doc.defaultView!.innerWidth > doc.documentElement.clientWidth;
}
