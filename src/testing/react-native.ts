/**
 * `payroll-link/testing/react-native`: an app's Jest tests of a screen that shows `PayrollLinkView`.
 * `react-native-webview` is replaced at its boundary by {@link WebViewMock} (one `jest.mock` line, with
 * {@link webViewModule}), and {@link simulateLaunch} plays the launch page's bridge messages into the view: made by the
 * page's own sender and checked by the bridge's schema, from a scripted session that moves by the real session's
 * table. The view's own guard is untouched: it takes them as it would the real page's. Never in a production bundle:
 * nothing of the package imports it.
 */
import * as React from 'react';
import { View } from 'react-native';
import type { WebViewMessageEvent, WebViewProps } from 'react-native-webview';
import { ScriptError } from './script-error.js';
import { SimulatedLaunchPage, type SimulatedLaunch, type SimulatedLaunchOptions } from './simulated-launch-page.js';

export { ScriptError } from './script-error.js';
export type { SimulatedConnection, SimulatedEnd, SimulatedLaunch, SimulatedLaunchOptions } from './simulated-launch-page.js';
export type { ScriptedErrorCode, ScriptedExit } from './mock-link.js';

/** The `testID` of the View that {@link WebViewMock} renders: `screen.queryByTestId(WEB_VIEW_MOCK_TEST_ID)` finds the WebView. */
export const WEB_VIEW_MOCK_TEST_ID = 'payroll-link-web-view';

/** One WebViewMock on screen: the props it was last rendered with, and the launch page simulated in it, if any. */
interface ShownWebView {
  props: WebViewProps;
  launch?: { uri: string; page: SimulatedLaunchPage; options: SimulatedLaunchOptions | undefined };
}

/** The WebViewMocks on screen now, in the order they mounted. */
const shown = new Set<ShownWebView>();

/**
 * A stand-in of react-native-webview's `WebView` for Jest, which cannot run the native view: it renders a plain
 * `View` (`testID` {@link WEB_VIEW_MOCK_TEST_ID}, the WebView's `style`) and records the props it was rendered with
 * (`source`, `onMessage`, `onShouldStartLoadWithRequest`, `originWhitelist`…), which {@link simulateLaunch} plays
 * into. Install it with {@link webViewModule}.
 *
 * @example
 * ```tsx
 * jest.mock('react-native-webview', () => jest.requireActual('payroll-link/testing/react-native').webViewModule);
 * ```
 */
export function WebViewMock(props: WebViewProps): React.JSX.Element {
  const [view] = React.useState<ShownWebView>(() => ({ props }));
  // The props as last committed: a render React throws away must not leave its callbacks behind.
  React.useLayoutEffect(() => {
    view.props = props;
  });
  React.useLayoutEffect(() => {
    shown.add(view);
    return () => void shown.delete(view);
  }, [view]);
  return React.createElement(View, { testID: WEB_VIEW_MOCK_TEST_ID, style: props.style });
}

/**
 * What `react-native-webview` is in a test: {@link WebViewMock} as its `WebView` (named and default), for `jest.mock`.
 * `jest.requireActual` in the factory, because Jest hoists `jest.mock` above the imports and lets its factory
 * reach no variable of the file's.
 *
 * @example
 * ```tsx
 * jest.mock('react-native-webview', () => jest.requireActual('payroll-link/testing/react-native').webViewModule);
 * ```
 */
export const webViewModule = { __esModule: true, WebView: WebViewMock, default: WebViewMock } as const;

/** The URL the WebView was given (the launch URL, the view's nonce in its fragment), or null for an HTML source. */
function sourceUri({ source }: WebViewProps): string | null {
  return source && 'uri' in source && typeof source.uri === 'string' ? source.uri : null;
}

/**
 * Runs a play inside React's `act` (React 18.3 and later export it), so that the screen's updates are applied when it
 * resolves, as Testing Library's own actions do; older React runs it as it is.
 */
async function inAct<T>(play: () => Promise<T>): Promise<T> {
  const act = (React as { act?: (callback: () => Promise<void>) => Promise<void> }).act;
  if (typeof act !== 'function') return play();
  let result: T;
  await act(async () => {
    result = await play();
  });
  return result!;
}

/** The one WebViewMock on screen, for `what`; a {@link ScriptError} when there is none, or more than one. */
function shownWebView(what: string): ShownWebView {
  const views = [...shown];
  if (views.length === 1) return views[0]!;
  throw new ScriptError(
    views.length === 0
      ? `${what}: no WebViewMock is on screen: render the screen that shows PayrollLinkView first, with jest.mock('react-native-webview', () => jest.requireActual('payroll-link/testing/react-native').webViewModule).`
      : `${what}: ${views.length} WebViewMocks are on screen: show one PayrollLinkView at a time.`,
  );
}

/**
 * The props the WebViewMock on screen was last rendered with: what `PayrollLinkView` gives the WebView (`source`
 * with its nonce, `onMessage`, `onShouldStartLoadWithRequest`, `originWhitelist`), to assert on or to call as the
 * native side would (a navigation the WebView asks about, a message from another frame). Throws a
 * {@link ScriptError} when no WebViewMock, or more than one, is on screen.
 *
 * @example
 * ```tsx
 * expect(webViewMockProps().onShouldStartLoadWithRequest?.({ url: 'https://evil.example/', isTopFrame: true } as never)).toBe(false);
 * ```
 */
export function webViewMockProps(): Readonly<WebViewProps> {
  return shownWebView('webViewMockProps').props;
}

/**
 * The launch page in the WebViewMock on screen (the one `PayrollLinkView` renders), loaded: its first message
 * (`launch-start`) is delivered now, and each play posts the messages the real page would, in its order, signed with
 * the nonce of the URL the view gave the WebView, numbered, and delivered with the page's URL (its fragment gone, as
 * the page takes it out) through the WebView's `onMessage`, inside React's `act`. The same launch again for the same
 * view and URL. Throws a {@link ScriptError} when no WebViewMock, or more than one, is on screen.
 *
 * @example
 * ```tsx
 * await render(<ConnectPayrollScreen launchUrl={LAUNCH_URL} />);
 * const { success } = await simulateLaunch().connect();
 * expect(saved).toEqual({ accountId: success.accountId, jobId: success.jobId });
 * ```
 */
export function simulateLaunch(options?: SimulatedLaunchOptions): SimulatedLaunch {
  const view = shownWebView('simulateLaunch');
  const uri = sourceUri(view.props);
  if (uri === null) throw new ScriptError('simulateLaunch: the WebViewMock on screen was given no source URI: is it PayrollLinkView?');
  if (view.launch?.uri === uri) {
    if (options && JSON.stringify(options) !== JSON.stringify(view.launch.options))
      throw new ScriptError('simulateLaunch: this launch was simulated with other options: give them at its first simulateLaunch() call.');
    return view.launch.page;
  }
  // The page's address once it has read its nonce: the URL it reports with each message (react-native-webview 13.13.1+).
  const pageUrl = uri.split('#')[0]!;
  const deliver = (data: string) => {
    if (!shown.has(view)) throw new ScriptError('simulateLaunch: the WebView is no longer on screen: the launch page cannot post to it.');
    view.props.onMessage?.({ nativeEvent: { url: pageUrl, data } } as WebViewMessageEvent);
  };
  const page = new SimulatedLaunchPage(uri, deliver, inAct, options);
  view.launch = { uri, page, options };
  return page;
}
