/** The launch page's bridge to native apps (#42): its messages parse, anything else is null, nothing throws. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseLaunchBridgeMessage } from '../../src/launch-bridge.js';

const uuid = () => crypto.randomUUID();
const message = (event: string, detail: unknown) => JSON.stringify({ source: 'payroll-link', event, detail });

test('each of the bridge messages parses, typed by its event', () => {
  const success = { accountId: uuid(), platformId: uuid(), jobId: uuid(), job: 'direct_deposit_switch', params: {}, linkTokenId: uuid() };
  assert.deepEqual(parseLaunchBridgeMessage(message('link-success', success)), {
    source: 'payroll-link',
    event: 'link-success',
    detail: success,
  });
  const done = parseLaunchBridgeMessage(message('launch-done', { status: 'success', redirect: 'com.acme.app:/payroll-done?launch_id=1' }));
  assert.equal(done?.event, 'launch-done');
  assert.equal(parseLaunchBridgeMessage(message('launch-done', { status: 'exit', redirect: null }))?.event, 'launch-done');
  assert.equal(parseLaunchBridgeMessage(message('open-url', { url: 'https://login.example.com/oauth' }))?.event, 'open-url');
  assert.equal(
    parseLaunchBridgeMessage(message('link-exit', { reason: 'user_closed', error: null, linkTokenId: null }))?.event,
    'link-exit',
  );
  assert.equal(
    parseLaunchBridgeMessage(message('link-event', { name: 'select_employer', payload: { selectedEmployerName: 'Acme' }, typed: true }))
      ?.event,
    'link-event',
  );
});

test('anything else is null: not a string, not JSON, another sender, an unknown event, a detail that fails its schema', () => {
  for (const data of [
    undefined,
    42,
    { source: 'payroll-link', event: 'launch-done', detail: { status: 'exit', redirect: null } },
    'not json',
    JSON.stringify({ source: 'someone-else', event: 'launch-done', detail: { status: 'exit', redirect: null } }),
    message('link-hijack', {}),
    message('launch-done', { status: 'maybe', redirect: null }),
    message('open-url', { url: 'javascript:alert(1)' }),
    message('link-success', { accountId: 'not-a-uuid' }),
    'x'.repeat(70_000),
  ])
    assert.equal(parseLaunchBridgeMessage(data), null, String(data).slice(0, 60));
});

test('open-url: https, or http on loopback only', () => {
  const open = (url: string) => parseLaunchBridgeMessage(message('open-url', { url }))?.event ?? null;
  assert.equal(open('https://login.example.com/oauth'), 'open-url');
  assert.equal(open('http://127.0.0.1:4010/oauth'), 'open-url');
  assert.equal(open('http://localhost:4010/oauth'), 'open-url');
  assert.equal(open('http://login.example.com/oauth'), null);
  assert.equal(open('http://127.0.0.1.evil.example/oauth'), null);
});
