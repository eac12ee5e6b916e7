/**
 * `createWebhookHandler` of `payroll-link/server`: authenticity (URL secret,
 * verify hook), the envelope and typed payloads, unknown events, de-duplication
 * through the store, callbacks that throw, and bad deliveries.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ConfigError,
  ErrorBodySchema,
  createWebhookHandler,
  memoryEventIdStore,
  type UnknownWebhookEvent,
  type WebhookEvent,
  type WebhookHandlerOptions,
} from 'payroll-link/server';
import { captureLog } from './server-example-upstream.js';
import { accountAdded } from './webhook-event.js';

const SECRET = 'whsec_0123456789abcdef';

/** A handler that records what reached the callbacks. */
function receiver(options: Partial<WebhookHandlerOptions> = {}) {
  const { log, lines } = captureLog();
  const handled: WebhookEvent[] = [];
  const unknown: UnknownWebhookEvent[] = [];
  const handler = createWebhookHandler({
    secret: SECRET,
    log,
    onEvent: (event) => void handled.push(event),
    onUnknownEvent: (event) => void unknown.push(event),
    ...options,
  });
  return { handler, lines, handled, unknown };
}

function deliver(body: unknown, init: RequestInit & { url?: string } = {}): Request {
  return new Request(init.url ?? `http://localhost/api/webhooks?secret=${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

describe('authenticity', () => {
  test('the secret as ?secret= or as the last path segment is accepted; without it, or wrong, 401 and no callback', async () => {
    const { handler, handled, lines } = receiver();
    assert.equal((await handler(deliver(accountAdded()))).status, 200);
    assert.equal((await handler(deliver(accountAdded(), { url: `http://localhost/api/webhooks/${SECRET}` }))).status, 200);
    for (const url of [
      'http://localhost/api/webhooks',
      'http://localhost/api/webhooks?secret=whsec_0123456789abcdeX',
      'http://localhost/api/webhooks/whsec',
    ]) {
      const response = await handler(deliver(accountAdded(), { url }));
      assert.equal(response.status, 401, url);
      assert.equal(ErrorBodySchema.parse(await response.json()).error.error_codes[0]!.error_code, 'WEBHOOK_UNVERIFIED');
    }
    assert.equal(handled.length, 2);
    assert.ok(!lines.some((line) => line.includes(SECRET)), 'the secret never reaches the log');
  });

  test('verify() sees the raw body; false or a throw is 401', async () => {
    const seen: string[] = [];
    let answer: boolean | 'throw' = true;
    const { handler, handled } = receiver({
      secret: undefined,
      verify: (_request, raw) => {
        seen.push(raw);
        if (answer === 'throw') throw new Error('bad signature header');
        return answer;
      },
    });
    const body = JSON.stringify(accountAdded());
    assert.equal((await handler(deliver(body, { url: 'http://localhost/hooks' }))).status, 200);
    assert.deepEqual(seen, [body]);
    answer = false;
    assert.equal((await handler(deliver(accountAdded(), { url: 'http://localhost/hooks' }))).status, 401);
    answer = 'throw';
    assert.equal((await handler(deliver(accountAdded(), { url: 'http://localhost/hooks' }))).status, 401);
    assert.equal(handled.length, 1);
  });

  test('neither secret nor verify is a ConfigError unless allowUnverified says so', () => {
    assert.throws(
      () => createWebhookHandler({ onEvent: () => {} }),
      (error: unknown) => error instanceof ConfigError && /secret: is required/.test(error.message),
    );
    assert.throws(() => createWebhookHandler({ secret: 'short', onEvent: () => {} }), /secret: must be at least 16 characters/);
    assert.throws(() => createWebhookHandler({ secret: SECRET } as WebhookHandlerOptions), /onEvent/);
    const open = createWebhookHandler({ allowUnverified: true, onEvent: () => {} });
    assert.equal(typeof open, 'function');
  });
});

describe('events', () => {
  test('known events reach onEvent typed; fields the service adds pass through', async () => {
    const { handler, handled } = receiver();
    const event = accountAdded();
    (event.payload as Record<string, unknown>).brand_new_field = 7;
    const response = await handler(deliver(event));
    assert.deepEqual(await response.json(), { received: true, duplicate: false });
    const [got] = handled;
    assert.ok(got && got.event === 'account.added');
    assert.equal(got.payload.account_id, event.payload.account_id);
    assert.equal((got.payload as Record<string, unknown>).brand_new_field, 7);
  });

  test('each event the spec lists is accepted with the payload the sandbox sends', async () => {
    const { handler, handled } = receiver();
    const account = crypto.randomUUID();
    const now = new Date().toISOString();
    const availability = { status: 'available', updated_at: now, refreshed_at: now };
    const records = {
      account_id: account,
      job_id: crypto.randomUUID(),
      link_token_id: null,
      end_user_id: null,
      sync_status: 'synced',
      added_count: 3,
      deleted_count: 0,
    };
    const events: [string, Record<string, unknown>][] = [
      ['paystubs.added', records],
      ['shifts.added', records],
      [
        'account.monitoring_status.updated',
        {
          account_id: account,
          end_user_id: 'u',
          connected: false,
          monitoring_status: 'disconnected',
          previous_monitoring_status: 'active',
          updated_at: now,
        },
      ],
      ['account.disconnected', { account_id: account }],
      ['account.reconnected', { account_id: account }],
      [
        'verification_reports.refreshed',
        { end_user_id: 'u', availability: { voe: availability, voie: { ...availability, status: 'unavailable' } } },
      ],
    ];
    for (const [name, payload] of events) {
      const response = await handler(deliver({ event: name, event_id: crypto.randomUUID(), payload }));
      assert.equal(response.status, 200, name);
    }
    assert.deepEqual(
      handled.map((event) => event.event),
      events.map(([name]) => name),
    );
  });

  test('an event this version does not know is acknowledged and handed to onUnknownEvent, never refused', async () => {
    const { handler, handled, unknown } = receiver();
    const response = await handler(deliver({ event: 'employer.merged', event_id: crypto.randomUUID(), payload: { anything: true } }));
    assert.equal(response.status, 200);
    assert.deepEqual(
      unknown.map((event) => event.event),
      ['employer.merged'],
    );
    assert.equal(handled.length, 0);
    const { handler: quiet, lines } = receiver({ onUnknownEvent: undefined });
    assert.equal((await quiet(deliver({ event: 'employer.merged', event_id: crypto.randomUUID(), payload: {} }))).status, 200);
    assert.ok(lines.some((line) => line.includes('employer.merged')));
  });

  test('a known event whose payload does not fit is acknowledged, handed to onUnknownEvent and logged, never refused', async () => {
    const { handler, handled, unknown, lines } = receiver();
    const response = await handler(deliver(accountAdded({ payload: { platform_name: 'x' } })));
    assert.equal(response.status, 200);
    assert.equal(handled.length, 0);
    assert.deepEqual(
      unknown.map((event) => event.event),
      ['account.added'],
    );
    assert.ok(
      lines.some((line) => line.startsWith('warn webhook account.added: payload does not match') && line.includes('account_id')),
      lines.join('\n'),
    );
  });

  test('what the spec does not promise may be missing: an older account.added without platform_name is typed', async () => {
    const { handler, handled } = receiver();
    const event = accountAdded();
    delete (event.payload as Record<string, unknown>).platform_name;
    assert.equal((await handler(deliver(event))).status, 200);
    assert.equal(handled[0]?.event, 'account.added');
  });
});

describe('once per event_id', () => {
  test('a redelivery is a duplicate and runs nothing', async () => {
    const { handler, handled } = receiver();
    const event = accountAdded();
    await handler(deliver(event));
    assert.deepEqual(await (await handler(deliver(event))).json(), { received: true, duplicate: true });
    assert.equal(handled.length, 1);
  });

  test('a callback that throws: 500, nothing recorded, and the redelivery runs it again', async () => {
    let failures = 1;
    const { handler, handled, lines } = receiver({
      onEvent: async (event) => {
        if (failures-- > 0) throw new Error('database down');
        handled.push(event);
      },
    });
    const event = accountAdded();
    const first = await handler(deliver(event));
    assert.equal(first.status, 500);
    assert.equal(ErrorBodySchema.parse(await first.json()).error.status_code, 500);
    assert.ok(lines.some((line) => line.startsWith('error webhook: the callback failed') && line.includes('database down')));
    assert.deepEqual(await (await handler(deliver(event))).json(), { received: true, duplicate: false });
    assert.equal(handled.length, 1);
  });

  test('a copy that arrives while the first runs waits for it, and is a duplicate only if it succeeded', async () => {
    let calls = 0;
    let running = 0;
    let mostAtOnce = 0;
    let started!: () => void;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { handler } = receiver({
      onEvent: async () => {
        calls++;
        mostAtOnce = Math.max(mostAtOnce, ++running);
        started();
        try {
          await gate;
          if (calls === 1) throw new Error('database down');
        } finally {
          running--;
        }
      },
    });
    const event = accountAdded();
    const first = handler(deliver(event));
    // The copy is sent once the first is inside its callback. Sent at once, either could reach the callback first
    // (each reads its body first): the copy sometimes did, failed as "the first", and the first answered 200.
    await firstStarted;
    const copy = handler(deliver(event));
    release();
    const [firstAnswer, copyAnswer] = await Promise.all([first, copy]);
    assert.equal(firstAnswer.status, 500);
    assert.deepEqual(await copyAnswer.json(), { received: true, duplicate: false });
    assert.equal(calls, 2);
    assert.equal(mostAtOnce, 1, 'the copy ran only once the first had ended');
  });

  test('a { has, add } store of your own is asked and told; a store that fails is a 503 so the service delivers again', async () => {
    const ids = new Set<string>();
    let broken = false;
    const store = {
      has: async (id: string) => {
        if (broken) throw new Error('db gone');
        return ids.has(id);
      },
      add: async (id: string) => void ids.add(id),
    };
    const { handler, handled } = receiver({ store });
    const event = accountAdded();
    assert.equal((await handler(deliver(event))).status, 200);
    assert.ok(ids.has(event.event_id));
    assert.deepEqual(await (await handler(deliver(event))).json(), { received: true, duplicate: true });
    broken = true;
    const refused = await handler(deliver(accountAdded()));
    assert.equal(refused.status, 503);
    assert.equal(ErrorBodySchema.parse(await refused.json()).error.error_codes[0]!.error_code, 'STORE_UNAVAILABLE');
    assert.equal(handled.length, 1);
  });

  test('the memory store is bounded: the oldest ids are forgotten first', () => {
    const store = memoryEventIdStore(2);
    for (const id of ['a', 'b', 'c']) void store.add(id);
    assert.deepEqual(
      ['a', 'b', 'c'].map((id) => store.has(id)),
      [false, true, true],
    );
  });
});

describe('bad deliveries are refused', () => {
  const cases: [string, () => Request, number, string][] = [
    ['PUT', () => deliver(accountAdded(), { method: 'PUT' }), 405, 'METHOD_NOT_ALLOWED'],
    ['text/plain', () => deliver('{}', { headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['malformed JSON', () => deliver('{"event": '), 400, 'INVALID_REQUEST_BODY'],
    ['oversized', () => deliver(accountAdded({ payload: { blob: 'x'.repeat(300_000) } })), 413, 'REQUEST_TOO_LARGE'],
    ['no event_id', () => deliver({ event: 'account.added', payload: {} }), 400, 'INVALID_PARAMS'],
    ['event_id not a UUID', () => deliver(accountAdded({ event_id: '42' })), 400, 'INVALID_PARAMS'],
    ['payload not an object', () => deliver(accountAdded({ payload: 'hi' })), 400, 'INVALID_PARAMS'],
    ['empty event', () => deliver(accountAdded({ event: '' })), 400, 'INVALID_PARAMS'],
  ];
  for (const [name, makeRequest, status, code] of cases) {
    test(`${name} → ${status} ${code}`, async () => {
      const { handler, handled, unknown } = receiver();
      const response = await handler(makeRequest());
      assert.equal(response.status, status);
      const body = ErrorBodySchema.parse(await response.json());
      assert.equal(body.error.status_code, status);
      assert.equal(body.error.error_codes[0]!.error_code, code);
      if (status === 405) assert.equal(response.headers.get('allow'), 'POST');
      assert.equal(handled.length + unknown.length, 0);
    });
  }
});
