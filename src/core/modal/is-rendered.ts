/**
 * Whether the page renders `element`: false when it or an ancestor is `display: none` or `content-visibility: hidden`.
 * `checkVisibility()` where the browser has it; Safari before 17.4 does not, and there an element without a box has no
 * client rects (that Safari has no `content-visibility` either, so nothing is missed).
 */
export function isRendered(element: Element): boolean {
  return element.checkVisibility?.() ?? element.getClientRects().length > 0;
}
