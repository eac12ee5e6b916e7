/**
 * `payroll-link/react-native`: {@link PayrollLinkView}, a launch's page in a `react-native-webview` WebView.
 * `react-native` and `react-native-webview` are optional peer dependencies of the package: only this entry imports
 * them.
 */
import * as React from 'react';
import { Linking, type StyleProp, type ViewStyle } from 'react-native';
import { WebView, type WebViewMessageEvent } from 'react-native-webview';
import type { LaunchBridgeEvent, LaunchBridgeMessage, LaunchDoneDetail } from '../launch-bridge.js';
import { ELEMENT_EVENTS, type BridgedEventName, type CallbacksOf } from '../protocol/element-events.js';
import { LaunchViewGuard, launchViewNonce, type LaunchViewMessage, type LaunchViewNavigation } from './launch-view-guard.js';

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
 * The props of {@link PayrollLinkView}. The callbacks are those of the element's events a launch page forwards
 * (`bridge: true` in its events' table: `onOpen` … `onEvent`, each described there), and get the event's detail
 * itself, not a `CustomEvent` as `payroll-link/react`'s handlers do: there is no DOM event on this side of the
 * bridge, only the message. The view calls the ones of its latest props.
 *
 * @example
 * ```tsx
 * const props: PayrollLinkViewProps = { url: launchUrl, onDone: () => navigation.goBack() };
 * <PayrollLinkView {...props} />;
 * ```
 */
export interface PayrollLinkViewProps extends CallbacksOf<BridgedEventName> {
  /**
   * The launch's URL, as `launches.create()` returned it on your backend (`publicUrl/<sealed segment>`). Messages
   * are accepted only from its origin. A new URL is a new launch: the view shows it, even after `onDone`. The view
   * loads it with a fragment of its own (the bridge's nonce), in place of any it has.
   */
  url: string;
  /**
   * `launch-done`: the flow has ended (`status`: `'success'` or `'exit'`; `redirect`: where the page would go next,
   * or null), after `onExit`. Called last; the view then renders nothing, so close or replace the screen here.
   */
  onDone?: (detail: LaunchDoneDetail) => void;
  /** The WebView's style (give it a size: `{ flex: 1 }` fills the screen). */
  style?: StyleProp<ViewStyle>;
}

/** Hands one message to the callback it names; `open-url` to the system, which opens a browser. */
function deliver(message: Exclude<LaunchViewMessage, { event: 'launch-done' }>, props: PayrollLinkViewProps): void {
  if (message.event === 'open-url') {
    // A refusal (no app for the URL) is the system's to show; it must not become an unhandled rejection.
    Linking.openURL(message.detail.url).catch(() => undefined);
    return;
  }
  // Each event's callback takes that event's detail (the props and the bridge's schema are both typed from the table).
  const callback = props[ELEMENT_EVENTS[message.event].callback] as ((detail: typeof message.detail) => void) | undefined;
  callback?.(message.detail);
}

/**
 * A launch's page in a WebView, with typed callbacks: the React Native side of `createLinkLaunches`.
 *
 * It loads `url` with a fresh nonce in its fragment (`#payroll-link-bridge=…`), which only the launch page's own
 * frame can read, and listens to the page's bridge. A message counts only when the frame that sent it
 * (`nativeEvent.url`) has the launch URL's origin, it parses under the bridge's schemas, it carries the nonce (on
 * Android, react-native-webview's JavaScript-interface fallback reports the top frame's URL for every frame: the
 * nonce is what a frame cannot forge), and its `seq` is new (a message posted again is ignored); anything else is
 * ignored, never thrown. Each `link-*` message calls its callback once, with the plain detail; `open-url` (the Link
 * page asked for an external window, which a WebView cannot open well) goes to `Linking.openURL`; `launch-done`
 * calls `onDone` and the view renders nothing from then on (no blank page left behind). The WebView stays on the
 * launch's origin, with the Link page's in its frame: another https page goes to `Linking.openURL` (the system
 * browser), and anything else (an app's scheme, `intent:`, `javascript:`) is refused. Prefer a system auth session
 * where you can (see the native apps guide): in a WebView, the app could read what the user types.
 *
 * Needs `crypto.getRandomValues` for the nonce, which Hermes lacks: install and import
 * `react-native-get-random-values` first (the view throws without it, rather than make a guessable nonce).
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
  // One guard per launch: a new url is a new launch, with a new nonce and its own count of messages.
  const [guard, setGuard] = React.useState(() => new LaunchViewGuard(url, launchViewNonce()));
  if (guard.url !== url) setGuard(new LaunchViewGuard(url, launchViewNonce()));
  // The launch that has ended, if any: the view renders nothing for it (the guard takes nothing after launch-done).
  const [doneUrl, setDoneUrl] = React.useState<string | null>(null);
  // The callbacks as last committed, so that a message is handed to the current ones without a new onMessage
  // (set in an effect, not during render: a render React throws away must not leave its callbacks behind).
  const latest = React.useRef(props);
  React.useLayoutEffect(() => {
    latest.current = props;
  });

  const onMessage = React.useCallback(
    (event: WebViewMessageEvent) => {
      const message = guard.take(event.nativeEvent);
      if (message === null) return;
      if (message.event === 'launch-done') {
        setDoneUrl(guard.url);
        latest.current.onDone?.(message.detail);
        return;
      }
      deliver(message, latest.current);
    },
    [guard],
  );

  const onShouldStartLoadWithRequest = React.useCallback(
    (request: LaunchViewNavigation) => {
      const verdict = guard.navigation(request);
      // A refusal (no app for the URL) is the system's to show; it must not become an unhandled rejection.
      if (verdict === 'open') Linking.openURL(request.url).catch(() => undefined);
      return verdict === 'load';
    },
    [guard],
  );

  if (doneUrl === url) return null;
  return React.createElement(WebView, {
    source: { uri: guard.uri },
    style,
    onMessage,
    onShouldStartLoadWithRequest,
    // Every URL to onShouldStartLoadWithRequest: react-native-webview's default list (http and https) would hand any
    // other scheme to Linking.openURL itself, before asking, so that a frame could open the app's own deep links.
    originWhitelist: ['*'],
  });
}
