/**
 * What the kit throws when a test asks for something the real system would never do: a Link page's event out of
 * the session's order or outside the contract (`mockLink()`), a webhook the receiver's schema refuses
 * (`webhookRequest()`). Its message says what and why: a script to fix, not a bug to hunt.
 */
export class ScriptError extends Error {
  override name = 'ScriptError';
}
