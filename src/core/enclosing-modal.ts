/**
 * The open modal the element sits in, if any: a modal `<dialog>` or an `aria-modal="true"` element (a dialog library's,
 * such as Radix or React Aria), crossing shadow roots. The Link modal's container goes inside it rather than at the end
 * of `<body>`: those libraries make everything outside their dialog unclickable (`body { pointer-events: none }`),
 * close it on a pointer-down outside it, or hide what is outside it from assistive technology.
 */
export function enclosingModal(element: Element): Element | undefined {
  for (let node: Node | null = element.parentNode; node; node = node instanceof ShadowRoot ? node.host : node.parentNode) {
    if (node instanceof Element && (node.getAttribute('aria-modal') === 'true' || isModalDialog(node))) return node;
  }
  return undefined;
}

/** `:modal` is recent (2022); a browser without it throws on the selector, so it then counts as no. */
function isModalDialog(node: Element): boolean {
  try {
    return node instanceof HTMLDialogElement && node.matches(':modal');
  } catch {
    return false;
  }
}
