/**
 * What an adversarial run of the handlers found (issue 24, item 7), one test
 * per finding: a callback or hook that never settles, deep JSON behind a body
 * parser, `linkTokenFields` objects that serialise as something else, a huge
 * upstream answer, a logger that throws, invalid UTF-8 a parser already
 * decoded, and a timed-out token request that would mint a second token.
 * The services are fake ones on loopback (outside the system under test);
 * the body parsers are stand-ins that do what express.json() does.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createLinkTokenHandler,
  createWebhookHandler,
  ErrorBodySchema,
  type LinkTokenHandlerConfig,
  type WebhookHandlerOptions,
} from 'payroll-link/server';
import { toNodeHandler, type WebHandler } from 'payroll-link/server/node';
import { captureLog, reply, startUpstream, tokenEnvelope, type FakeUpstream, type UpstreamScript } from './server-example-upstream.js';

const SECRET = 'whsec_0123456789abcdef';
const API_SECRET = 'sk_sandbox_adversarial_do_not_leak';
/** A bound on each test, so a handler that never answers fails the test instead of hanging the run. */
const BOUND = { timeout: 20_000 };

const upstreams: FakeUpstream[] = [];
const servers: Server[] = [];
after(async () => {
  await Promise.all(upstreams.map((upstream) => upstream.close()));
  await Promise.all(
    servers.map(
      (server) =>
        new Promise((resolve) => {
          server.close(resolve);
          server.closeAllConnections();
        }),
    ),
  );
});

async function upstream(script: UpstreamScript): Promise<FakeUpstream> {
  const started = await startUpstream(script);
  upstreams.push(started);
  return started;
}

const accountAdded = () => ({
  event: 'account.added',
  event_id: crypto.randomUUID(),
  payload: { account_id: crypto.randomUUID(), platform_name: 'Gusto Sandbox' },
});

function deliver(body: unknown, url = `http://localhost/hooks?secret=${SECRET}`): Request {
  return new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

function webhooks(options: Partial<WebhookHandlerOptions>) {
  const { log, lines } = captureLog();
  return { handler: createWebhookHandler({ secret: SECRET, log, onEvent: () => {}, ...options }), lines };
}

function tokenHandler(service: FakeUpstream, overrides: Partial<LinkTokenHandlerConfig> = {}) {
  const { log, lines } = captureLog();
  const handle = createLinkTokenHandler({
    apiSecret: API_SECRET,
    baseUrl: service.url,
    version: '2025-07-08',
    orgName: 'Acme Payroll',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    log,
    retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
    ...overrides,
  });
  return { handle, lines };
}

const browserPost = (body: unknown = {}) =>
  new Request('http://localhost/api/link-token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A node:http server running `before` (a stand-in body parser), then the adapter. */
async function serve(handler: WebHandler, before: (req: IncomingMessage & { body?: unknown }) => Promise<void>) {
  const errors: string[] = [];
  const nodeHandler = toNodeHandler(handler, { log: { error: (message) => void errors.push(message) } });
  const server = createServer(async (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => {
    await before(req);
    await nodeHandler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, errors };
}

/** Reads the body as body-parser does (bytes decoded without a fatal check), then sets req.body. */
const bodyParser = (parse: (text: string) => unknown) => async (req: IncomingMessage & { body?: unknown }) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  req.body = parse(Buffer.concat(chunks).toString('utf8'));
};

describe('a callback or hook that never settles', () => {
  test(
    'the webhook answers 503 with Retry-After past callbackTimeoutMs, logs once, and a redelivery after the lease runs again',
    BOUND,
    async (t) => {
      // The lease runs on the test's clock, not the machine's: on a loaded machine more than the lease's 400 ms of
      // real time passed before the copy below arrived, and it ran (a 200 where the busy 503 was due). Timers stay
      // real: the callback's bound is a setTimeout, and it is what is under test here.
      t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
      let calls = 0;
      const { handler, lines } = webhooks({
        callbackTimeoutMs: 200,
        leaseMs: 400,
        onEvent: () => {
          calls++;
          // The first run never settles; the second succeeds.
          return calls === 1 ? new Promise<void>(() => {}) : undefined;
        },
      });
      const event = accountAdded();
      const [first, copy] = await Promise.all([handler(deliver(event)), handler(deliver(event))]);
      for (const answer of [first, copy]) {
        assert.equal(answer.status, 503);
        assert.ok(Number(answer.headers.get('retry-after')) >= 1);
        assert.equal(ErrorBodySchema.parse(await answer.json()).error.error_codes[0]!.error_code, 'CALLBACK_TIMEOUT');
      }
      assert.equal(lines.filter((line) => line.includes('did not settle')).length, 1, lines.join('\n'));
      // The callback may still finish: until its lease ends, a copy is busy rather than run beside it.
      const meanwhile = await handler(deliver(event));
      assert.equal(meanwhile.status, 503);
      assert.equal(ErrorBodySchema.parse(await meanwhile.json()).error.error_codes[0]!.error_code, 'EVENT_IN_PROGRESS');
      t.mock.timers.tick(400); // The lease's own length: what is under test is that it ends.
      const again = await handler(deliver(event));
      assert.deepEqual(await again.json(), { received: true, duplicate: false });
      assert.equal(calls, 2);
    },
  );

  test('a callback that succeeds after its bound: 503 at the bound, then the event is done, and never run twice', BOUND, async () => {
    let calls = 0;
    let finish!: () => void;
    const { handler } = webhooks({
      callbackTimeoutMs: 100,
      onEvent: () => {
        calls++;
        return new Promise<void>((resolve) => (finish = resolve));
      },
    });
    const event = accountAdded();
    assert.equal((await handler(deliver(event))).status, 503);
    assert.equal((await handler(deliver(event))).status, 503, 'busy while the first may still finish');
    finish();
    let answer = await handler(deliver(event));
    // Marked done as soon as the late callback settles (a store call away).
    for (let tries = 0; answer.status !== 200 && tries < 50; tries++) answer = (await sleep(10), await handler(deliver(event)));
    assert.deepEqual(await answer.json(), { received: true, duplicate: true });
    assert.equal(calls, 1);
  });

  for (const hook of ['resolveEndUserId', 'authorizeAccount', 'linkTokenFields'] as const) {
    test(`the token handler's ${hook} is bounded: past hookTimeoutMs a 503, the service never called`, BOUND, async () => {
      const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
      const never = () => new Promise<never>(() => {});
      const { handle, lines } = tokenHandler(service, { hookTimeoutMs: 200, [hook]: never });
      const answer = await handle(browserPost(hook === 'authorizeAccount' ? { account_id: crypto.randomUUID() } : {}));
      assert.equal(answer.status, 503);
      assert.equal(answer.headers.get('retry-after'), '1');
      assert.equal(service.requests.length, 0);
      assert.equal(lines.filter((line) => line.includes(`${hook} did not settle`)).length, 1, lines.join('\n'));
    });
  }
});

describe('deep JSON behind a body parser', () => {
  /** 100,000 levels: far past what JSON.stringify's recursion takes. */
  const deep = () => {
    let value: Record<string, unknown> = { event: 'account.added' };
    for (let i = 0; i < 100_000; i++) value = { a: value };
    return value;
  };

  test('without the secret it is 401 (the body is never touched); with it, a 400, not a 500', BOUND, async () => {
    const handler = webhooks({}).handler;
    const { url, errors } = await serve(handler, async (req) => {
      for await (const _chunk of req);
      req.body = deep();
    });
    const post = (target: string) => fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const stranger = await post(`${url}/hooks`);
    assert.equal(stranger.status, 401);
    const sender = await post(`${url}/hooks?secret=${SECRET}`);
    assert.equal(sender.status, 400);
    const body = ErrorBodySchema.parse(await sender.json());
    assert.equal(body.error.error_codes[0]!.error_code, 'INVALID_REQUEST_BODY');
    assert.ok(!JSON.stringify(body).includes('call stack'), 'the answer does not echo the RangeError');
    assert.deepEqual(errors, [], 'no adapter error line per request');
  });
});

describe('linkTokenFields returns plain data only', () => {
  const account = crypto.randomUUID();
  const tricks: [string, () => Record<string, unknown>][] = [
    ['its own toJSON', () => ({ toJSON: () => ({ end_user_id: 'someone-else', account_id: account }) })],
    ['a toJSON on its prototype', () => Object.create({ toJSON: () => ({ end_user_id: 'someone-else' }) }) as Record<string, unknown>],
    [
      'a class instance',
      () =>
        new (class Fields {
          employer = 'Acme';
        })() as unknown as Record<string, unknown>,
    ],
    ['a getter', () => Object.defineProperty({}, 'employer', { get: () => 'Acme', enumerable: true }) as Record<string, unknown>],
    ['a nested toJSON', () => ({ metadata: { toJSON: () => 'x' } })],
    ['a function value', () => ({ employer: () => 'Acme' })],
    ['a Date', () => ({ at: new Date() })],
  ];
  for (const [name, fields] of tricks) {
    test(`${name}: a 500 and nothing sent upstream`, BOUND, async () => {
      const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
      const { handle, lines } = tokenHandler(service, { linkTokenFields: fields });
      const answer = await handle(browserPost({ end_user_id: 'me' }));
      assert.equal(answer.status, 500);
      assert.equal(service.requests.length, 0);
      assert.ok(
        lines.some((line) => line.includes('linkTokenFields returned')),
        lines.join('\n'),
      );
    });
  }

  test("plain nested data still goes through, and the reserved fields stay the handler's", BOUND, async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const { handle } = tokenHandler(service, { linkTokenFields: () => ({ platform_id: 'p1', metadata: { tier: [1, 'a', null, true] } }) });
    assert.equal((await handle(browserPost({ end_user_id: 'me' }))).status, 200);
    const sent = JSON.parse(service.requests[0]!.body) as Record<string, unknown>;
    assert.deepEqual(sent.metadata, { tier: [1, 'a', null, true] });
    assert.equal(sent.end_user_id, 'me');
  });
});

describe('the upstream answer is capped', () => {
  test('a 5 MB token answer is not read whole: 502, logged', BOUND, async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope({ padding: 'x'.repeat(5_000_000) })));
    const { handle, lines } = tokenHandler(service);
    const answer = await handle(browserPost());
    assert.equal(answer.status, 502);
    assert.ok(
      lines.some((line) => line.includes('larger than')),
      lines.join('\n'),
    );
  });
});

describe('a logger that throws', () => {
  test("the webhook handler's promise still resolves with an answer", BOUND, async () => {
    const throwing = {
      info: () => {
        throw new Error('log down');
      },
      warn: () => {
        throw new Error('log down');
      },
      error: () => {
        throw new Error('log down');
      },
    };
    const handler = createWebhookHandler({
      secret: SECRET,
      log: throwing,
      onEvent: () => {
        throw new Error('db down');
      },
    });
    const answer = await handler(deliver(accountAdded()));
    assert.equal(answer.status, 500);
    const refused = await handler(deliver(accountAdded(), 'http://localhost/hooks'));
    assert.equal(refused.status, 401);
  });
});

describe('invalid UTF-8 inside a JSON string', () => {
  const bytes = Buffer.concat([
    Buffer.from('{"event":"account.added","event_id":"'),
    Buffer.from(crypto.randomUUID()),
    Buffer.from('","payload":{"account_id":"'),
    Buffer.from(crypto.randomUUID()),
    Buffer.from('","platform_name":"G'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('"}}'),
  ]);

  test('read by the handler itself it is a 400; behind a body parser it arrives as U+FFFD, as documented', BOUND, async () => {
    const names: string[] = [];
    const handler = webhooks({ onEvent: (event) => void names.push((event.payload as { platform_name: string }).platform_name) }).handler;
    const raw = await serve(handler, async () => {});
    const parsed = await serve(
      handler,
      bodyParser((text) => JSON.parse(text)),
    );
    const post = (url: string) =>
      fetch(`${url}/hooks?secret=${SECRET}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bytes });
    assert.equal((await post(raw.url)).status, 400);
    assert.equal((await post(parsed.url)).status, 200);
    assert.deepEqual(names, ['G\uFFFD\uFFFD']);
  });
});

describe('a token request whose first try times out', () => {
  test('is not sent again: one token at most is minted upstream, and the browser gets a 503', BOUND, async () => {
    const service = await upstream((_request, n, res) => {
      // The first answer comes after the per-try timeout: the service minted that token all the same.
      if (n === 1) setTimeout(() => reply(res, 200, tokenEnvelope()), 600);
      else reply(res, 200, tokenEnvelope());
    });
    const { handle } = tokenHandler(service, { timeouts: { attemptMs: 300, totalMs: 5_000 } });
    const answer = await handle(browserPost());
    assert.equal(answer.status, 503);
    assert.equal(service.requests.length, 1);
  });
});
