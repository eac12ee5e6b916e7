/**
 * Resending an event (`POST /sandbox/events/{event_id}/resend`): the sandbox delivers the same envelope,
 * same `event_id`, again, as the service's retries would, and a real `createWebhookHandler` of
 * `payroll-link/server` on loopback (memory store) answers it as a duplicate. Nothing is faked: the
 * receiver is the package's own handler, wrapped only to record its answers.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { createWebhookHandler, type WebhookEvent } from 'payroll-link/server';
import { toNodeHandler } from 'payroll-link/server/node';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import type { SandboxWebhookEvent } from '../../sandbox/state/resources.js';
import { api, assertError, startTestSandbox } from './sandbox-test-client.js';

const WEBHOOK_SECRET = 'whsec_test_resend_0123456789';

/** The app's webhook route: the real handler, each answer's body recorded. */
const startReceiver = async () => {
  const handled: WebhookEvent[] = [];
  const answers: unknown[] = [];
  const bodies: string[] = [];
  const handler = createWebhookHandler({
    secret: WEBHOOK_SECRET,
    onEvent: (event) => void handled.push(event),
    log: { info() {}, warn() {}, error() {} },
  });
  const recording = async (request: Request): Promise<Response> => {
    bodies.push(await request.clone().text());
    const response = await handler(request);
    answers.push(await response.clone().json());
    return response;
  };
  const server = createServer(toNodeHandler(recording));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks?secret=${WEBHOOK_SECRET}`,
    handled,
    answers,
    bodies,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
};

/** Waits until the delivery number `index` (in send order) has left `pending`. */
const settled = async (sandbox: Sandbox, index: number) => {
  const delivery = sandbox.webhooks.deliveries[index];
  assert.ok(delivery, `delivery ${index} was queued`);
  return sandbox.webhooks.whenSettled(delivery);
};

describe('sandbox: resend an event', () => {
  it('delivers the same envelope and event_id again, and the webhook handler answers duplicate: true', async () => {
    const receiver = await startReceiver();
    // Jobs never finish here: the account's account.added is the only event, so deliveries are in a known order.
    const sandbox = await startTestSandbox({ webhookUrl: receiver.url, jobDelayMs: 3_600_000 });
    try {
      const created = await api(sandbox, 'POST', '/sandbox/accounts', { body: { end_user_id: 'user-resend' } });
      assert.equal(created.status, 201, created.text);
      const [added] = created.body.data.events as SandboxWebhookEvent[];
      assert.equal((await settled(sandbox, 0)).status, 'delivered');
      assert.deepEqual(receiver.answers, [{ received: true, duplicate: false }]);

      const resent = await api(sandbox, 'POST', `/sandbox/events/${added!.event_id}/resend`);
      assert.equal(resent.status, 200, resent.text);
      assert.deepEqual(resent.body.data.events, [added]);
      assert.equal((await settled(sandbox, 1)).status, 'delivered');

      assert.deepEqual(receiver.answers[1], { received: true, duplicate: true });
      assert.equal(receiver.bodies[1], receiver.bodies[0], 'byte for byte the same envelope');
      assert.equal(receiver.handled.length, 1, 'the callback ran once');
      assert.equal(sandbox.store.events.length, 1, 'a resend is not a new event');
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });

  it('an unknown event id is 404 EVENT_NOT_FOUND, a malformed one or a body with fields 400, behind the sandbox secret', async () => {
    const sandbox = await startTestSandbox({ jobDelayMs: 3_600_000 });
    try {
      const created = await api(sandbox, 'POST', '/sandbox/accounts', { body: {} });
      const eventId = (created.body.data.events as SandboxWebhookEvent[])[0]!.event_id;
      assertError(await api(sandbox, 'POST', '/sandbox/events/00000000-0000-4000-8000-000000000000/resend'), 404, 'EVENT_NOT_FOUND');
      assertError(await api(sandbox, 'POST', '/sandbox/events/nope/resend'), 400, 'INVALID_PARAMS');
      assertError(
        await api(sandbox, 'POST', `/sandbox/events/${eventId}/resend`, { body: { event: 'account.added' } }),
        400,
        'INVALID_PARAMS',
      );
      assertError(
        await api(sandbox, 'POST', `/sandbox/events/${eventId}/resend`, { secret: 'prod_live_secret' }),
        401,
        'INVALID_API_SECRET',
      );
      assertError(await api(sandbox, 'GET', `/sandbox/events/${eventId}/resend`), 405, 'METHOD_NOT_ALLOWED');
      // An empty body and {} are both fine.
      assert.equal((await api(sandbox, 'POST', `/sandbox/events/${eventId}/resend`, { body: {} })).status, 200);
    } finally {
      await sandbox.close();
    }
  });
});
