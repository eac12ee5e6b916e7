import { deepActiveElement } from '../modal/focus-return.js';

/**
 * Whether the user is opening the flow right now, and so gives it focus: the page holds the user's activation (a
 * click or a key press just now: `navigator.userActivation.isActive`; a browser that cannot tell gets false, and
 * the element's own click passes true), and no field outside the flow holds focus. A key press in a field activates
 * the page for seconds (5 s in Chromium): a script that starts a flow meanwhile (a timer, a search as one types)
 * must not take that field from its user. A flow that starts by itself (seen on scroll, `prefetch="load"`) does
 * not ask: it is given false.
 */
export function userGaveFocus(): boolean {
  return !deepActiveElement()?.matches('input,textarea,[contenteditable]') && !!navigator.userActivation?.isActive;
}
