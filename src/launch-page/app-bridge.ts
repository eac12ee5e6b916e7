/**
 * The launch page's side of its bridge to the app that shows it (the contract is src/launch-bridge.ts). Imported
 * right after page-setup.ts, before the element: it reads the app's nonce from the page's fragment and takes it out
 * of the address before any other module runs, so that nothing else on the page can read it or carry it on (a
 * shared or reloaded address, the history).
 */
import { createLaunchBridgeSender, LAUNCH_BRIDGE_NONCE_PARAM, type LaunchBridgeDetail, type LaunchBridgeEvent } from '../launch-bridge.js';

/** The app's side of the bridge, whichever is there: React Native, WKWebView, an Android WebView's listener. */
interface BridgeScope {
  ReactNativeWebView?: { postMessage(message: string): void };
  webkit?: { messageHandlers?: { payrollLink?: { postMessage(message: string): void } } };
  PayrollLinkAndroid?: { postMessage(message: string): void };
}
const scope = window as unknown as BridgeScope;
const bridges = [scope.ReactNativeWebView, scope.webkit?.messageHandlers?.payrollLink, scope.PayrollLinkAndroid].filter(
  (bridge) => bridge !== undefined,
);

const message = createLaunchBridgeSender(location.href);
if (new URLSearchParams(location.hash.slice(1)).has(LAUNCH_BRIDGE_NONCE_PARAM))
  history.replaceState(history.state, '', location.pathname + location.search);

/** Whether an app shows the page (a WebView with one of the bridges), rather than a browser. */
export const inApp = bridges.length > 0;

/** Posts one message to the app that shows the page, if any; a bridge that throws is the app's problem, not the flow's. */
export function toApp<E extends LaunchBridgeEvent>(event: E, detail: LaunchBridgeDetail<E>): void {
  if (!inApp) return;
  const data = message(event, detail);
  for (const bridge of bridges) {
    try {
      bridge.postMessage(data);
    } catch {
      // Nothing to do: the page goes on.
    }
  }
}
