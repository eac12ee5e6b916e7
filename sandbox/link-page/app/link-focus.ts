/**
 * When a screen of the Link page may move focus to its heading (the frame protocol's rule, see `takeFocus` in
 * src/protocol.ts): the first screen after an init that says its user opened the flow, and any screen while the
 * frame already has focus (its user is working in it). A flow that started by itself (inline, seen on scroll)
 * never takes focus from the page around it, where its user may be typing.
 */
let given = false;

/** The init's word (`takeFocus`, absent: true, as before the field existed): whether its user opened the flow. */
export function giveFocus(granted: boolean): void {
  given = granted;
}

/** Whether a screen appearing now may take focus; the init's grant serves one screen, the first after it. */
export function mayTakeFocus(): boolean {
  const granted = given;
  given = false;
  return granted || document.hasFocus();
}
