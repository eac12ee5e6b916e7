import type { LinkHandle, OpenLinkOptions, PreparedLink, PrepareLinkOptions } from './link-options.js';
import { LinkSession } from './link-session.js';
import type { ScriptedRealm } from './scripted-links.js';
import { SCRIPTED_LINKS } from '../shared/scripted-key.js';

/**
 * Opens the hosted Link flow in a modal frame: gets a token (from `token`, `fetchToken` or `tokenUrl`), loads `linkUrl`
 * in parallel, hands the token to the frame over `postMessage` once it says it is ready, and reports what happens
 * through the callbacks. Framework-free; the `<payroll-link>` element (src/element/) builds on it and adds the button,
 * the prefetch and the lazy loading.
 *
 * @example
 * ```js
 * const link = openLink({
 *   linkUrl: 'https://link.example.com/link',
 *   tokenUrl: '/api/link-token',
 *   onSuccess: ({ accountId, jobId }) => save(accountId, jobId),
 * });
 * const { reason } = await link.closed;
 * ```
 */
export function openLink(options: OpenLinkOptions): LinkHandle {
  return prepareLink({ ...options, fetchTokenAhead: false }).open();
}

/**
 * Builds the Link flow ahead of the click, hidden: the modal `<dialog>` stays closed (not rendered, not focusable, not
 * in the accessibility tree) while the Link page loads in its frame and says it is ready, and the token is fetched
 * beside it (see `fetchTokenAhead`). `open()` then only shows the dialog and hands the token over: the Link page shows
 * at once. The token never reaches the frame before `open()` (a token handed over starts a single-use Link session).
 * `openLink()` is `prepareLink()` then `open()` in one call.
 *
 * Call it on a sign of intent (the pointer over your button, focus), and {@link PreparedLink.dispose} what you
 * prepared: the hidden frame holds a page (often a process) of its own. It is never moved in the DOM (moving a frame
 * reloads it).
 *
 * @example
 * ```js
 * let prepared;
 * button.addEventListener('pointerenter', () => {
 *   prepared ??= prepareLink({ linkUrl: 'https://link.example.com/link', tokenUrl: '/api/link-token', onSuccess: save });
 * });
 * button.addEventListener('click', () => {
 *   const link = (prepared ?? prepareLink({ linkUrl: 'https://link.example.com/link', tokenUrl: '/api/link-token', onSuccess: save })).open();
 *   prepared = undefined;
 * });
 * ```
 */
export function prepareLink(options: PrepareLinkOptions): PreparedLink {
  // A test's scripted session (payroll-link/testing's mockLink()), when it installed one: see scripted-links.ts.
  const scripted = (globalThis as ScriptedRealm)[SCRIPTED_LINKS];
  if (scripted) return scripted.prepareLink(options);
  const session = new LinkSession(options);
  // Only what PreparedLink promises: the session's state stays internal.
  return { open: (openOptions) => session.open(openOptions), dispose: () => session.dispose() };
}
