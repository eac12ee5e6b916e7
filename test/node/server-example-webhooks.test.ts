/** The webhook receiver: envelope validation, de-duplication with bounded memory, logging, the demo's list. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError } from '../../server-example/config-error.js';
import { ErrorBodySchema } from '../../server-example/error-body.js';
import { createWebhookReceiver, type WebhookReceiverOptions } from '../../server-example/webhooks.js';
import { captureLog } from './server-example-upstream.js';

function receiver(options: WebhookReceiverOptions = {}) {
  const { log, lines } = captureLog();
  return { ...createWebhookReceiver({ log, ...options }), lines };
}

function deliver(body: unknown, init: RequestInit = {}): Request {
  return new Request('http://localhost/api/webhooks', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

const accountAdded = (overrides: Record<string, unknown> = {}) => ({
  event: 'account.added',
  event_id: crypto.randomUUID(),
  payload: {
    account_id: crypto.randomUUID(),
    link_token_id: crypto.randomUUID(),
    platform_name: 'Gusto Sandbox',
    end_user_id: 'user-1',
    job_id: crypto.randomUUID(),
  },
  ...overrides,
});

const listed = async (handler: (request: Request) => Promise<Response>) => {
  const response = await handler(new Request('http://localhost/api/webhooks'));
  assert.equal(response.status, 200);
  return (await response.json()) as { data: { event_id: string; event: string; received_at: string }[]; meta: { count: number } };
};

describe('deliveries', () => {
  test('account.added is accepted, logged with account_id and link_token_id, and listed', async () => {
    const { handler, lines } = receiver();
    const event = accountAdded();
    const response = await handler(deliver(event));
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { received: true, duplicate: false });
    const logged = lines.find((line) => line.startsWith('info webhook account.added'));
    assert.ok(logged?.includes(event.payload.account_id) && logged.includes(event.payload.link_token_id), lines.join('\n'));
    const list = await listed(handler);
    assert.equal(list.meta.count, 1);
    assert.equal(list.data[0]!.event_id, event.event_id);
    assert.ok(!Number.isNaN(Date.parse(list.data[0]!.received_at)));
  });

  test('the same event_id twice is handled once', async () => {
    const { handler, lines, events } = receiver();
    const event = accountAdded();
    await handler(deliver(event));
    const again = await handler(deliver(event));
    assert.equal(again.status, 200, 'a duplicate still gets 2xx, so the sender stops retrying');
    assert.deepEqual(await again.json(), { received: true, duplicate: true });
    assert.equal(events().length, 1);
    assert.equal(lines.filter((line) => line.startsWith('info webhook account.added:')).length, 1);
  });

  test('the memory of ids is bounded: the oldest are forgotten first', async () => {
    const { handler } = receiver({ rememberIds: 2 });
    const [a, b, c] = [accountAdded(), accountAdded(), accountAdded()];
    for (const event of [a, b, c]) await handler(deliver(event));
    const duplicateOf = async (event: unknown) => ((await (await handler(deliver(event))).json()) as { duplicate: boolean }).duplicate;
    assert.equal(await duplicateOf(c), true, 'a recent id is remembered');
    assert.equal(await duplicateOf(a), false, 'the oldest id was forgotten');
  });

  test('only the last keepEvents events are kept, oldest first', async () => {
    const { handler } = receiver({ keepEvents: 2 });
    const sent = [accountAdded(), { event: 'paystubs.added', event_id: crypto.randomUUID(), payload: { sync_status: 'done' } }, accountAdded()];
    for (const event of sent) await handler(deliver(event));
    assert.deepEqual(
      (await listed(handler)).data.map((event) => event.event_id),
      [sent[1]!.event_id, sent[2]!.event_id],
    );
  });

  test('an account.added without a valid account_id is kept, with a warning', async () => {
    const { handler, lines, events } = receiver();
    const response = await handler(deliver(accountAdded({ payload: { platform_name: 'x' } })));
    assert.equal(response.status, 200);
    assert.equal(events().length, 1);
    assert.ok(lines.some((line) => line.startsWith('warn webhook account.added without a valid account_id')));
  });
});

describe('onEvent', () => {
  test('runs once per event_id', async () => {
    const handled: string[] = [];
    const { handler } = receiver({ onEvent: (event) => void handled.push(event.event_id) });
    const event = accountAdded();
    for (let i = 0; i < 3; i++) assert.equal((await handler(deliver(event))).status, 200);
    assert.deepEqual(handled, [event.event_id]);
  });

  test('when it fails: 500, and the redelivery is handled afresh', async () => {
    let failures = 1;
    const handled: string[] = [];
    const { handler, lines, events } = receiver({
      onEvent: async (event) => {
        if (failures-- > 0) throw new Error('database down');
        handled.push(event.event_id);
      },
    });
    const event = accountAdded();
    const first = await handler(deliver(event));
    assert.equal(first.status, 500);
    assert.equal(ErrorBodySchema.parse(await first.json()).error.status_code, 500);
    assert.equal(events().length, 0);
    assert.ok(lines.some((line) => line.startsWith('error webhook account.added: onEvent failed') && line.includes('database down')));
    const second = await handler(deliver(event));
    assert.deepEqual(await second.json(), { received: true, duplicate: false });
    assert.deepEqual(handled, [event.event_id]);
    assert.equal(events().length, 1);
  });

  test('a copy that arrives while the first is being handled waits for it, and is a duplicate only if it succeeded', async () => {
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { handler, events } = receiver({
      onEvent: async () => {
        calls++;
        await gate;
        if (calls === 1) throw new Error('database down');
      },
    });
    const event = accountAdded();
    const first = handler(deliver(event));
    const copy = handler(deliver(event));
    release();
    const [firstAnswer, copyAnswer] = await Promise.all([first, copy]);
    // The first failed: the copy, which the sender is still waiting on, handles the event instead of calling it a duplicate.
    assert.equal(firstAnswer.status, 500);
    assert.deepEqual(await copyAnswer.json(), { received: true, duplicate: false });
    assert.equal(calls, 2);
    assert.equal(events().length, 1);

    const again = accountAdded();
    const [one, two] = await Promise.all([handler(deliver(again)), handler(deliver(again))]);
    assert.deepEqual([await one.json(), await two.json()], [
      { received: true, duplicate: false },
      { received: true, duplicate: true },
    ]);
    assert.equal(events().length, 2);
  });
});

describe('bad deliveries are refused', () => {
  const cases: [string, () => Request, number, string][] = [
    ['PUT', () => deliver(accountAdded(), { method: 'PUT' }), 405, 'METHOD_NOT_ALLOWED'],
    ['text/plain', () => deliver('{}', { headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['malformed JSON', () => deliver('{"event": '), 400, 'INVALID_REQUEST_BODY'],
    ['oversized', () => deliver(accountAdded({ payload: { blob: 'x'.repeat(70_000) } })), 413, 'REQUEST_TOO_LARGE'],
    ['no event_id', () => deliver({ event: 'account.added', payload: {} }), 400, 'INVALID_PARAMS'],
    ['event_id not a UUID', () => deliver(accountAdded({ event_id: '42' })), 400, 'INVALID_PARAMS'],
    ['payload not an object', () => deliver(accountAdded({ payload: 'hi' })), 400, 'INVALID_PARAMS'],
    ['empty event', () => deliver(accountAdded({ event: '' })), 400, 'INVALID_PARAMS'],
  ];
  for (const [name, makeRequest, status, code] of cases) {
    test(`${name} → ${status} ${code}`, async () => {
      const { handler, events } = receiver();
      const response = await handler(makeRequest());
      assert.equal(response.status, status);
      const body = ErrorBodySchema.parse(await response.json());
      assert.equal(body.error.status_code, status);
      assert.equal(body.error.error_codes[0]!.error_code, code);
      if (status === 405) assert.equal(response.headers.get('allow'), 'GET, POST');
      assert.equal(events().length, 0);
    });
  }
});

test('options are checked when the receiver is created', () => {
  assert.throws(() => createWebhookReceiver({ rememberIds: 0 }), (error: unknown) => error instanceof ConfigError && /rememberIds/.test(error.message));
});
