/**
 * `payroll-link/react-native` (#42, #48), from the packed package, as a React Native app's own Jest tests would use
 * it: the launch page's bridge messages (made by the page's own sender, `createLaunchBridgeSender`, from the URL the
 * view loaded) become the callbacks, once each; malformed, foreign-origin, unsigned and re-sent messages are
 * ignored; `open-url` goes to `Linking.openURL`; `launch-done` calls `onDone` and ends the view; the WebView stays
 * on the launch's origin and the Link page's.
 */
import { act, render, screen } from '@testing-library/react-native';
import * as React from 'react';
import { Linking } from 'react-native';
import { createLaunchBridgeSender } from 'payroll-link/core';
import { PayrollLinkView } from 'payroll-link/react-native';

/** What the fake WebView was last rendered with (the test fires its onMessage as the native side would). */
type RecordedProps = {
  source: { uri: string };
  style?: unknown;
  onMessage?: (event: { nativeEvent: { url: string; data: string } }) => void;
  onShouldStartLoadWithRequest?: (request: { url: string; isTopFrame: boolean }) => boolean;
  originWhitelist?: string[];
};

// A fake of what is outside the system under test: react-native-webview's WebView is a native view that Jest cannot
// run. This stand-in renders a plain View (testID "webview") and records the props it gets, so that the test can see
// what the component loads and deliver messages through its onMessage as { nativeEvent: { url, data } }, the shape
// react-native-webview hands over.
jest.mock('react-native-webview', () => {
  const { View } = jest.requireActual<typeof import('react-native')>('react-native');
  const ReactActual = jest.requireActual<typeof import('react')>('react');
  const renders: RecordedProps[] = [];
  const WebView = (props: RecordedProps) => {
    renders.push(props);
    return ReactActual.createElement(View, { testID: 'webview' });
  };
  return { WebView, default: WebView, renders };
});

const { renders } = jest.requireMock<{ renders: RecordedProps[] }>('react-native-webview');

const LAUNCH_URL = 'https://app.example.com/link/AbC123sealed';
/** The page's URL as the WebView reports it with each message: the launch URL, its fragment gone (the page took it). */
const PAGE_URL = 'https://app.example.com/link/AbC123sealed';
/** The origin of the Link page the launch page frames, as the page's first message names it. */
const LINK_ORIGIN = 'https://link.service.example';

const uuid = (n: number) => `8f14e45f-ceea-467f-a0e6-bd6b2e8a5f1${n}`;

/** The launch page the view loaded: its sender, from the URL the WebView was given (the nonce in its fragment). */
function loadedPage() {
  const uri = renders.at(-1)?.source.uri;
  if (!uri) throw new Error('the WebView was not rendered');
  return createLaunchBridgeSender(uri);
}
/** The sender of the page the view loaded (set by show()). Untyped here, so that the tests can send what fails the schemas too. */
let page: (event: string, detail: unknown) => string;
/** A message as the launch page sends it: signed with the view's nonce, numbered after the page's earlier ones. */
const message = (event: string, detail: unknown) => page(event, detail);

/** One valid detail per element event, as the launch page posts them (the package's schemas). */
const DETAILS = {
  'link-open': { linkTokenId: uuid(1) },
  'link-login': { accountId: uuid(2), platformId: uuid(3), linkTokenId: uuid(1) },
  'link-success': {
    accountId: uuid(2),
    platformId: uuid(3),
    jobId: uuid(4),
    job: 'direct_deposit_switch',
    params: {},
    linkTokenId: uuid(1),
  },
  'link-error': { type: 'invalidCredentials', code: 'INVALID_CREDENTIALS', message: 'Wrong password', pendingRetry: true },
  'link-exit': { reason: 'completed', error: null, linkTokenId: uuid(1), accountId: uuid(2) },
  'link-event': {
    name: 'select_employer',
    payload: { selectedEmployerId: '6b1e0c8a-3f2d-4c1b-9a7e-2d5f8c9b0a11', selectedEmployerName: 'Acme' },
    typed: true,
  },
} as const;

/** The callback an element event calls, by the rule the docs give: `link-success` is `onSuccess`. */
const callbackOf = (event: string) => `on${event[5]!.toUpperCase()}${event.slice(6)}` as keyof ReturnType<typeof callbacks>;

function callbacks() {
  return {
    onOpen: jest.fn(),
    onLogin: jest.fn(),
    onSuccess: jest.fn(),
    onError: jest.fn(),
    onExit: jest.fn(),
    onEvent: jest.fn(),
    onDone: jest.fn(),
  };
}

/** The native side posting one message: the WebView's onMessage with the page's URL and the string. */
async function post(data: string, url = PAGE_URL): Promise<void> {
  const onMessage = renders.at(-1)?.onMessage;
  if (!onMessage) throw new Error('the WebView was not rendered with onMessage');
  await act(() => onMessage({ nativeEvent: { url, data } }));
}

/** Renders the view and loads its page: the page's sender is the one of the URL the view gave the WebView. */
async function show(element: React.ReactElement) {
  const view = await render(element);
  page = loadedPage() as typeof page;
  return view;
}

/** The WebView asking the view about a navigation, as react-native-webview does: true lets it load. */
function navigate(url: string, isTopFrame = true): boolean {
  const ask = renders.at(-1)?.onShouldStartLoadWithRequest;
  if (!ask) throw new Error('the WebView was not rendered with onShouldStartLoadWithRequest');
  return ask({ url, isTopFrame });
}

/** Node's process, which Jest's environment has; a React Native app's types do not declare it. */
declare const process: {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): void;
  off(event: 'unhandledRejection', listener: (reason: unknown) => void): void;
};

let openURL: jest.SpiedFunction<typeof Linking.openURL>;

beforeEach(() => {
  renders.length = 0;
  openURL = jest.spyOn(Linking, 'openURL').mockResolvedValue(undefined);
});
afterEach(() => openURL.mockRestore());

test('it loads the launch URL with a nonce of its own in the fragment, in the WebView with the given style', async () => {
  await show(<PayrollLinkView url={LAUNCH_URL} style={{ flex: 1 }} />);
  expect(screen.getByTestId('webview')).toBeTruthy();
  expect(renders.at(-1)?.source.uri).toMatch(/^https:\/\/app\.example\.com\/link\/AbC123sealed#payroll-link-bridge=[0-9a-f]{32}$/);
  expect(renders.at(-1)?.style).toEqual({ flex: 1 });
});

test('each element message calls its callback once, with the plain detail, and no other callback', async () => {
  const props = callbacks();
  await show(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  for (const [event, detail] of Object.entries(DETAILS)) await post(message(event, detail));
  for (const [event, detail] of Object.entries(DETAILS)) {
    const callback = props[callbackOf(event)];
    expect(callback).toHaveBeenCalledTimes(1);
    expect(callback).toHaveBeenCalledWith(detail);
  }
  expect(props.onDone).not.toHaveBeenCalled();
  expect(openURL).not.toHaveBeenCalled();
  // The page sending the same event again is a second message (link-event repeats in a flow): a second call.
  await post(message('link-event', DETAILS['link-event']));
  expect(props.onEvent).toHaveBeenCalledTimes(2);
});

test('in StrictMode too, each message calls its callback once', async () => {
  const props = callbacks();
  await show(
    <React.StrictMode>
      <PayrollLinkView url={LAUNCH_URL} {...props} />
    </React.StrictMode>,
  );
  await post(message('link-success', DETAILS['link-success']));
  await post(message('launch-done', { status: 'success', redirect: null }));
  expect(props.onSuccess).toHaveBeenCalledTimes(1);
  expect(props.onDone).toHaveBeenCalledTimes(1);
  expect(screen.queryByTestId('webview')).toBeNull();
});

test('a message reaches the callbacks of the latest render', async () => {
  const first = callbacks();
  const second = callbacks();
  const view = await show(<PayrollLinkView url={LAUNCH_URL} {...first} />);
  await view.rerender(<PayrollLinkView url={LAUNCH_URL} {...second} />);
  await post(message('link-success', DETAILS['link-success']));
  expect(first.onSuccess).not.toHaveBeenCalled();
  expect(second.onSuccess).toHaveBeenCalledTimes(1);
});

test('malformed messages and messages from another origin are ignored, and nothing throws', async () => {
  const props = callbacks();
  await show(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  const valid = message('link-success', DETAILS['link-success']);
  const malformed = [
    'not json',
    '',
    JSON.stringify({ source: 'someone-else', event: 'link-success', detail: DETAILS['link-success'] }),
    JSON.stringify({ source: 'payroll-link', event: 'link-success', detail: DETAILS['link-success'] }),
    message('link-ready', { linkUrl: 'https://link.service.example/link' }),
    message('link-success', { accountId: 'not-a-uuid' }),
    message('link-hijack', {}),
    message('launch-done', { status: 'maybe', redirect: null }),
    message('open-url', { url: 'javascript:alert(1)' }),
    'x'.repeat(70_000),
  ];
  for (const data of malformed) await post(data);
  // A valid message, from a page that is not the launch's: another site, a look-alike host, the same host over
  // http or on another port, user info before the host, or no http(s) URL at all.
  for (const url of [
    'https://evil.example/link/AbC123sealed',
    'https://app.example.com.evil.example/link/AbC123sealed',
    'http://app.example.com/link/AbC123sealed',
    'https://app.example.com:8443/link/AbC123sealed',
    'https://app.example.com@evil.example/link',
    'about:blank',
    '',
  ]) {
    await post(valid, url);
    await post(message('open-url', { url: 'https://login.example.com/oauth' }), url);
    await post(message('launch-done', { status: 'success', redirect: null }), url);
  }
  for (const callback of Object.values(props)) expect(callback).not.toHaveBeenCalled();
  expect(openURL).not.toHaveBeenCalled();
  expect(screen.getByTestId('webview')).toBeTruthy();
  // The same origin written differently (upper case, the default port) is the launch's.
  await post(valid, 'HTTPS://App.Example.com:443/link/AbC123sealed');
  expect(props.onSuccess).toHaveBeenCalledTimes(1);
});

test('open-url goes to Linking.openURL, once, and to no callback', async () => {
  const props = callbacks();
  await show(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  await post(message('open-url', { url: 'https://login.example.com/oauth?x=1' }));
  expect(openURL).toHaveBeenCalledTimes(1);
  expect(openURL).toHaveBeenCalledWith('https://login.example.com/oauth?x=1');
  for (const callback of Object.values(props)) expect(callback).not.toHaveBeenCalled();
});

test('a refusal from Linking.openURL is not an unhandled rejection', async () => {
  openURL.mockRejectedValue(new Error('no app handles the URL'));
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    await show(<PayrollLinkView url={LAUNCH_URL} />);
    await post(message('open-url', { url: 'https://login.example.com/oauth' }));
    expect(openURL).toHaveBeenCalledTimes(1);
    // Let the rejected promise settle, and Node report it if nothing caught it.
    await new Promise<void>((resolve) => setImmediate(() => resolve()));
    await new Promise<void>((resolve) => setImmediate(() => resolve()));
    expect(rejections).toEqual([]);
  } finally {
    process.off('unhandledRejection', onRejection);
  }
});

test('launch-done calls onDone once with its detail, and the view ends: no WebView, nothing after it delivered', async () => {
  const props = callbacks();
  const view = await show(<PayrollLinkView url={LAUNCH_URL} style={{ flex: 1 }} {...props} />);
  await post(message('link-exit', DETAILS['link-exit']));
  const onMessage = renders.at(-1)!.onMessage!;
  const done = { status: 'success', redirect: 'com.acme.app:/payroll-done?launch_id=l1&status=success&state=s' };
  await post(message('launch-done', done));
  expect(props.onDone).toHaveBeenCalledTimes(1);
  expect(props.onDone).toHaveBeenCalledWith(done);
  expect(screen.queryByTestId('webview')).toBeNull();
  expect(view.toJSON()).toBeNull();
  // A message the WebView had queued before it went away changes nothing, nor does a navigation it asks about.
  expect(renders.at(-1)!.onShouldStartLoadWithRequest!({ url: 'https://app.example.com/payroll-done', isTopFrame: true })).toBe(false);
  await act(() => onMessage({ nativeEvent: { url: PAGE_URL, data: message('launch-done', done) } }));
  await act(() => onMessage({ nativeEvent: { url: PAGE_URL, data: message('link-success', DETAILS['link-success']) } }));
  expect(props.onDone).toHaveBeenCalledTimes(1);
  expect(props.onSuccess).not.toHaveBeenCalled();
  expect(props.onExit).toHaveBeenCalledTimes(1);
});

test('a new launch URL after launch-done shows the new launch, with a new nonce', async () => {
  const props = callbacks();
  const view = await show(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  const first = renders.at(-1)!.source.uri;
  await post(message('launch-done', { status: 'exit', redirect: null }));
  expect(screen.queryByTestId('webview')).toBeNull();
  const next = 'https://app.example.com/link/NeXt456sealed';
  await view.rerender(<PayrollLinkView url={next} {...props} />);
  expect(screen.getByTestId('webview')).toBeTruthy();
  const uri = renders.at(-1)!.source.uri;
  expect(uri.startsWith(`${next}#payroll-link-bridge=`)).toBe(true);
  expect(uri.split('#')[1]).not.toEqual(first.split('#')[1]);
  // The old page's nonce does not speak for the new launch; the new page's does, from its own first message.
  await post(message('link-open', DETAILS['link-open']), next);
  expect(props.onOpen).not.toHaveBeenCalled();
  page = loadedPage() as typeof page;
  await post(message('link-open', DETAILS['link-open']), next);
  expect(props.onOpen).toHaveBeenCalledTimes(1);
});

test('review finding 1: a frame message without the nonce is refused, though it reports the launch URL', async () => {
  const props = callbacks();
  await show(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  // What a frame can send on Android's JavaScript-interface fallback, which reports the top frame's URL for it.
  const frame = createLaunchBridgeSender(LAUNCH_URL) as typeof page;
  await post(frame('link-success', DETAILS['link-success']));
  await post(frame('open-url', { url: 'https://evil.example/phish' }));
  await post(frame('launch-done', { status: 'success', redirect: null }));
  for (const callback of Object.values(props)) expect(callback).not.toHaveBeenCalled();
  expect(openURL).not.toHaveBeenCalled();
  expect(screen.getByTestId('webview')).toBeTruthy();
});

test('review finding 1: a frame message with a wrong nonce is refused', async () => {
  const props = callbacks();
  await show(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  const guessed = createLaunchBridgeSender(`${LAUNCH_URL}#payroll-link-bridge=${'0'.repeat(32)}`) as typeof page;
  await post(guessed('link-success', DETAILS['link-success']));
  await post(guessed('open-url', { url: 'https://evil.example/phish' }));
  await post(guessed('launch-done', { status: 'success', redirect: null }));
  for (const callback of Object.values(props)) expect(callback).not.toHaveBeenCalled();
  expect(openURL).not.toHaveBeenCalled();
  // The page's own message, signed with the view's nonce, goes through.
  await post(message('link-success', DETAILS['link-success']));
  expect(props.onSuccess).toHaveBeenCalledTimes(1);
});

test('review finding 1: a message posted again (the same seq) is delivered once', async () => {
  const props = callbacks();
  await show(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  const success = message('link-success', DETAILS['link-success']);
  const exit = message('link-exit', DETAILS['link-exit']);
  const opened = message('open-url', { url: 'https://login.example.com/oauth' });
  for (const data of [success, success, exit, exit, success, opened, opened]) await post(data);
  expect(props.onSuccess).toHaveBeenCalledTimes(1);
  expect(props.onExit).toHaveBeenCalledTimes(1);
  expect(openURL).toHaveBeenCalledTimes(1);
  // A retried error is a new message of the page's, with its own number: it arrives.
  await post(message('link-error', DETAILS['link-error']));
  await post(message('link-error', DETAILS['link-error']));
  expect(props.onError).toHaveBeenCalledTimes(2);
});

test('review finding 1: navigation stays on the launch origin, and on the Link origin the page names', async () => {
  await show(<PayrollLinkView url={LAUNCH_URL} />);
  expect(navigate(renders.at(-1)!.source.uri)).toBe(true);
  expect(navigate('https://app.example.com/link/AbC123sealed/token')).toBe(true);
  await post(message('launch-start', { linkOrigin: LINK_ORIGIN }));
  // Android asks about the Link frame's own navigations as if they were the page's: they load.
  expect(navigate(`${LINK_ORIGIN}/link?step=2`)).toBe(true);
  expect(navigate(`${LINK_ORIGIN}/link?step=2`, false)).toBe(true);
  expect(openURL).not.toHaveBeenCalled();
});

test('review finding 1: other https navigation goes to Linking.openURL and is refused in the WebView', async () => {
  await show(<PayrollLinkView url={LAUNCH_URL} />);
  // A launch-start from a frame (no nonce) names no origin.
  await post((createLaunchBridgeSender(LAUNCH_URL) as typeof page)('launch-start', { linkOrigin: 'https://evil.example' }));
  expect(navigate('https://evil.example/phish')).toBe(false);
  expect(openURL).toHaveBeenCalledTimes(1);
  expect(openURL).toHaveBeenCalledWith('https://evil.example/phish');
  // Before the page named it, the Link origin is another site too.
  expect(navigate(`${LINK_ORIGIN}/link`)).toBe(false);
  expect(openURL).toHaveBeenCalledTimes(2);
});

test("review finding 1: any other navigation is refused and opened nowhere, past react-native-webview's own origin list too", async () => {
  await show(<PayrollLinkView url={LAUNCH_URL} />);
  const canOpenURL = jest.spyOn(Linking, 'canOpenURL').mockResolvedValue(true);
  try {
    // react-native-webview's own gate, as its WebView runs it with the props it got: a URL outside originWhitelist
    // goes to Linking.openURL before onShouldStartLoadWithRequest is asked.
    const { createOnShouldStartLoadWithRequest } = jest.requireActual<{
      createOnShouldStartLoadWithRequest: (
        load: (shouldStart: boolean, url: string) => void,
        originWhitelist: readonly string[] | undefined,
        onShouldStartLoadWithRequest: RecordedProps['onShouldStartLoadWithRequest'],
      ) => (event: { nativeEvent: { url: string; isTopFrame: boolean; lockIdentifier: number } }) => void;
    }>('react-native-webview/lib/WebViewShared');
    const { originWhitelist, onShouldStartLoadWithRequest } = renders.at(-1)!;
    const decisions: Array<[string, boolean]> = [];
    const gate = createOnShouldStartLoadWithRequest(
      (shouldStart, url) => decisions.push([url, shouldStart]),
      originWhitelist ?? ['http://*', 'https://*'],
      onShouldStartLoadWithRequest,
    );
    const refused = [
      'com.acme.app:/payroll-done?launch_id=l1&status=success&state=s',
      'intent://pay#Intent;scheme=upi;end',
      'javascript:alert(1)',
      'http://evil.example/',
      'data:text/html,<p>hi</p>',
      'about:blank',
    ];
    for (const url of refused) gate({ nativeEvent: { url, isTopFrame: true, lockIdentifier: 1 } });
    // Let react-native-webview's canOpenURL().then(openURL) run, had it taken any of them.
    await new Promise<void>((resolve) => setImmediate(() => resolve()));
    await new Promise<void>((resolve) => setImmediate(() => resolve()));
    expect(decisions).toEqual(refused.map((url) => [url, false]));
    expect(openURL).not.toHaveBeenCalled();
  } finally {
    canOpenURL.mockRestore();
  }
});

test('review finding 1: open-url opens https only (and http on loopback: the sandbox)', async () => {
  await show(<PayrollLinkView url={LAUNCH_URL} />);
  for (const url of [
    'http://login.example.com/oauth',
    'javascript:alert(1)',
    'com.acme.app:/x',
    'intent://x#Intent;end',
    'ftp://x.example/',
  ])
    await post(message('open-url', { url }));
  expect(openURL).not.toHaveBeenCalled();
  await post(message('open-url', { url: 'http://127.0.0.1:4010/oauth' }));
  await post(message('open-url', { url: 'https://login.example.com/oauth' }));
  expect(openURL.mock.calls).toEqual([['http://127.0.0.1:4010/oauth'], ['https://login.example.com/oauth']]);
});
