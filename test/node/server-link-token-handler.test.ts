/**
 * createLinkTokenHandler against fake services on loopback (fault injection):
 * configuration errors, the request body per version, bad browser input, every
 * upstream failure path, and that the secret never leaves; and one token from
 * the real sandbox in each of its field modes. The round trip through the
 * example server is in server-example-sandbox.test.ts.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ConfigError } from '../../src/server/config-error.js';
import { createPayrollClient } from '../../src/server/client/payroll-client.js';
import { ErrorBodySchema } from '../../src/server/error-body.js';
import { createLinkTokenHandler, type LinkTokenHandlerConfig } from '../../src/server/link-token/link-token-handler.js';
import { SERVICE_VERSIONS } from '../../src/server/client/service-version.js';
import { LinkTokenEnvelopeSchema } from '../../src/protocol.js';
import {
  captureLog,
  reply,
  serviceError,
  startUpstream,
  tokenEnvelope,
  type FakeUpstream,
  type UpstreamScript,
} from './server-example-upstream.js';
import { startTestSandbox } from './sandbox-test-client.js';

const SECRET = 'sk_sandbox_7f3c9e1d_do_not_leak';

/**
 * Small backoff so the whole file runs in a few seconds; timeouts far above any loopback answer, even
 * on a loaded machine, so they fire only where a test's upstream hangs on purpose (and sets its own).
 */
const FAST = {
  timeouts: { attemptMs: 5_000, totalMs: 10_000 },
  retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
} as const;

const upstreams: FakeUpstream[] = [];
after(() => Promise.all(upstreams.map((upstream) => upstream.close())));

async function upstream(script: UpstreamScript): Promise<FakeUpstream> {
  const started = await startUpstream(script);
  upstreams.push(started);
  return started;
}

function handlerFor(service: FakeUpstream, overrides: Partial<LinkTokenHandlerConfig> = {}) {
  const { log, lines } = captureLog();
  const handle = createLinkTokenHandler({
    apiSecret: SECRET,
    baseUrl: service.url,
    version: '2025-07-08',
    orgName: 'Acme Payroll',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    log,
    ...FAST,
    ...overrides,
  });
  return { handle, lines };
}

/**
 * The global fetch, counting the tries the handler sends. Where a try is meant to time out, count it here rather
 * than at the service: on a loaded machine a try can time out before its request has arrived there, and would
 * not be counted at all.
 */
function countingFetch(): { fetch: typeof fetch; count: () => number } {
  let tries = 0;
  return {
    fetch: (input, init) => {
      tries += 1;
      return fetch(input, init);
    },
    count: () => tries,
  };
}

function browserPost(body: unknown = {}, init: RequestInit = {}): Request {
  return new Request('http://localhost/api/link-token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' || body instanceof ArrayBuffer ? body : JSON.stringify(body),
    ...init,
  });
}

/** Reads an error answer and checks it has the spec's shape with the HTTP status inside. */
async function errorOf(response: Response) {
  const body = ErrorBodySchema.parse(await response.json());
  assert.equal(body.error.status_code, response.status);
  return body.error;
}

describe('configuration is checked when the handler is created', () => {
  const base: LinkTokenHandlerConfig = {
    apiSecret: SECRET,
    baseUrl: 'http://127.0.0.1:4010',
    version: '2025-07-08',
    orgName: 'Acme',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
  };
  const cases: [string, Record<string, unknown>, string][] = [
    ['unknown version', { version: '2024-01-01' }, 'version: must be one of the known service versions'],
    ['malformed version', { version: 'July 2025' }, 'version: must be a date written YYYY-MM-DD'],
    ['missing secret', { apiSecret: '' }, 'apiSecret: is required'],
    ['secret of the wrong type', { apiSecret: 42 }, 'apiSecret:'],
    ['plain http off loopback', { baseUrl: 'http://payroll.example.com' }, 'baseUrl: must use https'],
    ['not a URL', { baseUrl: 'sandbox' }, 'baseUrl: must be an absolute URL'],
    [
      'credentials in the URL (they would reach logs)',
      { baseUrl: 'https://user:pass@payroll.example.com' },
      'baseUrl: must have no user name, password, query or fragment',
    ],
    ['a query in the URL', { baseUrl: 'https://payroll.example.com/?x=1' }, 'baseUrl: must have no user name, password, query or fragment'],
    ['no features', { features: [] }, 'features: needs at least one feature'],
    ['no solution for a features version', { solution: undefined }, 'solution: is required for version 2025-07-08'],
    ['more than 3 tries', { retry: { maxAttempts: 4 } }, 'retry.maxAttempts:'],
    ['fetch that is not a function', { fetch: 'fetch' }, 'fetch: must be a fetch function'],
    ['log without methods', { log: {} }, 'log: must be an object with info, warn and error methods'],
  ];
  for (const [name, change, expected] of cases) {
    test(name, () => {
      const config = { ...base, ...change } as LinkTokenHandlerConfig;
      assert.throws(
        () => createLinkTokenHandler(config),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError, 'a ConfigError');
          assert.ok(error.message.includes(expected), `"${error.message}" names the field: ${expected}`);
          assert.ok(!error.message.includes(SECRET), 'the message never contains the secret');
          return true;
        },
      );
    });
  }

  test('solution may be left out for versions that take required_jobs', () => {
    assert.equal(typeof createLinkTokenHandler({ ...base, version: '2021-07-28', solution: undefined }), 'function');
  });
});

describe('POST /link_tokens body and headers per version', () => {
  // Version → the body the service must receive for features ['direct_deposit_switch'] and end_user_id 'user-42'.
  const legacy = { org_name: 'Acme Payroll', required_jobs: ['direct_deposit_switch'], end_user_id: 'user-42' };
  const current = { org_name: 'Acme Payroll', features: ['direct_deposit_switch'], solution: 'Deposit Switch', end_user_id: 'user-42' };
  const table: [string, Record<string, unknown>][] = [
    ['2021-04-29', legacy],
    ['2021-07-28', legacy],
    ['2022-03-02', current],
    ['2022-06-22', current],
    ['2025-07-08', current],
  ];

  test('the table covers every known version', () => {
    assert.deepEqual(
      table.map(([version]) => version),
      [...SERVICE_VERSIONS],
    );
  });

  for (const [version, expected] of table) {
    test(`${version} sends ${'required_jobs' in expected ? 'required_jobs' : 'features and solution'}`, async () => {
      const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
      const { handle } = handlerFor(service, { version: version as LinkTokenHandlerConfig['version'] });
      const response = await handle(browserPost({ end_user_id: 'user-42' }));
      assert.equal(response.status, 200);
      const [sent] = service.requests;
      assert.ok(sent);
      assert.equal(service.requests.length, 1);
      assert.equal(sent.method, 'POST');
      assert.equal(sent.path, '/link_tokens');
      assert.deepEqual(JSON.parse(sent.body), expected);
      assert.equal(sent.headers['x-api-secret'], SECRET);
      assert.equal(sent.headers['service-version'], version);
      assert.match(String(sent.headers['content-type']), /^application\/json/);
    });
  }

  test('without end_user_id none is sent', async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const { handle } = handlerFor(service);
    assert.equal((await handle(browserPost({}))).status, 200);
    assert.ok(!('end_user_id' in JSON.parse(service.requests[0]!.body)));
  });

  test('resolveEndUserId decides whose token it is, not the browser', async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const hints: (string | undefined)[] = [];
    const { handle } = handlerFor(service, {
      resolveEndUserId: (request, requested) => {
        hints.push(requested);
        return request.headers.get('x-session-user');
      },
    });
    const response = await handle(
      browserPost({ end_user_id: 'someone-else' }, { headers: { 'content-type': 'application/json', 'x-session-user': 'me-7' } }),
    );
    assert.equal(response.status, 200);
    assert.equal(JSON.parse(service.requests[0]!.body).end_user_id, 'me-7');
    assert.deepEqual(hints, ['someone-else']);
  });

  test('a resolver that throws or returns junk gives 500 and a log line, and no call', async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const throwing = handlerFor(service, {
      resolveEndUserId: () => {
        throw new Error('session store down');
      },
    });
    const junk = handlerFor(service, { resolveEndUserId: () => 'x'.repeat(256) });
    for (const { handle, lines } of [throwing, junk]) {
      const response = await handle(browserPost({}));
      assert.equal(response.status, 500);
      assert.equal((await errorOf(response)).error_codes[0]!.error_code, 'INTERNAL_ERROR');
      assert.ok(
        lines.some((line) => line.startsWith('error link token: resolveEndUserId')),
        lines.join('\n'),
      );
    }
    assert.equal(service.requests.length, 0);
  });

  test('account_id without authorizeAccount: 400 ACCOUNT_ID_NOT_ACCEPTED, never forwarded', async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const { handle } = handlerFor(service);
    const response = await handle(browserPost({ account_id: crypto.randomUUID() }));
    assert.equal(response.status, 400);
    assert.equal((await errorOf(response)).error_codes[0]!.error_code, 'ACCOUNT_ID_NOT_ACCEPTED');
    assert.equal(service.requests.length, 0);
  });

  test('authorizeAccount decides: yes forwards account_id, no is 403, a throw is 500; none calls the service', async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const mine = crypto.randomUUID();
    const asked: string[] = [];
    const { handle, lines } = handlerFor(service, {
      authorizeAccount: (request, accountId) => {
        asked.push(accountId);
        if (request.headers.get('x-boom')) throw new Error('accounts table gone');
        return accountId === mine;
      },
    });
    assert.equal((await handle(browserPost({ end_user_id: 'u-1', account_id: mine }))).status, 200);
    assert.deepEqual(JSON.parse(service.requests[0]!.body).account_id, mine);
    const refused = await handle(browserPost({ account_id: crypto.randomUUID() }));
    assert.equal(refused.status, 403);
    assert.equal((await errorOf(refused)).error_codes[0]!.error_code, 'ACCOUNT_NOT_AUTHORIZED');
    const thrown = await handle(browserPost({ account_id: mine }, { headers: { 'content-type': 'application/json', 'x-boom': '1' } }));
    assert.equal(thrown.status, 500);
    assert.ok(lines.some((line) => line.startsWith('error link token: authorizeAccount threw')));
    assert.equal(service.requests.length, 1);
    assert.equal(asked.length, 3);
    const malformed = await handle(browserPost({ account_id: 'not-a-uuid' }));
    assert.equal(malformed.status, 400);
    assert.match((await errorOf(malformed)).error_codes[0]!.message, /^account_id:/);
  });

  test('linkTokenFields adds fields from the server, never the reserved ones', async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const employer = crypto.randomUUID();
    const { handle } = handlerFor(service, { linkTokenFields: () => ({ employer_id: employer, language: 'es' }) });
    assert.equal((await handle(browserPost({}))).status, 200);
    const sent = JSON.parse(service.requests[0]!.body);
    assert.equal(sent.employer_id, employer);
    assert.equal(sent.language, 'es');
    assert.equal(sent.org_name, 'Acme Payroll');
    const overriding = handlerFor(service, { linkTokenFields: async () => ({ org_name: 'Evil Corp' }) });
    const response = await overriding.handle(browserPost({}));
    assert.equal(response.status, 500);
    assert.ok(overriding.lines.some((line) => line.includes('linkTokenFields returned fields the handler sets itself: org_name')));
    assert.equal(service.requests.length, 1);
  });

  test('an injected fetch is used', async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const seen: string[] = [];
    const { handle } = handlerFor(service, {
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    });
    assert.equal((await handle(browserPost({}))).status, 200);
    assert.deepEqual(seen, [`${service.url}/link_tokens`]);
  });
});

describe('a good answer is checked, then passed on', () => {
  test('200 with the envelope, only its four fields, never cached', async () => {
    const envelope = tokenEnvelope({ internal_debug: 'not for browsers' });
    const service = await upstream((_request, _n, res) => reply(res, 200, envelope));
    const { handle, lines } = handlerFor(service);
    const response = await handle(browserPost({}));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = await response.json();
    assert.equal(LinkTokenEnvelopeSchema.safeParse(body).success, true);
    const { id, token, expires, mode } = envelope.data;
    assert.deepEqual(body, { data: { id, token, expires, mode } });
    assert.ok(
      lines.some((line) => line.includes('link token created') && line.includes(id)),
      'logs the token id',
    );
    assert.ok(!lines.some((line) => line.includes(token)), 'never logs the token');
  });

  test('the upstream request id is logged on every call', async () => {
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    const service = await upstream((_request, n, res) =>
      n === 1
        ? reply(res, 503, serviceError(503, 'OVERLOADED', 'busy'), { 'x-service-request-id': ids[0]! })
        : reply(res, 200, tokenEnvelope(), { 'x-service-request-id': ids[1]! }),
    );
    const { handle, lines } = handlerFor(service);
    assert.equal((await handle(browserPost({}))).status, 200);
    for (const id of ids)
      assert.ok(
        lines.some((line) => line.includes(id)),
        `${id} logged:\n${lines.join('\n')}`,
      );
  });
});

describe("the app's own client", () => {
  test('client: the handler sends through it (one limiter, one set of hooks), with its own timeouts and retries', async () => {
    const service = await upstream((_request, n, res) =>
      n === 1 ? reply(res, 503, serviceError(503, 'OVERLOADED', 'busy')) : reply(res, 200, tokenEnvelope()),
    );
    const seen: string[] = [];
    const client = createPayrollClient({
      apiSecret: SECRET,
      baseUrl: service.url,
      version: '2025-07-08',
      onRequest: ({ method, path, attempt }) => seen.push(`${method} ${path} ${attempt}`),
    });
    const { log } = captureLog();
    const handle = createLinkTokenHandler({
      client,
      version: '2025-07-08',
      orgName: 'Acme',
      solution: 'Deposit Switch',
      features: ['direct_deposit_switch'],
      log,
      ...FAST,
    });
    assert.equal((await handle(browserPost({}))).status, 200);
    assert.deepEqual(seen, ['POST /link_tokens 1', 'POST /link_tokens 2']);
  });

  test('client with apiSecret, or another version: a ConfigError naming the fields; neither: apiSecret and baseUrl required', () => {
    const client = createPayrollClient({ apiSecret: SECRET, baseUrl: 'http://127.0.0.1:9', version: '2025-07-08' });
    const product = { orgName: 'Acme', solution: 'Deposit Switch', features: ['direct_deposit_switch'] };
    assert.throws(
      () => createLinkTokenHandler({ client, apiSecret: SECRET, version: '2022-06-22', ...product }),
      (error: Error) => error instanceof ConfigError && error.message.includes('apiSecret') && error.message.includes('version'),
    );
    assert.throws(
      () => createLinkTokenHandler({ version: '2025-07-08', ...product }),
      (error: Error) => error instanceof ConfigError && error.message.includes('apiSecret') && error.message.includes('baseUrl'),
    );
  });
});

describe('upstream failures', () => {
  test('429 then 200: retried after the Retry-After it asked for', async () => {
    const service = await upstream((_request, n, res) =>
      n === 1 ? reply(res, 429, serviceError(429, 'RATE_LIMITED', 'slow down'), { 'retry-after': '1' }) : reply(res, 200, tokenEnvelope()),
    );
    const { handle, lines } = handlerFor(service);
    const response = await handle(browserPost({}));
    assert.equal(response.status, 200);
    assert.equal(service.requests.length, 2);
    assert.ok(
      lines.some((line) => line.includes('in 1000 ms') && line.includes('"reason":"Retry-After"')),
      lines.join('\n'),
    );
    // The backoff alone would wait at most 20 ms here; the gap shows the header won.
    const gap = service.requests[1]!.at - service.requests[0]!.at;
    assert.ok(gap >= 950, `waited ${gap} ms`);
  });

  test('a Retry-After beyond the overall budget: 503 at once, passing the wait on, bounded to a minute', async () => {
    for (const [asked, passedOn] of [
      ['45', '45'],
      ['120', '60'],
      ['9'.repeat(25), '60'],
    ] as const) {
      const service = await upstream((_request, _n, res) =>
        reply(res, 429, serviceError(429, 'RATE_LIMITED', 'later'), { 'retry-after': asked }),
      );
      const { handle } = handlerFor(service);
      const response = await handle(browserPost({}));
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), passedOn, `Retry-After ${asked}`);
      assert.equal(service.requests.length, 1);
    }
  });

  test('503 three times: 503 with Retry-After, and no fourth try', async () => {
    const service = await upstream((_request, _n, res) => reply(res, 503, serviceError(503, 'OVERLOADED', 'busy')));
    const { handle, lines } = handlerFor(service);
    const response = await handle(browserPost({}));
    assert.equal(response.status, 503);
    assert.match(response.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal((await errorOf(response)).error_codes[0]!.error_code, 'UPSTREAM_UNAVAILABLE');
    assert.equal(service.requests.length, 3);
    assert.ok(
      lines.some((line) => line.startsWith('error payroll service POST /link_tokens: HTTP 503') && line.includes('unavailable')),
      lines.join('\n'),
    );
  });

  test('502 is retried, then answered', async () => {
    const service = await upstream((_request, n, res) => (n === 1 ? reply(res, 502, {}) : reply(res, 200, tokenEnvelope())));
    const { handle } = handlerFor(service);
    assert.equal((await handle(browserPost({}))).status, 200);
    assert.equal(service.requests.length, 2);
  });

  // Changed in 0.2.0 (#35): the service may have minted the token (billable) before its 500 or 504, so the POST is
  // not sent again; the browser gets a 503 with Retry-After: 1, and the widget's own retry asks for a new token.
  for (const status of [500, 504]) {
    test(`${status} is not retried (the service may have minted the token): 503 with Retry-After 1`, async () => {
      const service = await upstream((_request, n, res) => (n === 1 ? reply(res, status, {}) : reply(res, 200, tokenEnvelope())));
      const { handle } = handlerFor(service);
      const response = await handle(browserPost({}));
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '1');
      assert.equal((await errorOf(response)).error_codes[0]!.error_code, 'UPSTREAM_UNAVAILABLE');
      assert.equal(service.requests.length, 1);
    });
  }

  test('malformed JSON in a 200: 502, not retried', async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, '{"data": {"id": '));
    const { handle, lines } = handlerFor(service);
    const response = await handle(browserPost({}));
    assert.equal(response.status, 502);
    assert.equal((await errorOf(response)).error_codes[0]!.error_code, 'UPSTREAM_INVALID_RESPONSE');
    assert.equal(service.requests.length, 1);
    assert.ok(lines.some((line) => line.includes('the body is not JSON')));
  });

  const invalidEnvelopes: [string, unknown][] = [
    ['no data', { token: 'x' }],
    ['token missing', { data: { ...tokenEnvelope().data, token: undefined } }],
    ['id not a UUID', tokenEnvelope({ id: 'abc' })],
    ['unknown mode', tokenEnvelope({ mode: 'live' })],
    ['expires not a date', tokenEnvelope({ expires: 'tomorrow' })],
  ];
  for (const [name, body] of invalidEnvelopes) {
    test(`schema-invalid envelope (${name}): 502, nothing passed through`, async () => {
      const service = await upstream((_request, _n, res) => reply(res, 200, body));
      const { handle } = handlerFor(service);
      const response = await handle(browserPost({}));
      assert.equal(response.status, 502);
      const text = await response.text();
      assert.ok(!text.includes('"data"'), text);
      assert.equal(ErrorBodySchema.safeParse(JSON.parse(text)).success, true);
    });
  }

  for (const [status, code] of [
    [400, 'MISSING_FIELDS'],
    [401, 'INVALID_API_SECRET'],
    [403, 'FORBIDDEN_FOR_MODE'],
  ] as const) {
    test(`${status}: logged with its error codes, 502 with a generic message, not retried`, async () => {
      const upstreamMessage = `refused: detail only the integrator should see (${code})`;
      const service = await upstream((_request, _n, res) => reply(res, status, serviceError(status, code, upstreamMessage)));
      const { handle, lines } = handlerFor(service);
      const response = await handle(browserPost({}));
      assert.equal(response.status, 502);
      const text = await response.text();
      assert.ok(!text.includes(upstreamMessage) && !text.includes(code), `the browser gets no upstream detail: ${text}`);
      assert.equal(ErrorBodySchema.parse(JSON.parse(text)).error.error_codes[0]!.error_code, 'UPSTREAM_REJECTED');
      assert.equal(service.requests.length, 1);
      const logged = lines.find((line) => line.startsWith(`error payroll service POST /link_tokens: refused with HTTP ${status}`));
      assert.ok(logged?.includes(code), lines.join('\n'));
    });
  }

  test('a redirect is not followed: it would carry the secret elsewhere', async () => {
    const elsewhere = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const service = await upstream((_request, _n, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/link_tokens` });
      res.end();
    });
    const { handle, lines } = handlerFor(service);
    assert.equal((await handle(browserPost({}))).status, 502);
    assert.equal(elsewhere.requests.length, 0);
    assert.ok(
      lines.some((line) => line.includes('not followed, since it would carry the API secret')),
      lines.join('\n'),
    );
  });

  test('a service that never answers: the try times out and is not sent again (it may have minted a token), then 503', async () => {
    const service = await upstream(() => {
      /* never answers */
    });
    const sent = countingFetch();
    // Only the try's timeout is short: the overall one, far off, never decides the answer however slow the machine.
    const { handle, lines } = handlerFor(service, { timeouts: { attemptMs: 100, totalMs: FAST.timeouts.totalMs }, fetch: sent.fetch });
    const response = await handle(browserPost({}));
    assert.equal(response.status, 503);
    assert.equal(response.headers.get('retry-after'), '1');
    // A try that timed out is not sent again: the service may have minted that token.
    assert.equal(sent.count(), 1);
    assert.equal(lines.filter((line) => line.startsWith('error') && line.includes('no answer within 100 ms')).length, 1, lines.join('\n'));
  });

  test('the overall timeout while the call still waits for its slot: a 503 whose log line names the rate limit, nothing sent', async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const sent = countingFetch();
    // A limiter whose slot never comes stands for one that many other calls share.
    const rateLimit = {
      acquire: (signal?: AbortSignal) =>
        new Promise<void>((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    };
    const { handle, lines } = handlerFor(service, { timeouts: { attemptMs: 5_000, totalMs: 200 }, fetch: sent.fetch, rateLimit });
    const response = await handle(browserPost({}));
    assert.equal(response.status, 503);
    assert.equal(response.headers.get('retry-after'), '1');
    const error = await errorOf(response);
    assert.equal(error.error_codes[0]?.error_code, 'UPSTREAM_UNAVAILABLE');
    assert.equal(sent.count(), 0, 'never sent');
    const errors = lines.filter((line) => line.startsWith('error'));
    assert.equal(errors.length, 1, lines.join('\n'));
    assert.match(errors[0]!, /no token within 200 ms \(timeouts.totalMs\): no answer, or still waiting for a slot under the rate limit/);
  });

  test('the overall timeout ends a try that would outlast it', async () => {
    const service = await upstream(() => {
      /* never answers */
    });
    const sent = countingFetch();
    const { handle } = handlerFor(service, { timeouts: { attemptMs: 10_000, totalMs: 200 }, fetch: sent.fetch });
    const response = await handle(browserPost({}));
    assert.equal(response.status, 503);
    assert.equal(sent.count(), 1);
  });

  test('headers then a body that never ends: timed out like a hang, and not sent again', async (t) => {
    const service = await upstream((_request, n, res) => {
      if (n > 1) return reply(res, 200, tokenEnvelope());
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": ');
    });
    // The handler's timers are mocked, so time passes only where the test says: the try times out once its
    // headers are in, however slowly a loaded machine delivers them.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let headersIn!: () => void;
    const firstHeaders = new Promise<void>((resolve) => (headersIn = resolve));
    const { handle } = handlerFor(service, {
      timeouts: { attemptMs: 300, totalMs: 5_000 },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        headersIn();
        return response;
      },
    });
    const answer = handle(browserPost({}));
    await firstHeaders;
    t.mock.timers.tick(300);
    assert.equal((await answer).status, 503);
    assert.equal(service.requests.length, 1);
  });

  // Changed in 0.2.0 (#35): the request reached the service before the reset, which may have minted the token.
  test('a connection reset after the request arrived: not sent again, 503', async () => {
    const service = await upstream((_request, n, res) => (n === 1 ? res.socket?.destroy() : reply(res, 200, tokenEnvelope())));
    const { handle, lines } = handlerFor(service);
    const response = await handle(browserPost({}));
    assert.equal(response.status, 503);
    assert.equal(service.requests.length, 1);
    assert.ok(
      lines.some((line) => line.includes('could not reach the service')),
      lines.join('\n'),
    );
  });

  test('nothing listening: 503, and the log says where it looked', async () => {
    const service = await upstream(() => {});
    await service.close();
    const { handle, lines } = handlerFor(service);
    assert.equal((await handle(browserPost({}))).status, 503);
    assert.ok(
      lines.some((line) => line.includes(`nothing listens at ${service.url}`)),
      lines.join('\n'),
    );
  });
});

describe('bad browser input is refused before any call', () => {
  const oversized = JSON.stringify({ end_user_id: 'x'.repeat(5_000) });
  const streamOf = (text: string) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        // Many small chunks and no Content-Length, as a chunked upload arrives.
        for (let i = 0; i < text.length; i += 512) controller.enqueue(new TextEncoder().encode(text.slice(i, i + 512)));
        controller.close();
      },
    });
  const cases: [string, () => Request, number, string][] = [
    ['GET', () => new Request('http://localhost/api/link-token'), 405, 'METHOD_NOT_ALLOWED'],
    ['PUT', () => browserPost({}, { method: 'PUT' }), 405, 'METHOD_NOT_ALLOWED'],
    ['text/plain', () => browserPost('{}', { headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [
      'form data',
      () => browserPost('end_user_id=1', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['oversized', () => browserPost(oversized), 413, 'REQUEST_TOO_LARGE'],
    [
      'oversized, streamed without a length',
      () =>
        new Request('http://localhost/', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: streamOf(oversized),
          duplex: 'half',
        } as RequestInit),
      413,
      'REQUEST_TOO_LARGE',
    ],
    ['malformed JSON', () => browserPost('{"end_user_id": '), 400, 'INVALID_REQUEST_BODY'],
    ['empty body', () => browserPost(''), 400, 'INVALID_REQUEST_BODY'],
    ['invalid UTF-8', () => browserPost(new Uint8Array([0x7b, 0xff, 0x7d]).buffer), 400, 'INVALID_REQUEST_BODY'],
    ['an array', () => browserPost([]), 400, 'INVALID_PARAMS'],
    ['null', () => browserPost('null'), 400, 'INVALID_PARAMS'],
    ['end_user_id a number', () => browserPost({ end_user_id: 42 }), 400, 'INVALID_PARAMS'],
    ['end_user_id empty', () => browserPost({ end_user_id: '' }), 400, 'INVALID_PARAMS'],
    ['end_user_id too long', () => browserPost({ end_user_id: 'x'.repeat(256) }), 400, 'INVALID_PARAMS'],
    ['an unknown field', () => browserPost({ org_name: 'Evil Corp' }), 400, 'INVALID_PARAMS'],
  ];
  for (const [name, makeRequest, status, code] of cases) {
    test(`${name} → ${status} ${code}`, async () => {
      const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
      const { handle } = handlerFor(service);
      const response = await handle(makeRequest());
      assert.equal(response.status, status);
      const error = await errorOf(response);
      assert.equal(error.error_codes[0]!.error_code, code);
      if (status === 405) assert.equal(response.headers.get('allow'), 'POST');
      assert.equal(service.requests.length, 0);
    });
  }

  test('validation errors name the field', async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const { handle } = handlerFor(service);
    const error = await errorOf(await handle(browserPost({ end_user_id: 42, org_name: 'x' })));
    const messages = error.error_codes.map((entry) => entry.message).join(' | ');
    assert.match(messages, /end_user_id: /);
    assert.match(messages, /org_name/);
  });

  test('a 255-character end_user_id and a charset parameter are fine', async () => {
    const service = await upstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const { handle } = handlerFor(service);
    const request = browserPost({ end_user_id: 'x'.repeat(255) }, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    assert.equal((await handle(request)).status, 200);
  });
});

test('no response body, header or log line contains the secret or the token', async () => {
  // The service echoes the secret in its error messages, as a careless one might. Each request says what the
  // service does with it (its end_user_id), not a step counter: a try the handler gave up on that arrives late, on
  // a loaded machine, is answered as its own step, not as the next one (a late `hang` try made a third token).
  const tokens: string[] = [];
  const service = await upstream((request, _n, res) => {
    const mode = String(JSON.parse(request.body).end_user_id);
    const echoed = `bad secret ${String(request.headers['x-api-secret'])}`;
    if (mode === 'ok') {
      const envelope = tokenEnvelope();
      tokens.push(envelope.data.token);
      return reply(res, 200, envelope);
    }
    if (mode === 'hang') return;
    if (mode === 'malformed') return reply(res, 200, `{"data": "${echoed}"`);
    reply(res, Number(mode), serviceError(Number(mode), 'ECHO', echoed), { 'x-echo': echoed });
  });
  // Only the `hang` step is meant to time out, so only it gets short timeouts: with them, an answered step slowed
  // past 1 s by a loaded machine was retried, and the service made a third token. One log for both handlers.
  const { log, lines } = captureLog();
  const { handle } = handlerFor(service, { log });
  const { handle: hanging } = handlerFor(service, { log, timeouts: { attemptMs: 1_000, totalMs: 1_500 } });
  const seen: string[] = [];
  const record = async (response: Response) => {
    seen.push(String(response.status), ...[...response.headers].map(([name, value]) => `${name}: ${value}`), await response.text());
  };
  for (const mode of ['ok', '400', '401', '403', '429', '503', 'malformed', 'hang', 'ok']) {
    await record(await (mode === 'hang' ? hanging : handle)(browserPost({ end_user_id: mode })));
  }
  for (const request of [new Request('http://localhost/'), browserPost('{'), browserPost({ nope: SECRET })]) {
    await record(await handle(request));
  }
  assert.equal(tokens.length, 2);
  assert.ok(lines.length > 10, 'the scenarios did log');
  assert.ok(
    lines.some((line) => line.includes('[redacted]')),
    'the echoed secret was caught in the log',
  );
  for (const text of [...seen, ...lines]) {
    assert.ok(!text.includes(SECRET), `leaked the secret: ${text}`);
  }
  for (const line of lines) {
    for (const token of tokens) assert.ok(!line.includes(token), `logged a token: ${line}`);
  }
});

describe('against the real sandbox', () => {
  // A Link token is one of the resources whose fields the spec shows, all four: the handler needs nothing more.
  for (const fields of ['full', 'spec'] as const) {
    test(`fields: ${fields}: 200 with the token's four fields, minted for the end user asked for`, async () => {
      const sandbox = await startTestSandbox({ fields });
      try {
        const handle = createLinkTokenHandler({
          apiSecret: sandbox.secret,
          baseUrl: sandbox.url,
          version: '2025-07-08',
          orgName: 'Acme Payroll',
          solution: 'Deposit Switch',
          features: ['direct_deposit_switch'],
          log: captureLog().log,
          ...FAST,
        });
        const response = await handle(browserPost({ end_user_id: 'user-42' }));
        assert.equal(response.status, 200);
        const { data } = LinkTokenEnvelopeSchema.parse(await response.json());
        assert.deepEqual(Object.keys(data).sort(), ['expires', 'id', 'mode', 'token']);
        assert.equal(sandbox.store.linkTokens().find((token) => token.id === data.id)?.endUserId, 'user-42');
      } finally {
        await sandbox.close();
      }
    });
  }
});
