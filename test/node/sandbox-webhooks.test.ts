/**
 * Webhooks: the sandbox POSTs `{ event, event_id, payload }` to the configured
 * URL, retries failures with backoff, and never makes the API wait. The
 * receiver here stands in for the integrator's backend (outside the system
 * under test): a real HTTP server on loopback, scripted per test.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { SandboxWebhookEventSchema, type SandboxWebhookEvent } from '../../sandbox/state/resources.js';
import { SandboxOptionsSchema, startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/start-sandbox.js';
import { WebhookHandlerOptionsSchema } from '../../src/server/webhooks/webhook-handler.js';
import { MAX_RETRY_DELAY_MS, retryDelayMs } from '../../sandbox/state/webhooks.js';
import { api, connectAccount, linkApi, openSession, platformOfType, startTestSandbox } from './sandbox-test-client.js';

interface Received {
  readonly event: SandboxWebhookEvent;
  readonly at: number;
  readonly headers: IncomingMessage['headers'];
}

/** A webhook receiver that answers with `statuses` in turn (then 200), or holds requests while `hold` is set. */
const startReceiver = async (statuses: number[] = []) => {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const held: ServerResponse[] = [];
  let hold = false;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        event: SandboxWebhookEventSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8'))),
        at: Date.now(),
        headers: request.headers,
      });
      for (const waiter of waiters.filter((entry) => received.length >= entry.count)) waiter.resolve();
      if (hold) {
        held.push(response);
        return;
      }
      response.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    /** Resolves once `count` requests in all have arrived. */
    waitFor: (count: number) => new Promise<void>((resolve) => (received.length >= count ? resolve() : waiters.push({ count, resolve }))),
    setHold: (value: boolean) => {
      hold = value;
    },
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
};

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Runs `body` with a receiver (answering `statuses` first) and a sandbox that posts to it; closes both after. */
const withReceiver = async (
  statuses: number[],
  options: SandboxOptions,
  body: (sandbox: Sandbox, receiver: Receiver) => Promise<void>,
): Promise<void> => {
  const receiver = await startReceiver(statuses);
  const sandbox = await startTestSandbox({ webhookUrl: receiver.url, ...options });
  try {
    await body(sandbox, receiver);
  } finally {
    await sandbox.close();
    await receiver.close();
  }
};

/** Logs in as user_good through the Link API (this sends account.added); returns the login response. */
const loginGood = async (sandbox: Sandbox) => {
  const { session } = await openSession(sandbox);
  return linkApi(sandbox, 'POST', '/link/api/login', session, {
    platform_id: platformOfType(sandbox, 'payroll').id,
    username: 'user_good',
    password: 'pass_good',
  });
};

/** Waits for a delivery to leave `pending`: its status is set when the receiver's answer arrives back. */
const settled = (sandbox: Sandbox, index: number) => sandbox.webhooks.whenSettled(sandbox.webhooks.deliveries[index]!);

describe('sandbox: webhooks', () => {
  it('doubles the wait between attempts up to an hour, never past what setTimeout can wait', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((attempt) => retryDelayMs(1000, attempt)),
      [1000, 2000, 4000, 8000],
    );
    // The largest options: base one hour, 20 attempts. Uncapped, attempt 19 would wait 2^18 hours.
    const longest = Math.max(...Array.from({ length: 19 }, (_, i) => retryDelayMs(3_600_000, i + 1)));
    assert.equal(longest, MAX_RETRY_DELAY_MS);
    assert.ok(MAX_RETRY_DELAY_MS < 2 ** 31 - 1);
  });

  it('delivers account.added, paystubs.added and verification_reports.refreshed for a Link connection', async () => {
    await withReceiver([], {}, async (sandbox, receiver) => {
      const connected = await connectAccount(sandbox, { endUserId: 'hook-user' });
      await receiver.waitFor(3);
      const byName = new Map(receiver.received.map((entry) => [entry.event.event, entry.event]));
      const added = byName.get('account.added');
      assert.ok(added && added.event === 'account.added');
      assert.deepEqual(added.payload, {
        account_id: connected.accountId,
        platform_id: connected.platformId,
        platform_name: platformOfType(sandbox, 'payroll').name,
        link_token_id: connected.linkTokenId,
        end_user_id: 'hook-user',
        job_id: connected.jobId,
      });
      const paystubs = byName.get('paystubs.added');
      assert.ok(paystubs && paystubs.event === 'paystubs.added');
      assert.equal(paystubs.payload.sync_status, 'synced');
      assert.equal(paystubs.payload.added_count, 12);
      assert.equal(paystubs.payload.deleted_count, 0);
      assert.equal(paystubs.payload.job_id, connected.jobId);
      const refreshed = byName.get('verification_reports.refreshed');
      assert.ok(refreshed && refreshed.event === 'verification_reports.refreshed');
      assert.equal(refreshed.payload.end_user_id, 'hook-user');
      assert.equal(refreshed.payload.availability.voe.status, 'available');
      assert.equal(refreshed.payload.availability.voie.status, 'available');
      assert.equal(receiver.received[0]!.headers['content-type'], 'application/json');
      assert.equal(new Set(receiver.received.map((entry) => entry.event.event_id)).size, 3);
      // What was delivered is what the store recorded.
      assert.deepEqual(
        sandbox.store.events.map((event) => event.event_id).sort(),
        receiver.received.map((entry) => entry.event.event_id).sort(),
      );
    });
  });

  it('sends shifts.added for a time_and_attendance connection, and no report event without an end user', async () => {
    await withReceiver([], {}, async (sandbox, receiver) => {
      await connectAccount(sandbox, { platformType: 'time_and_attendance' });
      await receiver.waitFor(2);
      assert.deepEqual(receiver.received.map((entry) => entry.event.event).sort(), ['account.added', 'shifts.added']);
      const shifts = receiver.received.find((entry) => entry.event.event === 'shifts.added')!.event;
      assert.ok(shifts.event === 'shifts.added' && shifts.payload.added_count === 20);
    });
  });

  it('sends account.monitoring_status.updated on disconnect', async () => {
    await withReceiver([], {}, async (sandbox, receiver) => {
      const { accountId } = await connectAccount(sandbox);
      await receiver.waitFor(2);
      await api(sandbox, 'POST', `/v1/accounts/${accountId}/disconnect`);
      await receiver.waitFor(3);
      const update = receiver.received[2]!.event;
      assert.equal(update.event, 'account.monitoring_status.updated');
      assert.ok(
        update.event === 'account.monitoring_status.updated' && update.payload.account_id === accountId && !update.payload.connected,
      );
    });
  });

  it('retries a failed delivery with growing delays until it succeeds', async () => {
    await withReceiver([500, 503], { webhookRetryBaseMs: 40 }, async (sandbox, receiver) => {
      assert.equal((await loginGood(sandbox)).status, 200);
      await receiver.waitFor(3);
      const attempts = receiver.received.filter((entry) => entry.event.event === 'account.added');
      assert.equal(attempts.length, 3);
      assert.equal(new Set(attempts.map((entry) => entry.event.event_id)).size, 1, 'a retry resends the same event');
      // Backoff: at least 40 ms, then at least 80 ms (lower bounds only: timers never fire early).
      assert.ok(attempts[1]!.at - attempts[0]!.at >= 35);
      assert.ok(attempts[2]!.at - attempts[1]!.at >= 75);
      const delivery = await settled(sandbox, 0);
      assert.equal(delivery.status, 'delivered');
      assert.equal(delivery.attempts, 3);
    });
  });

  it('gives up after the configured attempts, and a dead receiver changes nothing for the API', async () => {
    await withReceiver([500, 500, 500, 500], { webhookRetryBaseMs: 10, webhookMaxAttempts: 2 }, async (sandbox, receiver) => {
      const login = await loginGood(sandbox);
      assert.equal(login.status, 200);
      await receiver.waitFor(2);
      const delivery = await settled(sandbox, 0);
      assert.equal(delivery.status, 'failed');
      assert.equal(delivery.attempts, 2);
      assert.equal(delivery.lastError, 'HTTP 500');
      assert.equal(receiver.received.length, 2);
    });
  });

  it('never blocks the API: answers while the receiver holds the webhook unanswered', async () => {
    await withReceiver([], {}, async (sandbox, receiver) => {
      receiver.setHold(true);
      const login = await loginGood(sandbox);
      assert.equal(login.status, 200);
      await receiver.waitFor(1);
      // The receiver has the account.added request and has not answered; the API still answers.
      const accounts = await api(sandbox, 'GET', '/v1/accounts');
      assert.equal(accounts.body.meta.count, 1);
      assert.equal(sandbox.webhooks.deliveries[0]!.status, 'pending');
    });
  });

  it('an attempt that gets no answer in time fails with a line naming the timeout and how to set it', async () => {
    await withReceiver([], { webhookTimeoutMs: 50, webhookMaxAttempts: 1 }, async (sandbox, receiver) => {
      receiver.setHold(true);
      assert.equal((await loginGood(sandbox)).status, 200);
      const delivery = await settled(sandbox, 0);
      assert.equal(delivery.status, 'failed');
      assert.match(delivery.lastError ?? '', /^no answer within 50 ms \(.*--webhook-timeout.*webhookTimeoutMs\)$/);
    });
  });

  it("waits longer by default than payroll-link/server's webhook handler may take by default, so a slow callback gets the handler's 503, not an abort", () => {
    const sandboxTimeout = SandboxOptionsSchema.parse({}).webhookTimeoutMs;
    const { callbackTimeoutMs } = WebhookHandlerOptionsSchema.parse({ onEvent: () => {}, allowUnverified: true });
    // The handler's longest answer: its claim (bounded at 5 s), the callback's bound, then markDone (5 s).
    assert.ok(
      sandboxTimeout >= callbackTimeoutMs + 10_000,
      `the sandbox's ${sandboxTimeout} ms against the handler's ${callbackTimeoutMs} ms + 10 s`,
    );
  });

  it('refuses a webhook URL that carries a user name and password (it would reach the log in fetch errors)', async () => {
    await assert.rejects(async () => {
      // Closed again if it starts after all, so a regression fails the test instead of hanging it.
      const started = await startSandbox({ port: 0, webhookUrl: 'http://hook:s3cr3t@127.0.0.1:9/hooks' });
      await started.close();
    }, /user name or password/);
  });

  it('records events without sending when no webhook URL is set', async () => {
    const sandbox = await startTestSandbox();
    try {
      await connectAccount(sandbox);
      assert.deepEqual(sandbox.store.events.map((event) => event.event).sort(), ['account.added', 'paystubs.added']);
      assert.equal(sandbox.webhooks.deliveries.length, 0);
    } finally {
      await sandbox.close();
    }
  });
});
