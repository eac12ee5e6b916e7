// payroll-link/testing's webhookRequest() (#52): the request the service would send, posted to the package's own
// receiver (createWebhookHandler), as an app's unit test of its `onEvent` does. No network: the handler takes the
// Request as it is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWebhookHandler, type WebhookEvent } from '../../src/server/index.js';
import { ScriptError, webhookRequest } from '../../src/testing/index.js';

const SECRET = 'test-webhook-secret-0123456789';
const RECEIVER = `https://app.test/api/webhooks?secret=${SECRET}`;
const ACCOUNT = '3f1a0b62-8e4d-4c1b-9a57-6b2d8e0f4c19';

test('a request the receiver takes: onEvent once with the typed event; the same eventId again answered as a duplicate', async () => {
  const seen: WebhookEvent[] = [];
  const handler = createWebhookHandler({
    secret: SECRET,
    onEvent: (event) => void seen.push(event),
    log: { info() {}, warn() {}, error() {} },
  });
  const first = webhookRequest(RECEIVER, 'account.added', { account_id: ACCOUNT, end_user_id: 'user-1' });
  assert.equal(first.method, 'POST');
  assert.equal(first.headers.get('content-type'), 'application/json');
  const { event_id: eventId } = (await first.clone().json()) as { event_id: string };
  const answer = await handler(first);
  assert.equal(answer.status, 200);
  assert.deepEqual(await answer.json(), { received: true, duplicate: false });
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.event, 'account.added');
  assert.equal(seen[0]!.event_id, eventId);
  assert.deepEqual(seen[0]!.payload, { account_id: ACCOUNT, end_user_id: 'user-1' });

  const again = await handler(webhookRequest(RECEIVER, 'account.added', { account_id: ACCOUNT }, { eventId }));
  assert.deepEqual(await again.json(), { received: true, duplicate: true });
  assert.equal(seen.length, 1, 'onEvent ran once for the event delivered twice');

  const other = await handler(webhookRequest(RECEIVER, 'paystubs.added', { account_id: ACCOUNT }));
  assert.deepEqual(await other.json(), { received: true, duplicate: false });
  assert.equal(seen.length, 2, 'a fresh event_id by default');
});

test("the secret is the URL's as registered: a receiver URL without it is refused by the receiver", async () => {
  const handler = createWebhookHandler({ secret: SECRET, onEvent: () => {}, log: { info() {}, warn() {}, error() {} } });
  const answer = await handler(webhookRequest('https://app.test/api/webhooks', 'account.added', { account_id: ACCOUNT }));
  assert.equal(answer.status, 401);
});

test('what the service would never send is refused before any request: a payload off the schema, a bad URL or event id', () => {
  assert.throws(
    // @ts-expect-error -- account_id is required by the receiver's schema
    () => webhookRequest(RECEIVER, 'account.added', {}),
    (error: Error) =>
      error instanceof ScriptError && /account\.added does not fit the receiver's schema: payload\.account_id/.test(error.message),
  );
  assert.throws(() => webhookRequest(RECEIVER, 'account.added', { account_id: 'nope' }), /payload\.account_id/);
  assert.throws(() => webhookRequest(RECEIVER, 'account.added', { account_id: ACCOUNT }, { eventId: 'not-a-uuid' }), /event_id/);
  assert.throws(() => webhookRequest('ftp://app.test/hook', 'account.added', { account_id: ACCOUNT }), /not an http\(s\) URL/);
  // @ts-expect-error -- not an event the spec lists
  assert.throws(() => webhookRequest(RECEIVER, 'account.deleted', { account_id: ACCOUNT }), ScriptError);
});
