/**
 * `payroll-link/testing/react-native` (#52), from the packed package, as an app's Jest test of its own screen uses
 * it: `WebViewMock` in place of react-native-webview's WebView (the one `jest.mock` line the docs show), and
 * `simulateLaunch()` playing the launch page's messages into the real `PayrollLinkView`. The screen is the app's
 * (app/connect-payroll-screen.tsx); what is faked is the native WebView and the page inside it, both outside the
 * system under test. The view's guard is the real one: what it would refuse from the real page it refuses here.
 */
import { act, render, screen } from '@testing-library/react-native';
import * as React from 'react';
import { Linking } from 'react-native';
import { createLaunchBridgeSender } from 'payroll-link/core';
import { PayrollLinkView } from 'payroll-link/react-native';
import { ScriptError, simulateLaunch, WEB_VIEW_MOCK_TEST_ID, webViewMockProps } from 'payroll-link/testing/react-native';
import { ConnectPayrollScreen } from '../app/connect-payroll-screen';

jest.mock('react-native-webview', () => jest.requireActual('payroll-link/testing/react-native').webViewModule);

const LAUNCH_URL = 'https://app.example.com/link/AbC123sealed';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let openURL: jest.SpiedFunction<typeof Linking.openURL>;
beforeEach(() => {
  openURL = jest.spyOn(Linking, 'openURL').mockResolvedValue(undefined);
});
afterEach(() => openURL.mockRestore());

/** Every callback of the view, as jest.fn()s. */
const callbacks = () => ({
  onOpen: jest.fn(),
  onLogin: jest.fn(),
  onSuccess: jest.fn(),
  onError: jest.fn(),
  onExit: jest.fn(),
  onEvent: jest.fn(),
  onDone: jest.fn(),
});

test('connect(): the screen saves the account and the job, and says it is connected', async () => {
  const saveAccount = jest.fn();
  await render(<ConnectPayrollScreen launchUrl={LAUNCH_URL} saveAccount={saveAccount} />);
  expect(screen.getByTestId(WEB_VIEW_MOCK_TEST_ID)).toBeTruthy();
  const { open, login, success, exit, done } = await simulateLaunch().connect();
  expect(saveAccount).toHaveBeenCalledTimes(1);
  expect(saveAccount).toHaveBeenCalledWith(success.accountId, success.jobId);
  expect(screen.getByText('Payroll connected')).toBeTruthy();
  expect(screen.queryByTestId(WEB_VIEW_MOCK_TEST_ID)).toBeNull();
  // A real session's details: one token, new UUIDs, the login's account in the success and the exit.
  for (const id of [open.linkTokenId, login.accountId, login.platformId, success.jobId]) expect(id).toMatch(UUID);
  expect(success).toEqual({ ...login, jobId: success.jobId, job: 'direct_deposit_switch', params: {} });
  expect(exit).toEqual({ reason: 'completed', error: null, linkTokenId: open.linkTokenId, accountId: login.accountId });
  expect(done).toEqual({ status: 'success', redirect: null });
});

test('connect() plays every message in the launch page order, each callback once, with the ids given', async () => {
  const props = callbacks();
  await render(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  const accountId = '0b8f4a52-3c1d-4e6f-9a7b-2c5d8e1f4a3b';
  const jobId = '9d3c1e7f-4a2b-4c8d-8e5f-1a6b3c9d2e7f';
  const order: string[] = [];
  for (const [name, callback] of Object.entries(props))
    callback.mockImplementation((detail) => order.push(name === 'onEvent' ? `onEvent:${detail.name}` : name));
  const played = await simulateLaunch({ redirect: 'com.acme.app:/payroll-done?status=success' }).connect({ accountId, jobId });
  expect(order).toEqual([
    'onOpen',
    'onEvent:open',
    'onEvent:login',
    'onLogin',
    'onEvent:success',
    'onSuccess',
    'onEvent:exit',
    'onExit',
    'onDone',
  ]);
  expect(played.success).toMatchObject({ accountId, jobId });
  expect(props.onOpen).toHaveBeenCalledWith(played.open);
  expect(props.onLogin).toHaveBeenCalledWith(played.login);
  expect(props.onSuccess).toHaveBeenCalledWith(played.success);
  expect(props.onExit).toHaveBeenCalledWith(played.exit);
  expect(props.onDone).toHaveBeenCalledWith({ status: 'success', redirect: 'com.acme.app:/payroll-done?status=success' });
  expect(props.onError).not.toHaveBeenCalled();
});

test('exit(): the screen says the user left, saves nothing, and the launch page ends with exit', async () => {
  const saveAccount = jest.fn();
  await render(<ConnectPayrollScreen launchUrl={LAUNCH_URL} saveAccount={saveAccount} />);
  const { exit, done } = await simulateLaunch().exit({ reason: 'user_closed' });
  expect(saveAccount).not.toHaveBeenCalled();
  expect(exit).toMatchObject({ reason: 'user_closed', error: null });
  expect(done).toEqual({ status: 'exit', redirect: null });
  expect(screen.getByText('Not connected (user_closed): you can try again later')).toBeTruthy();
});

test('error() then exit(): the exit carries the error, as the Link page ends a failed flow', async () => {
  await render(<ConnectPayrollScreen launchUrl={LAUNCH_URL} saveAccount={jest.fn()} />);
  const launch = simulateLaunch();
  const error = await launch.error('JOB_FAILED');
  expect(error).toMatchObject({ type: 'platformError', code: 'JOB_FAILED', pendingRetry: false });
  const { exit } = await launch.exit({ reason: 'error' });
  expect(exit.error).toEqual(error);
  expect(screen.getByText('Not connected (error: JOB_FAILED): you can try again later')).toBeTruthy();
});

test('openUrl(): the window goes to Linking.openURL, once, and the flow goes on', async () => {
  const props = callbacks();
  await render(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  const launch = simulateLaunch();
  await launch.openUrl('https://login.example.com/oauth?state=1');
  expect(openURL).toHaveBeenCalledTimes(1);
  expect(openURL).toHaveBeenCalledWith('https://login.example.com/oauth?state=1');
  expect(props.onOpen).toHaveBeenCalledTimes(1);
  // A URL the launch page never posts (the bridge's schema refuses it) is no play: it fails, and nothing is opened.
  await expect(launch.openUrl('javascript:alert(1)')).rejects.toThrow(/the bridge's schema refuses it/);
  expect(openURL).toHaveBeenCalledTimes(1);
  await launch.connect();
  expect(props.onSuccess).toHaveBeenCalledTimes(1);
});

test('out of order: a second success, and anything after the exit, fail with a clear error and post nothing', async () => {
  const props = callbacks();
  await render(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  const launch = simulateLaunch();
  await launch.success();
  await expect(launch.success()).rejects.toThrow(/simulateLaunch: a second success/);
  await launch.exit();
  expect(props.onExit).toHaveBeenCalledWith(expect.objectContaining({ reason: 'completed' }));
  await expect(launch.connect()).rejects.toThrow(
    'simulateLaunch: connect() after the launch ended (link-exit completed, then launch-done): the launch page posts nothing after it, and PayrollLinkView takes nothing.',
  );
  await expect(launch.exit()).rejects.toThrow(ScriptError);
  await expect(launch.openUrl('https://login.example.com/oauth')).rejects.toThrow(ScriptError);
  expect(props.onSuccess).toHaveBeenCalledTimes(1);
  expect(props.onExit).toHaveBeenCalledTimes(1);
  expect(props.onDone).toHaveBeenCalledTimes(1);
  // The view is gone: there is no launch to simulate any more.
  expect(() => simulateLaunch()).toThrow(/no WebViewMock is on screen/);
});

test('the stand-in is no kinder than the real page: a frame message the view refuses, it refuses here too', async () => {
  const props = callbacks();
  await render(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  const launch = simulateLaunch();
  await launch.open();
  const { onMessage, source } = webViewMockProps();
  const success = {
    accountId: '0b8f4a52-3c1d-4e6f-9a7b-2c5d8e1f4a3b',
    platformId: '5e2a9c7d-1b4f-4a8e-9c3d-6f7b2a1e8d4c',
    jobId: '9d3c1e7f-4a2b-4c8d-8e5f-1a6b3c9d2e7f',
    job: 'direct_deposit_switch',
    params: {},
    linkTokenId: '3a7e5c1b-9d2f-4b6a-8c4e-7f1d3b5a9c2e',
  };
  /** The native side posting one message through the props the view gave WebViewMock. */
  const post = (data: string, url = LAUNCH_URL) =>
    act(() => onMessage!({ nativeEvent: { url, data } } as Parameters<NonNullable<typeof onMessage>>[0]));
  // A wrong nonce, none at all, and a message signed with the view's nonce but sent from another origin.
  await post(createLaunchBridgeSender(`${LAUNCH_URL}#payroll-link-bridge=${'0'.repeat(32)}`)('link-success', success));
  await post(createLaunchBridgeSender(LAUNCH_URL)('link-success', success));
  const page = createLaunchBridgeSender((source as { uri: string }).uri);
  for (let seq = 1; seq <= 10; seq++) page('link-event', { name: 'select_employer', payload: {}, typed: false });
  const signed = page('link-success', success);
  await post(signed, 'https://evil.example/link/AbC123sealed');
  expect(props.onSuccess).not.toHaveBeenCalled();
  // Signed, numbered 11, from the launch's origin: taken once, and never again.
  await post(signed);
  await post(signed);
  expect(props.onSuccess).toHaveBeenCalledTimes(1);
  // The simulated page's next messages are numbered 4 and on: the view's seq rule drops them as it would the real page's.
  await launch.login();
  expect(props.onLogin).not.toHaveBeenCalled();
});

test("a simulated launch of another URL is refused: its messages carry the old launch's nonce", async () => {
  const props = callbacks();
  const view = await render(<PayrollLinkView url={LAUNCH_URL} {...props} />);
  const old = simulateLaunch();
  await view.rerender(<PayrollLinkView url="https://app.example.com/link/NeXt456sealed" {...props} />);
  await old.connect();
  for (const callback of Object.values(props)) expect(callback).not.toHaveBeenCalled();
  expect(screen.getByTestId(WEB_VIEW_MOCK_TEST_ID)).toBeTruthy();
  // The launch the view now shows, simulated from the URL it gave the WebView, is taken.
  await simulateLaunch().connect();
  expect(props.onSuccess).toHaveBeenCalledTimes(1);
  expect(props.onDone).toHaveBeenCalledTimes(1);
});
