/** The element that really has focus, looking through open shadow roots. */
export function deepActiveElement(doc: Document = document): HTMLElement | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

/**
 * Remembers where focus was and gives it back later, if that element is still
 * in the page. Returns the function that gives focus back.
 */
export function saveFocus(target: HTMLElement | null = deepActiveElement()): () => void {
  return () => {
    if (target?.isConnected) target.focus({ preventScroll: true });
  };
}
