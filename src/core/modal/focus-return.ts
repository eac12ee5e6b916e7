/** The element that really has focus, looking through open shadow roots. */
export function deepActiveElement(doc: Document = document): HTMLElement | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

/** Remembers where focus was: the function it returns gives focus back, if that element is still in the page. */
export function saveFocus(target: HTMLElement | null = deepActiveElement()): () => void {
  return () => {
    if (target?.isConnected) target.focus({ preventScroll: true });
  };
}
