import { linkOrigin } from './link-origin.js';

/**
 * The URL the Link page asked to open (`open-url`), when the contract allows it, else null: absolute, https (plain
 * http on loopback only, the sandbox: the rule of the Link URL itself), no user name or password in it, at most
 * 2,000 characters, and never the session's Link token in it, as sent or percent-encoded.
 */
export function windowUrl(raw: string, token: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const seen = raw + url.href;
  const leaks = seen.includes(token) || seen.includes(encodeURIComponent(token));
  return linkOrigin(raw) && !url.username && !url.password && !leaks && url.href.length <= 2000 ? url.href : null;
}

/**
 * Opens `url` in a new window with `noopener` semantics, and says whether the browser allowed it. `window.open`
 * with the `noopener` feature returns null whether it opened or was blocked, so this opens a blank window, cuts
 * its `opener`, then sends it to the URL: the page that loads there can never reach this one, and null means the
 * popup blocker refused (no user gesture the browser still honours).
 */
export function openWindow(url: string): boolean {
  const opened = window.open('', '_blank');
  if (!opened) return false;
  opened.opener = null;
  opened.location.replace(url);
  return true;
}
