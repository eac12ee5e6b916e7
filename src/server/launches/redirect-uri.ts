/**
 * Where a launch may send the user back when the flow ends: checked once, when
 * the launches are created. An app's own scheme (RFC 8252 §7.1 recommends a
 * reverse-DNS name such as `com.acme.app:/payroll-done`; `acmeapp://` is
 * accepted), `https:`, or `http:` on loopback. Never a scheme that a browser
 * or the system handles itself: such a "redirect" would run script, open a
 * dialler, or read a file, with the launch's state in it.
 */
import { isLoopbackHost } from '../handler/loopback.js';

/** Schemes a browser or the operating system handles itself (prefixes end with `-`). */
const SYSTEM_SCHEMES = new Set([
  'javascript',
  'vbscript',
  'data',
  'blob',
  'file',
  'filesystem',
  'about',
  'intent',
  'ws',
  'wss',
  'ftp',
  'mailto',
  'tel',
  'sms',
  'chrome',
  'view-source',
]);
const SYSTEM_PREFIXES = ['chrome-', 'moz-', 'ms-'];

/** Why `uri` cannot be a launch's redirect, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  if (!URL.canParse(uri)) return 'is not an absolute URI';
  const url = new URL(uri);
  const scheme = url.protocol.slice(0, -1);
  if (SYSTEM_SCHEMES.has(scheme) || SYSTEM_PREFIXES.some((prefix) => scheme.startsWith(prefix)))
    return `uses ${scheme}:, which a browser or the system handles itself`;
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (uri.includes('#')) return 'must not have a fragment';
  if (scheme === 'http' && !isLoopbackHost(url.hostname)) return 'uses http: off loopback; use https:';
  return null;
}
