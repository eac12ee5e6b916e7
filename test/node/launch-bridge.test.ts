/**
 * The launch page's bridge to native apps (#42, #48): its messages parse, each with the app's nonce and its number,
 * anything else is null, nothing throws; the page's sender signs and numbers them from the launch URL's fragment.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLaunchBridgeSender, parseLaunchBridgeMessage } from '../../src/launch-bridge.js';

const uuid = () => crypto.randomUUID();
const NONCE = '0123456789abcdef0123456789abcdef';
const message = (event: string, detail: unknown, fields: Record<string, unknown> = { nonce: NONCE, seq: 1 }) =>
  JSON.stringify({ source: 'payroll-link', event, detail, ...fields });

test('each of the bridge messages parses, typed by its event, with its nonce and seq', () => {
  const success = { accountId: uuid(), platformId: uuid(), jobId: uuid(), job: 'direct_deposit_switch', params: {}, linkTokenId: uuid() };
  assert.deepEqual(parseLaunchBridgeMessage(message('link-success', success, { nonce: NONCE, seq: 3 })), {
    source: 'payroll-link',
    event: 'link-success',
    detail: success,
    nonce: NONCE,
    seq: 3,
  });
  const done = parseLaunchBridgeMessage(message('launch-done', { status: 'success', redirect: 'com.acme.app:/payroll-done?launch_id=1' }));
  assert.equal(done?.event, 'launch-done');
  assert.equal(parseLaunchBridgeMessage(message('launch-done', { status: 'exit', redirect: null }))?.event, 'launch-done');
  assert.equal(parseLaunchBridgeMessage(message('open-url', { url: 'https://login.example.com/oauth' }))?.event, 'open-url');
  assert.equal(parseLaunchBridgeMessage(message('launch-start', { linkOrigin: 'https://link.service.example' }))?.event, 'launch-start');
  assert.equal(parseLaunchBridgeMessage(message('launch-start', { linkOrigin: 'http://127.0.0.1:4010' }))?.event, 'launch-start');
  assert.equal(
    parseLaunchBridgeMessage(message('link-exit', { reason: 'user_closed', error: null, linkTokenId: null }))?.event,
    'link-exit',
  );
  const employer = { selectedEmployerId: uuid(), selectedEmployerName: 'Acme' };
  assert.equal(
    parseLaunchBridgeMessage(message('link-event', { name: 'select_employer', payload: employer, typed: true }))?.event,
    'link-event',
  );
  assert.equal(
    parseLaunchBridgeMessage(message('link-event', { name: 'newer_event', payload: { a: 1 }, typed: false }))?.event,
    'link-event',
  );
  // `typed: true` promises the payload of its name, as the element's `link-event` does: one that does not fit is no message.
  const unfit = { name: 'select_employer', payload: { selectedEmployerName: 'Acme' }, typed: true };
  assert.equal(parseLaunchBridgeMessage(message('link-event', unfit)), null);
  // A page shown without a nonce (a browser, an app that set none) sends null: the message parses, an app that set one refuses it.
  assert.equal(parseLaunchBridgeMessage(message('link-open', { linkTokenId: uuid() }, { nonce: null, seq: 1 }))?.nonce, null);
});

test('anything else is null: not a string, not JSON, another sender, an unknown event, a detail that fails its schema', () => {
  for (const data of [
    undefined,
    42,
    { source: 'payroll-link', event: 'launch-done', detail: { status: 'exit', redirect: null }, nonce: NONCE, seq: 1 },
    'not json',
    JSON.stringify({ source: 'someone-else', event: 'launch-done', detail: { status: 'exit', redirect: null }, nonce: NONCE, seq: 1 }),
    message('link-hijack', {}),
    message('launch-done', { status: 'maybe', redirect: null }),
    message('open-url', { url: 'javascript:alert(1)' }),
    message('link-success', { accountId: 'not-a-uuid' }),
    message('launch-start', { linkOrigin: 'https://link.service.example/link' }),
    message('launch-start', { linkOrigin: 'http://link.service.example' }),
    message('launch-start', { linkOrigin: 'javascript:alert(1)' }),
    'x'.repeat(70_000),
  ])
    assert.equal(parseLaunchBridgeMessage(data), null, String(data).slice(0, 60));
});

test('review finding 1: link-ready is no bridge message any more: the launch page has no prefetched frame to be ready', () => {
  assert.equal(parseLaunchBridgeMessage(message('link-ready', { linkUrl: 'https://link.service.example/link' })), null);
});

test('review finding 1: a message without its nonce and seq fields, or with malformed ones, is null', () => {
  const exit = { status: 'exit', redirect: null };
  for (const fields of [
    {},
    { nonce: NONCE },
    { seq: 1 },
    { nonce: NONCE, seq: 0 },
    { nonce: NONCE, seq: -1 },
    { nonce: NONCE, seq: 1.5 },
    { nonce: NONCE, seq: '1' },
    { nonce: '', seq: 1 },
    { nonce: 'short', seq: 1 },
    { nonce: 'x'.repeat(129), seq: 1 },
    { nonce: `${NONCE}&x=1`, seq: 1 },
    { nonce: 42, seq: 1 },
  ])
    assert.equal(parseLaunchBridgeMessage(message('launch-done', exit, fields)), null, JSON.stringify(fields));
});

test('open-url: https, or http on loopback only', () => {
  const open = (url: string) => parseLaunchBridgeMessage(message('open-url', { url }))?.event ?? null;
  assert.equal(open('https://login.example.com/oauth'), 'open-url');
  assert.equal(open('http://127.0.0.1:4010/oauth'), 'open-url');
  assert.equal(open('http://localhost:4010/oauth'), 'open-url');
  assert.equal(open('http://login.example.com/oauth'), null);
  assert.equal(open('http://127.0.0.1.evil.example/oauth'), null);
});

test("review finding 1: the page's sender signs each message with the fragment's nonce and numbers them from 1", () => {
  const send = createLaunchBridgeSender(`https://app.example.com/link/AbC123#payroll-link-bridge=${NONCE}`);
  const first = parseLaunchBridgeMessage(send('launch-start', { linkOrigin: 'https://link.service.example' }));
  const second = parseLaunchBridgeMessage(send('link-open', { linkTokenId: uuid() }));
  const third = parseLaunchBridgeMessage(send('link-open', { linkTokenId: uuid() }));
  assert.deepEqual(
    [first, second, third].map((parsed) => [parsed?.event, parsed?.nonce, parsed?.seq]),
    [
      ['launch-start', NONCE, 1],
      ['link-open', NONCE, 2],
      ['link-open', NONCE, 3],
    ],
  );
  // No fragment, another fragment, or a nonce the schema would refuse: null, never a value the app did not give.
  for (const url of [
    'https://app.example.com/link/AbC123',
    'https://app.example.com/link/AbC123#top',
    'https://app.example.com/link/AbC123#payroll-link-bridge=short',
    'https://app.example.com/link/AbC123#payroll-link-bridge=',
  ])
    assert.equal(parseLaunchBridgeMessage(createLaunchBridgeSender(url)('link-open', { linkTokenId: uuid() }))?.nonce, null, url);
});
