/**
 * `payroll-link/react-native`: a launch's page (`createLinkLaunches` in `payroll-link/server/launches`) in a
 * `react-native-webview` WebView, with the element's callbacks. The page posts every event over the launch bridge
 * (`window.ReactNativeWebView.postMessage`, one JSON string each); this view takes a message only from the launch
 * URL's origin, parses it with the bridge's schemas (`parseLaunchBridgeMessage`, `payroll-link/core`), and calls the
 * callback named after it. `react-native` and `react-native-webview` are optional peer dependencies of the package:
 * only this entry imports them.
 */
import * as React from 'react';
import { Linking, type StyleProp, type ViewStyle } from 'react-native';
import { WebView, type WebViewMessageEvent } from 'react-native-webview';
import { parseLaunchBridgeMessage, type LaunchBridgeEvent, type LaunchBridgeMessage, type LaunchDoneDetail } from '../launch-bridge.js';

/**
 * The detail of one bridge message, by its event name, as the bridge's schema types it: `link-success` gives a
 * `SuccessDetail`, `link-event` `{ name, payload, typed }`, `launch-done` a `LaunchDoneDetail`.
 *
 * @example
 * ```ts
 * import type { PayrollLinkViewDetail } from 'payroll-link/react-native';
 *
 * const save = (detail: PayrollLinkViewDetail<'link-success'>) => api.saveAccount(detail.accountId, detail.jobId);
 * ```
 */
export type PayrollLinkViewDetail<E extends LaunchBridgeEvent> = Extract<LaunchBridgeMessage, { event: E }>['detail'];

/**
 * The props of {@link PayrollLinkView}. The callbacks are the element's (`onReady` … `onEvent`, one per `link-*`
 * event) and get the event's detail itself, not a `CustomEvent` as `payroll-link/react`'s handlers do: there is no
 * DOM event on this side of the bridge, only the message. Each is called once per message, with the latest props.
 *
 * @example
 * ```tsx
 * const props: PayrollLinkViewProps = { url: launchUrl, onDone: () => navigation.goBack() };
 * <PayrollLinkView {...props} />;
 * ```
 */
export interface PayrollLinkViewProps {
  /**
   * The launch's URL, as `launches.create()` returned it on your backend (`publicUrl/<sealed segment>`). Messages
   * are accepted only from its origin. A new URL is a new launch: the view shows it, even after `onDone`.
   */
  url: string;
  /** `link-ready`: the Link page has loaded in the launch page, ready to open. */
  onReady?: (detail: PayrollLinkViewDetail<'link-ready'>) => void;
  /** `link-open`: the Link flow is showing. */
  onOpen?: (detail: PayrollLinkViewDetail<'link-open'>) => void;
  /** `link-login`: the user has logged in to their payroll provider. */
  onLogin?: (detail: PayrollLinkViewDetail<'link-login'>) => void;
  /** `link-success`: the account is connected (`accountId`, `jobId`). Your backend learns it from `onResult` too. */
  onSuccess?: (detail: PayrollLinkViewDetail<'link-success'>) => void;
  /** `link-error`: the flow met an error (a typed `LinkError`: `type`, `code`). */
  onError?: (detail: PayrollLinkViewDetail<'link-error'>) => void;
  /** `link-exit`: the user left the flow (`reason`). */
  onExit?: (detail: PayrollLinkViewDetail<'link-exit'>) => void;
  /** `link-event`: one of the Link page's events (`name`, `payload`, and `typed`: whether the contract types it). */
  onEvent?: (detail: PayrollLinkViewDetail<'link-event'>) => void;
  /**
   * `launch-done`: the flow has ended (`status`: `'success'` or `'exit'`; `redirect`: where the page would go next,
   * or null). Called last; the view then renders nothing, so close or replace the screen here.
   */
  onDone?: (detail: LaunchDoneDetail) => void;
  /** The WebView's style (give it a size: `{ flex: 1 }` fills the screen). */
  style?: StyleProp<ViewStyle>;
}

/** The element's events (every bridge message but the bridge's own two), each with its callback prop. */
const CALLBACKS = {
  'link-ready': 'onReady',
  'link-open': 'onOpen',
  'link-login': 'onLogin',
  'link-success': 'onSuccess',
  'link-error': 'onError',
  'link-exit': 'onExit',
  'link-event': 'onEvent',
} as const satisfies {
  [E in Exclude<LaunchBridgeEvent, 'open-url' | 'launch-done'>]: E extends `link-${infer Name}` ? `on${Capitalize<Name>}` : never;
};

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

/** Hands one message to the callback it names; `open-url` to the system, which opens a browser. */
function deliver(message: Exclude<LaunchBridgeMessage, { event: 'launch-done' }>, props: PayrollLinkViewProps): void {
  if (message.event === 'open-url') {
    // A refusal (no app for the URL) is the system's to show; it must not become an unhandled rejection.
    Linking.openURL(message.detail.url).catch(() => undefined);
    return;
  }
  // Each event's callback takes that event's detail (CALLBACKS and the props are both typed from the bridge's schema).
  const callback = props[CALLBACKS[message.event]] as ((detail: typeof message.detail) => void) | undefined;
  callback?.(message.detail);
}

/**
 * A launch's page in a WebView, with typed callbacks: the React Native side of `createLinkLaunches`.
 *
 * It loads `url` and listens to the page's bridge. A message counts only when the WebView's current URL
 * (`nativeEvent.url`) has the launch URL's origin and it parses under the bridge's schemas; anything else (another
 * site's page, a malformed or foreign message) is ignored, never thrown. Each `link-*` message calls its callback
 * once, with the plain detail; `open-url` (the Link page asked for an external window, which a WebView cannot open
 * well) goes to `Linking.openURL`; `launch-done` calls `onDone` and the view renders nothing from then on (no blank
 * page left behind). Prefer a system auth session where you can (see the native apps guide): in a WebView, the app
 * could read what the user types.
 *
 * @example
 * ```tsx
 * import { PayrollLinkView } from 'payroll-link/react-native';
 *
 * export function ConnectPayroll({ launchUrl, onClose }: { launchUrl: string; onClose: () => void }) {
 *   return (
 *     <PayrollLinkView
 *       url={launchUrl}
 *       style={{ flex: 1 }}
 *       onSuccess={(detail) => console.log('connected', detail.accountId)}
 *       onDone={() => onClose()}
 *     />
 *   );
 * }
 * ```
 */
export function PayrollLinkView(props: PayrollLinkViewProps): React.JSX.Element | null {
  const { url, style } = props;
  // The launch that has ended, if any: a new url is a new launch, shown again.
  const [doneUrl, setDoneUrl] = React.useState<string | null>(null);
  // The callbacks as last committed, so that a message is handed to the current ones without a new onMessage
  // (set in an effect, not during render: a render React throws away must not leave its callbacks behind).
  const latest = React.useRef(props);
  React.useLayoutEffect(() => {
    latest.current = props;
  });
  // Set at once on launch-done (state waits for a render): what the WebView sends after it is not delivered.
  const ended = React.useRef<string | null>(null);

  const onMessage = React.useCallback(
    (event: WebViewMessageEvent) => {
      const origin = originOf(url);
      if (ended.current === url || origin === null || originOf(event.nativeEvent.url) !== origin) return;
      const message = parseLaunchBridgeMessage(event.nativeEvent.data);
      if (message === null) return;
      if (message.event === 'launch-done') {
        ended.current = url;
        setDoneUrl(url);
        latest.current.onDone?.(message.detail);
        return;
      }
      deliver(message, latest.current);
    },
    [url],
  );

  if (doneUrl === url) return null;
  return React.createElement(WebView, { source: { uri: url }, style, onMessage });
}
