// No import: the Node adapter uses it too, and its bundle carries no zod (`npm run size`, row d).
/**
 * What ends or bends a line of a log: the C0 controls (CR, LF, TAB, ESC…), DEL, the C1 controls (NEL, CSI…) and
 * the Unicode line and paragraph separators. Text from outside (a webhook's event name, a hook's error, the
 * service's message) carrying one could otherwise write a line of its own into the integrator's log.
 */
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]/gu;
const SHORT_ESCAPES: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t' };

/** `text` with each {@link LINE_BREAKING} character written out as an escape (`\n`, `\u001b`): visible, on one line. */
export function escapeControls(text: string): string {
  return text.replace(LINE_BREAKING, (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
