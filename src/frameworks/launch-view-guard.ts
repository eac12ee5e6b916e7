/**
 * What `PayrollLinkView` (react-native.ts) lets through from its WebView, kept apart from React Native: which
 * messages are the launch page's, and where the WebView may go. One guard per launch URL, with its own nonce.
 */
import { LAUNCH_BRIDGE_NONCE_PARAM, parseLaunchBridgeMessage, type LaunchBridgeMessage } from '../launch-bridge.js';
import { hex } from '../shared/hex.js';

/**
 * The origin (`scheme://host[:port]`, lower case, without the scheme's default port) of an http(s) URL, or null.
 * Parsed here rather than by `URL`: React Native's own `URL` neither lowercases nor drops a default port. A URL
 * with user info (`@`) or a backslash before its path has no origin here: it is never the launch's.
 */
function originOf(url: string): string | null {
  const match = /^(https?):\/\/([^/?#\\@]+)(?=[/?#]|$)/i.exec(url);
  if (!match) return null;
  const scheme = match[1]!.toLowerCase();
  const host = match[2]!.toLowerCase();
  const defaultPort = scheme === 'https' ? ':443' : ':80';
  return `${scheme}://${host.endsWith(defaultPort) ? host.slice(0, -defaultPort.length) : host}`;
}

/**
 * A nonce for one launch: 128 bits from the platform's CSPRNG, as 32 hex digits. Never from `Math.random()`: a
 * nonce a frame could guess would let it speak as the page. Hermes has no `crypto.getRandomValues` of its own;
 * without one (react-native-get-random-values provides it), this throws rather than show the launch unguarded.
 */
export function launchViewNonce(): string {
  const crypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto;
  if (typeof crypto?.getRandomValues !== 'function') {
    throw new Error(
      'PayrollLinkView needs crypto.getRandomValues for its bridge nonce, and this JavaScript engine has none: install ' +
        "react-native-get-random-values (Expo: npx expo install react-native-get-random-values) and import it first in your app's entry file.",
    );
  }
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}

/** A navigation the WebView asks about: its URL and whether it is the top frame's (iOS tells; Android always says true). */
export interface LaunchViewNavigation {
  url: string;
  isTopFrame?: boolean;
}

/** What the view does with a navigation: let the WebView load it, hand it to the system (a browser), or refuse it. */
export type LaunchViewVerdict = 'load' | 'open' | 'refuse';

/** The messages the view hands on: all but `launch-start`, which is the guard's own. */
export type LaunchViewMessage = Exclude<LaunchBridgeMessage, { event: 'launch-start' }>;

/** One launch in a view: its URL with the nonce in the fragment, and what it lets through. */
export class LaunchViewGuard {
  /** What the WebView loads: the launch URL, its fragment replaced by the nonce (which no server or log sees). */
  readonly uri: string;
  readonly #origin: string | null;
  readonly #nonce: string;
  /** The last message's number taken: each is taken once, and only after it. */
  #seq = 0;
  /** The Link page's origin, as the page's `launch-start` names it. */
  #linkOrigin: string | null = null;
  #ended = false;

  constructor(
    /** The launch URL, as the view was given it. */
    readonly url: string,
    nonce: string,
  ) {
    this.#origin = originOf(url);
    this.#nonce = nonce;
    this.uri = `${url.split('#')[0]}#${LAUNCH_BRIDGE_NONCE_PARAM}=${nonce}`;
  }

  /**
   * The message, when it is the launch page's: from the launch URL's origin (the frame's, on react-native-webview
   * 13.13.1 and later), valid under the bridge's schemas, with this launch's nonce (which only the top frame could
   * read: on Android's JavaScript-interface fallback every frame's message reports the top frame's URL), and a
   * `seq` after the last one taken. Else null, never a throw. `launch-start` is taken here (the Link origin), and
   * nothing after `launch-done`.
   */
  take(event: { url: string; data: string }): LaunchViewMessage | null {
    if (this.#ended || this.#origin === null || originOf(event.url) !== this.#origin) return null;
    const message = parseLaunchBridgeMessage(event.data);
    if (message === null || message.nonce !== this.#nonce || message.seq <= this.#seq) return null;
    this.#seq = message.seq;
    if (message.event === 'launch-start') {
      this.#linkOrigin ??= originOf(message.detail.linkOrigin);
      return null;
    }
    if (message.event === 'launch-done') this.#ended = true;
    return message;
  }

  /**
   * Where the WebView may go. The launch's origin and the Link page's (which Android cannot tell from the page's
   * own navigations) load; any other https URL in the top frame goes to the system, as a link in a browser would,
   * and the WebView stays; anything else is refused (an app's scheme, `intent:`, `javascript:`, plain http). A
   * frame's own load, which iOS alone tells apart (`isTopFrame: false`), is the Link page's business: https loads
   * in that frame. After `launch-done` nothing loads: the page's redirect is the app's to act on, through `onDone`.
   */
  navigation({ url, isTopFrame }: LaunchViewNavigation): LaunchViewVerdict {
    if (this.#ended) return 'refuse';
    const origin = originOf(url);
    if (origin !== null && (origin === this.#origin || origin === this.#linkOrigin)) return 'load';
    const https = origin?.startsWith('https:') === true;
    if (isTopFrame === false) return https || /^about:(blank|srcdoc)$/i.test(url) ? 'load' : 'refuse';
    return https ? 'open' : 'refuse';
  }
}
