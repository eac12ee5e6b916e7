import { guarded } from '../shared/guarded.js';

/**
 * A Link URL, resolved against the page (its `origin` is the exact origin whose messages count), or null when it
 * is not one we hand a token to: https, or plain http on loopback only (the sandbox on a developer's machine),
 * never a token in clear text across a network.
 */
export function trustedLinkUrl(linkUrl: unknown): URL | null {
  if (typeof linkUrl !== 'string' || linkUrl.trim() === '') return null;
  try {
    const url = new URL(linkUrl, document.baseURI);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) ? url : null;
  } catch {
    return null;
  }
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

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
  return trustedLinkUrl(raw) && !url.username && !url.password && !leaks && url.href.length <= 2000 ? url.href : null;
}

/**
 * Opens the window the Link page asked for (`open-url`), once the contract allows its URL ({@link windowUrl}):
 * through the integrator's `hook` (`onOpenUrl`), else as a popup. Says how it went, for the Link page to hear.
 */
export function openWindow(raw: string, token: string, hook: ((url: string) => void) | undefined): 'refused' | 'opened' | 'blocked' {
  const url = windowUrl(raw, token);
  if (!url) return 'refused';
  if (hook) return (guarded(hook, url), 'opened');
  // `window.open` with the `noopener` feature returns null whether it opened or was blocked, so this opens a blank
  // window, cuts its `opener`, then sends it to the URL: the page that loads there can never reach this one, and
  // null means the popup blocker refused (no user gesture the browser still honours).
  const opened = window.open('', '_blank');
  if (!opened) return 'blocked';
  opened.opener = null;
  opened.location.replace(url);
  return 'opened';
}
