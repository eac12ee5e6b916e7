/**
 * The handlers' one error boundary (src/server/handler/post-handler.ts): options checked at creation, then
 * 405 → the checks before the body → the body → the handler's work, and a throw at any stage is a 500 in the
 * spec's error body, logged once, with nothing of the throw in the answer. First the skeleton on its own, then
 * each handler with a throw planted at each stage it has: a request whose getter throws (what a framework's
 * broken request object does), the app's client throwing something that is not a PayrollApiError, and a value
 * thrown that cannot even become a string. The client is a stand-in (outside the system under test).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import {
  ConfigError,
  createLinkTokenHandler,
  createWebhookHandler,
  ErrorBodySchema,
  type LinkTokenHandlerConfig,
  type PayrollClient,
} from 'payroll-link/server';
import { HttpError } from '../../src/server/handler/http-error.js';
import { parseOptions, postHandler, type PostHandlerParts } from '../../src/server/handler/post-handler.js';
import { captureLog } from './server-example-upstream.js';

/** In every planted throw: it must reach the log, never the answer. */
const MARKER = 'internal-detail-7f3a';
const WEBHOOK_SECRET = 'whsec_0123456789abcdef';
const API_SECRET = 'sk_sandbox_boundary_do_not_leak';

function post(url = 'http://localhost/endpoint', body: unknown = {}): Request {
  return new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** `request` with `property` replaced by a getter that throws. */
function throwingAt<R extends Request>(property: 'method' | 'headers', request: R): R {
  Object.defineProperty(request, property, {
    get() {
      throw new Error(`${MARKER} (${property})`);
    },
  });
  return request;
}

/** The answer is the 500 given, in the spec's shape, and says nothing of the throw; the log has one error line. */
async function assertInternalError(response: Response, lines: string[], message: string, logged: RegExp) {
  assert.equal(response.status, 500);
  const text = await response.text();
  const body = ErrorBodySchema.parse(JSON.parse(text));
  assert.deepEqual(body.error, {
    status_code: 500,
    type: 'INTERNAL_ERROR',
    message,
    error_codes: [{ error_code: 'INTERNAL_ERROR', message }],
  });
  assert.ok(
    !text.includes(MARKER) && ![...response.headers.values()].some((value) => value.includes(MARKER)),
    'nothing of the throw in the answer',
  );
  assert.equal(response.headers.get('cache-control'), 'no-store');
  const errors = lines.filter((line) => line.startsWith('error '));
  assert.equal(errors.length, 1, `logged once:\n${lines.join('\n')}`);
  assert.match(errors[0]!, logged);
}

describe('the skeleton', () => {
  const INTERNAL = { status: 500, type: 'INTERNAL_ERROR', code: 'INTERNAL_ERROR', message: 'Could not.' };

  function skeleton(overrides: Partial<PostHandlerParts> = {}) {
    const { log, lines } = captureLog();
    const handle = postHandler({
      subject: 'test',
      log,
      postOnly: 'Use POST here.',
      maxBodyBytes: 1_024,
      bodyTimeoutMs: 10_000,
      internalError: INTERNAL,
      handle: async (_request, body) => new Response(body.text),
      ...overrides,
    });
    return { handle, lines };
  }

  test('options: parsed with defaults, or a ConfigError naming each field', () => {
    const schema = z.object({ name: z.string(), size: z.int().default(3) });
    assert.deepEqual(parseOptions(schema, { name: 'a' }, 'test options'), { name: 'a', size: 3 });
    assert.throws(
      () => parseOptions(schema, { size: 'big' }, 'test options'),
      (error: unknown) => error instanceof ConfigError && /^Invalid test options:\n {2}- name: .*\n {2}- size: /.test(error.message),
    );
  });

  test('in order: 405 with Allow, the check before the body, the body, the work', async () => {
    const seen: string[] = [];
    const { handle } = skeleton({
      beforeBody: async (request) => {
        seen.push('before');
        if (new URL(request.url).searchParams.has('refuse'))
          throw new HttpError({ status: 401, type: 'UNAUTHORIZED', code: 'REFUSED', message: 'refused' });
      },
      handle: async (_request, body) => {
        seen.push('handle');
        return new Response(body.text);
      },
    });
    const refusedMethod = await handle(new Request('http://localhost/', { method: 'GET' }));
    assert.equal(refusedMethod.status, 405);
    assert.equal(refusedMethod.headers.get('allow'), 'POST');
    assert.equal(ErrorBodySchema.parse(await refusedMethod.json()).error.message, 'Use POST here.');
    assert.deepEqual(seen, []);
    assert.equal((await handle(post('http://localhost/?refuse'))).status, 401);
    assert.deepEqual(seen, ['before']);
    assert.equal((await handle(new Request('http://localhost/', { method: 'POST', body: '{}' }))).status, 415);
    assert.deepEqual(seen, ['before', 'before']);
    assert.equal(await (await handle(post('http://localhost/', { a: 1 }))).text(), '{"a":1}');
    assert.deepEqual(seen, ['before', 'before', 'before', 'handle']);
  });

  const stages: [string, Partial<PostHandlerParts>, () => Request][] = [
    ['the method check', {}, () => throwingAt('method', post())],
    ['the check before the body', { beforeBody: () => Promise.reject(new Error(MARKER)) }, () => post()],
    ['the body', {}, () => throwingAt('headers', post())],
    ['the work', { handle: () => Promise.reject(new TypeError(MARKER)) }, () => post()],
    [
      'the work, throwing synchronously',
      {
        handle: () => {
          throw new RangeError(MARKER);
        },
      },
      () => post(),
    ],
    ['the work, throwing what cannot become a string', { handle: () => Promise.reject(Object.create(null)) }, () => post()],
  ];
  for (const [stage, overrides, request] of stages) {
    test(`a throw in ${stage}: the 500, logged once`, async () => {
      const { handle, lines } = skeleton(overrides);
      await assertInternalError(await handle(request()), lines, 'Could not.', /^error test: unexpected failure: /);
    });
  }
});

describe('the link-token handler', () => {
  const MESSAGE = 'The server could not create a Link token.';

  function tokenHandler(overrides: Partial<LinkTokenHandlerConfig> = {}) {
    const { log, lines } = captureLog();
    const handle = createLinkTokenHandler({
      apiSecret: API_SECRET,
      baseUrl: 'http://127.0.0.1:9',
      version: '2025-07-08',
      orgName: 'Acme Payroll',
      solution: 'Deposit Switch',
      features: ['direct_deposit_switch'],
      log,
      ...overrides,
    } as LinkTokenHandlerConfig);
    return { handle, lines };
  }

  /** The app's own client, whose token call throws something that is not a PayrollApiError (a bug, not an answer). */
  const brokenClient = {
    version: '2025-07-08',
    linkTokens: { create: () => Promise.reject(new TypeError(`${MARKER} in the client`)) },
  } as unknown as PayrollClient;

  test('a throw in the method check, the body or the service call: the 500, logged once, nothing leaked', async () => {
    const cases: [string, () => ReturnType<typeof tokenHandler>, () => Request][] = [
      ['method', () => tokenHandler(), () => throwingAt('method', post())],
      ['body', () => tokenHandler(), () => throwingAt('headers', post())],
      ['service call', () => tokenHandler({ apiSecret: undefined, baseUrl: undefined, client: brokenClient }), () => post()],
    ];
    for (const [stage, make, request] of cases) {
      const { handle, lines } = make();
      await assertInternalError(await handle(request()), lines, MESSAGE, /^error link token: unexpected failure: .*internal-detail-7f3a/);
      assert.ok(!lines.some((line) => line.includes(API_SECRET)), `${stage}: the API secret is not logged`);
    }
  });

  test('a hook that throws what cannot become a string: the same 500, logged once', async () => {
    const { handle, lines } = tokenHandler({ resolveEndUserId: () => Promise.reject(Object.create(null)) });
    await assertInternalError(
      await handle(post()),
      lines,
      MESSAGE,
      /^error link token: resolveEndUserId threw: a thrown value that cannot be described/,
    );
  });
});

describe('the webhook handler', () => {
  const MESSAGE = 'The event could not be handled; deliver it again.';
  const url = `http://localhost/hooks?secret=${WEBHOOK_SECRET}`;
  const delivery = (eventId = crypto.randomUUID()) =>
    post(url, { event: 'account.added', event_id: eventId, payload: { account_id: crypto.randomUUID() } });

  function webhooks(onEvent: () => void | Promise<void> = () => {}) {
    const { log, lines } = captureLog();
    return { handle: createWebhookHandler({ secret: WEBHOOK_SECRET, log, onEvent }), lines };
  }

  test('a throw in the method check or the body: the 500, logged once, nothing leaked', async () => {
    for (const property of ['method', 'headers'] as const) {
      const { handle, lines } = webhooks();
      await assertInternalError(
        await handle(throwingAt(property, delivery())),
        lines,
        MESSAGE,
        /^error webhook: unexpected failure: .*internal-detail-7f3a/,
      );
      assert.ok(!lines.some((line) => line.includes(WEBHOOK_SECRET)), 'the webhook secret is not logged');
    }
  });

  test('a callback that throws what cannot become a string: the 500, logged once, and the redelivery runs it again', async () => {
    let calls = 0;
    const { handle, lines } = webhooks(() => {
      calls++;
      if (calls === 1) return Promise.reject(Object.create(null));
    });
    const eventId = crypto.randomUUID();
    await assertInternalError(await handle(delivery(eventId)), lines, MESSAGE, /^error webhook: the callback failed/);
    // Released, not held until the lease ends: the service's next delivery is handled.
    const again = await handle(delivery(eventId));
    assert.deepEqual(await again.json(), { received: true, duplicate: false });
    assert.equal(calls, 2);
  });
});
