/**
 * `payroll-link/react-native` (#42), from the packed package, as a React Native app's own Jest tests would use it:
 * the launch page's bridge messages become the callbacks, once each; malformed and foreign-origin messages are
 * ignored; `open-url` goes to `Linking.openURL`; `launch-done` calls `onDone` and ends the view.
 */
import { act, render, screen } from '@testing-library/react-native';
import * as React from 'react';
import { Linking } from 'react-native';
import { PayrollLinkView } from 'payroll-link/react-native';

/** What the fake WebView was last rendered with (the test fires its onMessage as the native side would). */
type RecordedProps = {
  source: { uri: string };
  style?: unknown;
  onMessage?: (event: { nativeEvent: { url: string; data: string } }) => void;
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
/** The page's URL as the WebView reports it with each message: the launch URL, or where the page went under it. */
const PAGE_URL = 'https://app.example.com/link/AbC123sealed?lang=en';

const uuid = (n: number) => `8f14e45f-ceea-467f-a0e6-bd6b2e8a5f1${n}`;
const message = (event: string, detail: unknown) => JSON.stringify({ source: 'payroll-link', event, detail });

/** One valid detail per element event, as the launch page posts them (the package's schemas). */
const DETAILS = {
  'link-ready': { linkUrl: 'https://link.service.example/link' },
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
  'link-event': { name: 'select_employer', payload: { selectedEmployerName: 'Acme' }, typed: true },
} as const;

/** The callback an element event calls, by the rule the docs give: `link-success` is `onSuccess`. */
const callbackOf = (event: string) => `on${event[5]!.toUpperCase()}${event.slice(6)}` as keyof ReturnType<typeof callbacks>;

function callbacks() {
  return {
    onReady: jest.fn(),
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

test('it loads the launch URL in the WebView, with the given style', async () => {
  await render(<PayrollLinkView url={LAUNCH_URL} style={{ flex: 1 }} />);
  expect(screen.getByTestId('webview')).toBeTruthy();
  expect(renders.at(-1)?.source).toEqual({ uri: LAUNCH_URL });
  expect(renders.at(-1)?.style).toEqual({ flex: 1 });
});

test('each element message calls its callback once, with the plain detail, and no other callback', async () => {
  const props = callbacks();
  await render(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  for (const [event, detail] of Object.entries(DETAILS)) await post(message(event, detail));
  for (const [event, detail] of Object.entries(DETAILS)) {
    const callback = props[callbackOf(event)];
    expect(callback).toHaveBeenCalledTimes(1);
    expect(callback).toHaveBeenCalledWith(detail);
  }
  expect(props.onDone).not.toHaveBeenCalled();
  expect(openURL).not.toHaveBeenCalled();
  // The same message posted twice is two events (link-event repeats in a flow): one call per message, never more.
  await post(message('link-event', DETAILS['link-event']));
  expect(props.onEvent).toHaveBeenCalledTimes(2);
});

test('in StrictMode too, each message calls its callback once', async () => {
  const props = callbacks();
  await render(
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
  const view = await render(<PayrollLinkView url={LAUNCH_URL} {...first} />);
  await view.rerender(<PayrollLinkView url={LAUNCH_URL} {...second} />);
  await post(message('link-success', DETAILS['link-success']));
  expect(first.onSuccess).not.toHaveBeenCalled();
  expect(second.onSuccess).toHaveBeenCalledTimes(1);
});

test('malformed messages and messages from another origin are ignored, and nothing throws', async () => {
  const props = callbacks();
  await render(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  const valid = message('link-success', DETAILS['link-success']);
  const malformed = [
    'not json',
    '',
    JSON.stringify({ source: 'someone-else', event: 'link-success', detail: DETAILS['link-success'] }),
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
  await render(<PayrollLinkView url={LAUNCH_URL} {...props} />);
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
    await render(<PayrollLinkView url={LAUNCH_URL} />);
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
  const view = await render(<PayrollLinkView url={LAUNCH_URL} style={{ flex: 1 }} {...props} />);
  await post(message('link-exit', DETAILS['link-exit']));
  const onMessage = renders.at(-1)!.onMessage!;
  const done = { status: 'success', redirect: 'com.acme.app:/payroll-done?launch_id=l1&status=success&state=s' };
  await post(message('launch-done', done));
  expect(props.onDone).toHaveBeenCalledTimes(1);
  expect(props.onDone).toHaveBeenCalledWith(done);
  expect(screen.queryByTestId('webview')).toBeNull();
  expect(view.toJSON()).toBeNull();
  // A message the WebView had queued before it went away changes nothing.
  await act(() => onMessage({ nativeEvent: { url: PAGE_URL, data: message('launch-done', done) } }));
  await act(() => onMessage({ nativeEvent: { url: PAGE_URL, data: message('link-success', DETAILS['link-success']) } }));
  expect(props.onDone).toHaveBeenCalledTimes(1);
  expect(props.onSuccess).not.toHaveBeenCalled();
  expect(props.onExit).toHaveBeenCalledTimes(1);
});

test('a new launch URL after launch-done shows the new launch', async () => {
  const view = await render(<PayrollLinkView url={LAUNCH_URL} />);
  await post(message('launch-done', { status: 'exit', redirect: null }));
  expect(screen.queryByTestId('webview')).toBeNull();
  const next = 'https://app.example.com/link/NeXt456sealed';
  await view.rerender(<PayrollLinkView url={next} />);
  expect(screen.getByTestId('webview')).toBeTruthy();
  expect(renders.at(-1)?.source).toEqual({ uri: next });
});
