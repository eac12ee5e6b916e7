/**
 * The rules of `redirectUris` and `allowCustomSchemes` (said on their fields of {@link LinkLaunchesOptionsSchema}),
 * checked once, when the launches are created. An allowlist: a reverse-DNS scheme passes because RFC 8252 §7.1 has
 * an app name its scheme after a domain it controls, which no system handler and no other honest app uses. A
 * denylist of the schemes the system handles can never be complete; it is kept only to refuse listing one.
 */
import { isLoopbackHost } from '../handler/loopback.js';

/** RFC 3986 §3.1's scheme syntax, in the lower case a URL parser gives it. */
const SCHEME = /^[a-z][a-z0-9+.-]*$/;

/** A reverse-DNS name: dot-separated labels, at least two (`com.acme.app`). */
const REVERSE_DNS = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/;

/** Schemes that a browser or the operating system (or an app it ships) handles itself: no integrator's app receives them. */
const SYSTEM_SCHEMES = new Set([
  'javascript',
  'vbscript',
  'data',
  'blob',
  'file',
  'filesystem',
  'about',
  'intent',
  'content',
  'ws',
  'wss',
  'ftp',
  'mailto',
  'tel',
  'sms',
  'mms',
  'facetime',
  'facetime-audio',
  'sip',
  'sips',
  'callto',
  'skype',
  'steam',
  'market',
  'itms',
  'jar',
  'smb',
  'afp',
  'nfs',
  'ssh',
  'telnet',
  'shell',
  'search',
  'chrome',
  'view-source',
]);
const SYSTEM_PREFIXES = ['chrome-', 'moz-', 'ms-', 'itms-', 'x-safari-', 'search-'];

const isSystemScheme = (scheme: string): boolean =>
  SYSTEM_SCHEMES.has(scheme) || SYSTEM_PREFIXES.some((prefix) => scheme.startsWith(prefix));

/** Why `scheme` cannot be listed in `allowCustomSchemes`, or null when it can. */
export function customSchemeProblem(scheme: string): string | null {
  if (!SCHEME.test(scheme)) return "must be a scheme name in lower case (a letter, then letters, digits, '+', '-' or '.'), without ':'";
  if (scheme === 'http' || scheme === 'https') return `${scheme} has its own rule (https anywhere, http on loopback); do not list it`;
  // Listing one cannot make it the app's: the system still handles it. Refused so that a mistake is not a hole.
  if (isSystemScheme(scheme)) return `${scheme} is a scheme the browser or the system handles itself: no app receives it`;
  return null;
}

/** Why `uri` cannot be a launch's redirect, or null when it can; `customSchemes` are those listed in `allowCustomSchemes`. */
export function redirectUriProblem(uri: string, customSchemes: readonly string[]): string | null {
  if (!URL.canParse(uri)) return 'is not an absolute URI';
  const url = new URL(uri);
  const scheme = url.protocol.slice(0, -1);
  if (isSystemScheme(scheme)) return `uses ${scheme}:, which the browser or the system handles itself`;
  if (scheme !== 'https' && scheme !== 'http' && !REVERSE_DNS.test(scheme) && !customSchemes.includes(scheme))
    return (
      `uses ${scheme}:, which is neither https:, http: on loopback nor an app's reverse-DNS scheme such as com.acme.app: ` +
      `(RFC 8252 §7.1), so the system or another app may handle it. Use your app's reverse-DNS scheme, or, if ${scheme}: ` +
      `is your app's own, list it in allowCustomSchemes: ['${scheme}']`
    );
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (uri.includes('#')) return 'must not have a fragment';
  if (scheme === 'http' && !isLoopbackHost(url.hostname)) return 'uses http: off loopback; use https:';
  return null;
}
