/**
 * What `PayrollLinkView` lets through (#48, review finding 1), without React Native: the guard of one launch takes
 * the page's messages only with the nonce it put in the launch URL's fragment, each `seq` once, and keeps the
 * WebView on the launch's origin and the Link page's. The messages are made by the page's own sender.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLaunchBridgeSender } from '../../src/launch-bridge.js';
import { LaunchViewGuard, launchViewNonce } from '../../src/frameworks/launch-view-guard.js';

const LAUNCH_URL = 'https://app.example.com/link/AbC123sealed';
const LINK_ORIGIN = 'https://link.service.example';
const open = { linkTokenId: '8f14e45f-ceea-467f-a0e6-bd6b2e8a5f11' };

/** A guard, and the page it loaded: the page's sender made from the URL the view gave the WebView. */
function launch() {
  const guard = new LaunchViewGuard(LAUNCH_URL, launchViewNonce());
  return { guard, page: createLaunchBridgeSender(guard.uri) };
}
const from = (data: string, url = LAUNCH_URL) => ({ url, data });

test('the WebView loads the launch URL with the nonce in its fragment, a new one for each launch', () => {
  const first = new LaunchViewGuard(LAUNCH_URL, launchViewNonce());
  const second = new LaunchViewGuard(`${LAUNCH_URL}#something`, launchViewNonce());
  assert.match(first.uri, /^https:\/\/app\.example\.com\/link\/AbC123sealed#payroll-link-bridge=[0-9a-f]{32}$/);
  assert.match(second.uri, /^https:\/\/app\.example\.com\/link\/AbC123sealed#payroll-link-bridge=[0-9a-f]{32}$/);
  assert.notEqual(first.uri.split('#')[1], second.uri.split('#')[1]);
});

test('review finding 1: a frame message without the nonce, or with a wrong one, is refused, though it reports the launch URL', () => {
  const { guard, page } = launch();
  // What a frame can send on Android's JavaScript-interface fallback, where every message reports the top frame's URL.
  const noNonce = createLaunchBridgeSender(LAUNCH_URL);
  const wrongNonce = createLaunchBridgeSender(`${LAUNCH_URL}#payroll-link-bridge=${launchViewNonce()}`);
  for (const sender of [noNonce, wrongNonce]) {
    assert.equal(guard.take(from(sender('link-success', success()))), null);
    assert.equal(guard.take(from(sender('open-url', { url: 'https://evil.example/x' }))), null);
    assert.equal(guard.take(from(sender('launch-done', { status: 'success', redirect: null }))), null);
  }
  assert.equal(guard.take(from(page('link-open', open)))?.event, 'link-open');
});

test('review finding 1: a message posted again (its seq seen) is taken once; a new message of the same event is taken', () => {
  const { guard, page } = launch();
  const event = page('link-event', {
    name: 'select_employer',
    payload: { selectedEmployerId: '6b1e0c8a-3f2d-4c1b-9a7e-2d5f8c9b0a11', selectedEmployerName: 'Acme' },
    typed: true,
  });
  assert.equal(guard.take(from(event))?.event, 'link-event');
  assert.equal(guard.take(from(event)), null);
  const later = page('link-event', {
    name: 'select_employer',
    payload: { selectedEmployerId: '6b1e0c8a-3f2d-4c1b-9a7e-2d5f8c9b0a11', selectedEmployerName: 'Acme' },
    typed: true,
  });
  const earlier = page('link-open', open);
  assert.equal(guard.take(from(earlier))?.event, 'link-open');
  // An older number, even unseen, comes too late: the page's messages arrive in order.
  assert.equal(guard.take(from(later)), null);
});

test('a message from a page of another origin is refused, with the nonce too', () => {
  const { guard, page } = launch();
  for (const url of ['https://evil.example/link', 'http://app.example.com/link', 'https://app.example.com:8443/link', 'about:blank', ''])
    assert.equal(guard.take(from(page('link-open', open), url)), null, url);
});

test('review finding 1: the top frame stays on the launch origin, the Link origin loads once the page named it', () => {
  const { guard, page } = launch();
  assert.equal(guard.navigation({ url: guard.uri, isTopFrame: true }), 'load');
  assert.equal(guard.navigation({ url: 'HTTPS://App.Example.com:443/link/other', isTopFrame: true }), 'load');
  assert.equal(guard.navigation({ url: `${LINK_ORIGIN}/link?x=1`, isTopFrame: true }), 'open');
  // launch-start from a frame (no nonce) names nothing.
  assert.equal(guard.take(from(createLaunchBridgeSender(LAUNCH_URL)('launch-start', { linkOrigin: 'https://evil.example' }))), null);
  assert.equal(guard.take(from(page('launch-start', { linkOrigin: LINK_ORIGIN }))), null, 'launch-start is the guard own');
  // Android asks about the Link frame's navigations as if they were the page's: the Link origin loads.
  assert.equal(guard.navigation({ url: `${LINK_ORIGIN}/link/step`, isTopFrame: true }), 'load');
  assert.equal(guard.navigation({ url: 'https://evil.example/phish', isTopFrame: true }), 'open');
  // A second launch-start, even the page's, names nothing new.
  assert.equal(guard.take(from(page('launch-start', { linkOrigin: 'https://evil.example' }))), null);
  assert.equal(guard.navigation({ url: 'https://evil.example/phish', isTopFrame: true }), 'open');
});

test('review finding 1: other https navigation goes to the system; anything else is refused', () => {
  const { guard } = launch();
  assert.equal(guard.navigation({ url: 'https://help.example.com/faq', isTopFrame: true }), 'open');
  for (const url of [
    'http://evil.example/',
    'com.acme.app:/payroll-done?status=success',
    'intent://scan/#Intent;scheme=zxing;end',
    'javascript:alert(1)',
    'data:text/html,<p>hi</p>',
    'about:blank',
    'file:///etc/passwd',
    'https://app.example.com@evil.example/',
  ])
    assert.equal(guard.navigation({ url, isTopFrame: true }), 'refuse', url);
});

test("a frame's own load (iOS tells it apart) stays in that frame: https and about:blank load, nothing goes to the system", () => {
  const { guard } = launch();
  assert.equal(guard.navigation({ url: 'https://captcha.example/frame', isTopFrame: false }), 'load');
  assert.equal(guard.navigation({ url: 'about:blank', isTopFrame: false }), 'load');
  assert.equal(guard.navigation({ url: 'com.acme.app:/payroll-done', isTopFrame: false }), 'refuse');
  assert.equal(guard.navigation({ url: 'http://evil.example/', isTopFrame: false }), 'refuse');
});

test('after launch-done nothing more is taken and nothing loads: the redirect is for onDone', () => {
  const { guard, page } = launch();
  assert.equal(
    guard.take(from(page('launch-done', { status: 'success', redirect: 'https://app.example.com/done' })))?.event,
    'launch-done',
  );
  assert.equal(guard.take(from(page('link-open', open))), null);
  assert.equal(guard.navigation({ url: 'https://app.example.com/done', isTopFrame: true }), 'refuse');
  assert.equal(guard.navigation({ url: 'https://elsewhere.example/', isTopFrame: true }), 'refuse');
});

test('the nonce comes from crypto.getRandomValues, never Math.random: without it the view refuses to start', (t) => {
  const nonces = new Set(Array.from({ length: 50 }, () => launchViewNonce()));
  assert.equal(nonces.size, 50);
  for (const nonce of nonces) assert.match(nonce, /^[0-9a-f]{32}$/);
  const random = t.mock.method(Math, 'random');
  const crypto = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
  Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
  try {
    assert.throws(() => launchViewNonce(), /needs crypto\.getRandomValues.*react-native-get-random-values/);
  } finally {
    Object.defineProperty(globalThis, 'crypto', crypto);
  }
  assert.equal(random.mock.callCount(), 0);
});

function success() {
  return {
    accountId: '8f14e45f-ceea-467f-a0e6-bd6b2e8a5f12',
    platformId: '8f14e45f-ceea-467f-a0e6-bd6b2e8a5f13',
    jobId: '8f14e45f-ceea-467f-a0e6-bd6b2e8a5f14',
    job: 'direct_deposit_switch',
    params: {},
    linkTokenId: open.linkTokenId,
  };
}
