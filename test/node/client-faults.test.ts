/**
 * createPayrollClient under the faults of the list, against the real
 * sandbox (its default limit on) behind a fake of the outside: a loopback
 * proxy that makes the faults the sandbox never makes (503, 500, a hang, a
 * redirect, a broken body) and counts what reaches it.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  createPayrollClient,
  isPayrollApiError,
  type ClientOptions,
  type PayrollApiError,
  type RateLimiter,
} from '../../src/server/index.js';
import { DEFAULT_BACKOFF } from '../../src/server/client/transport.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { startTestSandbox } from './sandbox-test-client.js';
import { everythingOf, keepingLog, startFakeOutside, type Fault, type FakeOutside } from './client-fake-outside.js';

let sandbox: Sandbox;
let outside: FakeOutside;
let platformId: string;
const { log, lines } = keepingLog();
const errors: unknown[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

before(async () => {
  process.on('unhandledRejection', onUnhandled);
  sandbox = await startTestSandbox({ rateLimitPerSecond: 10 });
  outside = await startFakeOutside(sandbox.url);
  platformId = (await clientFor().platforms.list().toArray({ limit: 1 }))[0]!.id;
});
after(async () => {
  await outside.close();
  await sandbox.close();
  process.off('unhandledRejection', onUnhandled);
});

function clientFor(overrides: Partial<ClientOptions> = {}) {
  return createPayrollClient({
    apiSecret: sandbox.secret,
    baseUrl: outside.url,
    version: '2025-07-08',
    mode: 'sandbox',
    log,
    ...overrides,
  });
}

/** Runs `fault` for the requests of one test, and gives the requests that reached the proxy meanwhile. */
async function withFault<T>(
  fault: Fault,
  run: () => Promise<T>,
): Promise<{ value: T | undefined; error: PayrollApiError | undefined; requests: string[] }> {
  const from = outside.requests.length;
  // `seen` counts this test's requests of the same method and path only.
  const counts = new Map<string, number>();
  outside.fault = (request, response) => {
    const key = `${request.method} ${new URL(request.url ?? '/', 'http://x').pathname}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return fault(request, response, counts.get(key)!);
  };
  try {
    const value = await run();
    return { value, error: undefined, requests: outside.requests.slice(from) };
  } catch (error) {
    errors.push(error);
    if (!isPayrollApiError(error)) throw error;
    return { value: undefined, error, requests: outside.requests.slice(from) };
  } finally {
    outside.fault = null;
  }
}

const errorBody = (status: number, type: string, code: string) =>
  JSON.stringify({ error: { status_code: status, message: code, type, error_codes: [{ error_code: code, message: code }] } });

/** Answers the first `times` requests with `status` (and `headers`), then lets the rest through. */
const failFirst =
  (times: number, status: number, headers: Record<string, string> = {}): Fault =>
  (_request, response, seen) => {
    if (seen > times) return false;
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(errorBody(status, 'SERVER_ERROR', `FAKE_${status}`));
    return true;
  };

const token = () => clientFor().linkTokens.create({ org_name: 'Acme', features: ['direct_deposit_switch'], solution: 'Deposit Switch' });

describe('createPayrollClient under faults', () => {
  test('429 with Retry-After: waits what it asks, then succeeds', async () => {
    const times: number[] = [];
    const { value, requests } = await withFault(
      (request, response, seen) => {
        times.push(Date.now());
        return failFirst(1, 429, { 'retry-after': '1' })(request, response, seen);
      },
      () => clientFor().platforms.get(platformId),
    );
    assert.equal(value?.id, platformId);
    assert.equal(requests.length, 2);
    assert.ok(times[1]! - times[0]! >= 950, `waited ${times[1]! - times[0]!} ms`);
  });

  test('429 without Retry-After: backs off and succeeds; past maxRetries it is rate_limited with the hint', async () => {
    const times: number[] = [];
    const { value, requests } = await withFault(
      (request, response, seen) => {
        times.push(Date.now());
        return failFirst(2, 429)(request, response, seen);
      },
      () => clientFor().platforms.get(platformId),
    );
    assert.equal(value?.id, platformId);
    assert.equal(requests.length, 3);
    // The first retry's backoff is at least half its step (equal jitter): a lower bound only, the machine may be slow.
    const minimum = DEFAULT_BACKOFF.baseMs / 2;
    assert.ok(times[1]! - times[0]! >= minimum - 5, `retried after ${times[1]! - times[0]!} ms, less than the ${minimum} ms backoff`);
    const { error, requests: tried } = await withFault(failFirst(9, 429, { 'retry-after': '0' }), () =>
      clientFor({ maxRetries: 2 }).platforms.get(platformId),
    );
    assert.equal(error?.kind, 'rate_limited');
    assert.equal(error?.retryAfterMs, 0);
    assert.equal(tried.length, 3);
  });

  test('503 then success', async () => {
    const { value, requests } = await withFault(failFirst(1, 503), () => clientFor().platforms.get(platformId));
    assert.equal(value?.id, platformId);
    assert.equal(requests.length, 2);
  });

  for (const status of [502, 504]) {
    test(`${status} on a read, then success: retried`, async () => {
      const { value, requests } = await withFault(failFirst(1, status), () => clientFor().platforms.get(platformId));
      assert.equal(value?.id, platformId);
      assert.equal(requests.length, 2);
    });
  }

  const unreadable: [string, (status: number) => Fault][] = [
    [
      'over the cap',
      (status) => (_q, response) => (response.writeHead(status, { 'content-type': 'text/html' }).end('x'.repeat(2_000_000)), true),
    ],
    [
      'cut off',
      (status) => (_q, response) => (
        response.writeHead(status, { 'content-type': 'application/json', 'content-length': '1000' }),
        response.write('{"error":'),
        setTimeout(() => response.destroy(), 20),
        true
      ),
    ],
  ];
  for (const [name, answer] of unreadable) {
    test(`a 503 whose body is ${name} is still a 503: retried, on a POST too`, async () => {
      const first =
        (status: number): Fault =>
        (request, response, seen) =>
          seen === 1 && answer(status)(request, response, seen);
      const read = await withFault(first(503), () => clientFor().platforms.get(platformId));
      assert.equal(read.value?.id, platformId);
      assert.equal(read.requests.length, 2);
      const post = await withFault(first(503), token);
      assert.equal(post.value?.mode, 'sandbox');
      assert.deepEqual(post.requests, ['POST /link_tokens', 'POST /link_tokens']);
      // Past the retries it is kind server with its status, not invalid_response.
      const { error } = await withFault(answer(502), () => clientFor({ maxRetries: 0 }).platforms.get(platformId));
      assert.equal(error?.kind, 'server');
      assert.equal(error?.status, 502);
    });
  }

  test("per-call maxRetries and timeoutMs override the client's", async () => {
    const { error, requests } = await withFault(failFirst(1, 503), () =>
      clientFor({ maxRetries: 3 }).platforms.get(platformId, { maxRetries: 0 }),
    );
    assert.equal(error?.status, 503);
    assert.equal(requests.length, 1);
    const started = Date.now();
    const hung = await withFault(
      () => true,
      () => clientFor({ timeoutMs: 60_000 }).platforms.get(platformId, { timeoutMs: 100, maxRetries: 0 }),
    );
    assert.equal(hung.error?.kind, 'timeout');
    // Far below the client's 60 s: the call's own 100 ms bound ended it.
    assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
  });

  test('500 on linkTokens.create: exactly one POST reaches the service, kind server', async () => {
    const { error, requests } = await withFault(failFirst(1, 500), token);
    assert.equal(error?.kind, 'server');
    assert.equal(error?.status, 500);
    assert.ok(error?.hasCode('FAKE_500'));
    assert.deepEqual(requests, ['POST /link_tokens']);
  });

  test('504 on linkTokens.create is not resent either; 500 on a read is retried', async () => {
    const { error, requests } = await withFault(failFirst(1, 504), token);
    assert.equal(error?.kind, 'server');
    assert.equal(requests.length, 1);
    const read = await withFault(failFirst(1, 500), () => clientFor().platforms.get(platformId));
    assert.equal(read.value?.id, platformId);
    assert.equal(read.requests.length, 2);
  });

  test('a refused connection: kind connection, status null, after the retries', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    let attempts = 0;
    const client = clientFor({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 2, onRequest: () => attempts++ });
    const error = await client.platforms.get(platformId).catch((reason: unknown) => reason as PayrollApiError);
    errors.push(error);
    assert.ok(isPayrollApiError(error));
    assert.equal(error.kind, 'connection');
    assert.equal(error.status, null);
    assert.equal(attempts, 3);
  });

  test('a server that never answers: kind timeout within timeoutMs and a small bound; a POST is sent once', async () => {
    const hang: Fault = () => true;
    const started = Date.now();
    const { error } = await withFault(hang, () => clientFor({ timeoutMs: 300, maxRetries: 0 }).platforms.get(platformId));
    assert.equal(error?.kind, 'timeout');
    assert.equal(error?.status, null);
    // Ended by the timeout, not by anything slower (a hang would meet the test's own limit): room for a busy machine.
    assert.ok(Date.now() - started < 300 + 4_000, `${Date.now() - started} ms`);
    const post = await withFault(hang, () =>
      clientFor({ timeoutMs: 200, maxRetries: 3 }).linkTokens.create({ org_name: 'A', features: ['x'], solution: 'y' }),
    );
    assert.equal(post.error?.kind, 'timeout');
    assert.equal(post.requests.length, 1);
  });

  test('a 307 to another origin is not followed, and the secret is not sent there', async () => {
    const elsewhere: (string | undefined)[] = [];
    const other = createServer((request, response) => {
      elsewhere.push(request.headers['x-api-secret'] as string | undefined);
      response.end('{}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherUrl = `http://localhost:${(other.address() as AddressInfo).port}`;
    try {
      const { error } = await withFault(
        (_request, response) => {
          response.writeHead(307, { location: `${otherUrl}/v1/platforms/${platformId}` }).end();
          return true;
        },
        () => clientFor().platforms.get(platformId),
      );
      assert.equal(error?.kind, 'invalid_response');
      assert.equal(error?.status, 307);
      assert.deepEqual(elsewhere, []);
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  test('a 307 to the same origin is followed, as the same attempt; hooks are told the path below baseUrl', async () => {
    const told: unknown[] = [];
    const { value, requests } = await withFault(
      (request, response) => {
        if (!request.url?.startsWith('/moved/')) return false;
        response.writeHead(307, { location: request.url.slice('/moved'.length) }).end();
        return true;
      },
      async () => {
        const client = clientFor({ baseUrl: `${outside.url}/moved`, onRequest: ({ path, attempt }) => told.push([path, attempt]) });
        return client.platforms.get(platformId);
      },
    );
    assert.equal(value?.id, platformId);
    assert.deepEqual(requests, [`GET /moved/v1/platforms/${platformId}`, `GET /v1/platforms/${platformId}`]);
    // The base path /moved is not part of `path`; the redirect left it, so the second path is whole.
    assert.deepEqual(told, [
      [`/v1/platforms/${platformId}`, 1],
      [`/v1/platforms/${platformId}`, 1],
    ]);
  });

  test('a redirect loop ends with invalid_response carrying the status and request id', async () => {
    const requestId = randomUUID();
    const { error, requests } = await withFault(
      (request, response) => {
        response.writeHead(307, { location: request.url!, 'x-service-request-id': requestId }).end();
        return true;
      },
      () => clientFor().platforms.get(platformId),
    );
    assert.equal(error?.kind, 'invalid_response');
    assert.equal(error?.status, 307);
    assert.equal(error?.requestId, requestId);
    assert.equal(requests.length, 4);
  });

  const broken: [string, Fault][] = [
    ['not JSON', (_q, response) => (response.writeHead(200, { 'content-type': 'application/json' }).end('<html>'), true)],
    [
      'cut off',
      (_q, response) => (
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' }),
        response.write('{"data":'),
        setTimeout(() => response.destroy(), 20),
        true
      ),
    ],
    // A body that would pass the schema, were it read whole.
    [
      'over the cap',
      (_q, response) => (
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: { id: platformId, pad: 'x'.repeat(2_000_000) } })),
        true
      ),
    ],
    ['without data', (_q, response) => (response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"x"}'), true)],
    ['a list without meta', (_q, response) => (response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'), true)],
  ];
  for (const [name, fault] of broken) {
    test(`a 200 whose body is ${name}: invalid_response`, async () => {
      const run: () => Promise<unknown> = name.startsWith('a list')
        ? () => clientFor({ maxRetries: 0 }).employers.list().toArray({ limit: 1 })
        : () => clientFor({ maxRetries: 0 }).platforms.get(platformId);
      const { error } = await withFault(fault, run);
      assert.equal(error?.kind, 'invalid_response', error?.message);
    });
  }

  test('an aborted signal while waiting for the limiter: the call never reaches the service', async () => {
    const client = clientFor({ rateLimit: { perSecond: 1 } });
    const from = outside.requests.length;
    await client.platforms.get(platformId);
    const controller = new AbortController();
    const waiting = client.platforms.get(platformId, { signal: controller.signal });
    controller.abort(new Error('user left'));
    await assert.rejects(waiting, /user left/);
    assert.equal(outside.requests.length - from, 1);
  });

  test('a shared limiter that fails: kind connection saying so, nothing sent', async () => {
    const failing: RateLimiter = { acquire: () => Promise.reject(new Error('redis down')) };
    const from = outside.requests.length;
    const error = await clientFor({ rateLimit: failing })
      .platforms.get(platformId)
      .catch((reason: unknown) => reason as PayrollApiError);
    errors.push(error);
    assert.ok(isPayrollApiError(error));
    assert.equal(error.kind, 'connection');
    assert.match(error.message, /rate limiter failed/);
    assert.equal(outside.requests.length, from);
  });

  test('waiting for the limiter counts toward neither timeoutMs nor maxRetries', async () => {
    // The last of five waits about 4.4 s for its turn, over twice timeoutMs; each answer, once sent, has the 2 s
    // (at 400 ms, an answer through the proxy on a loaded machine could outlast it).
    const client = clientFor({ rateLimit: { perSecond: 1 }, timeoutMs: 2_000, maxRetries: 0 });
    const results = await Promise.all(Array.from({ length: 5 }, () => client.platforms.get(platformId)));
    assert.equal(results.length, 5);
  });

  test('hooks: told method, path, attempt, status, request id; a throwing hook is contained and logged', async () => {
    const seen: unknown[] = [];
    const client = clientFor({
      onRequest: (info) => seen.push(['request', info]),
      onResponse: (info) => {
        seen.push(['response', { ...info, ms: typeof info.ms }]);
        throw new Error('hook broke');
      },
    });
    const before_ = lines.length;
    const { value } = await withFault(failFirst(1, 503), () => client.platforms.get(platformId));
    assert.equal(value?.id, platformId);
    const path = `/v1/platforms/${platformId}`;
    assert.deepEqual(seen[0], ['request', { method: 'GET', path, attempt: 1 }]);
    assert.deepEqual((seen[1] as [string, Record<string, unknown>])[1], {
      method: 'GET',
      path,
      status: 503,
      requestId: null,
      attempt: 1,
      ms: 'number',
    });
    assert.equal((seen[3] as [string, { status: number; attempt: number }])[1].attempt, 2);
    assert.ok(lines.slice(before_).some((line) => line.includes('onResponse hook threw')));
    assert.ok(!JSON.stringify(seen).includes(sandbox.secret));
  });

  test('two copies of the error class: isPayrollApiError still says yes', async () => {
    const copy = await import(`../../src/server/client/payroll-api-error.ts?copy=${randomUUID()}`);
    const foreign = new copy.PayrollApiError({ kind: 'server', message: 'x' });
    assert.ok(isPayrollApiError(foreign));
    assert.equal(isPayrollApiError(new Error('x')), false);
  });

  test('bad options: a ConfigError naming each field', () => {
    assert.throws(
      () =>
        createPayrollClient({
          apiSecret: '',
          baseUrl: 'ftp://x',
          version: '1999-01-01' as '2025-07-08',
          timeoutMs: -1,
          rateLimit: 3 as unknown as false,
        }),
      (error: Error) => ['apiSecret', 'baseUrl', 'version', 'timeoutMs', 'rateLimit'].every((field) => error.message.includes(field)),
    );
  });

  test('misspelt options are a ConfigError naming each, not silently dropped', () => {
    const misspelt = {
      apiSecret: 's',
      baseUrl: outside.url,
      version: '2025-07-08',
      timeoutMS: 5_000,
      maxRetry: 0,
    } as unknown as ClientOptions;
    assert.throws(
      () => createPayrollClient(misspelt),
      (error: Error) => error.name === 'ConfigError' && error.message.includes('timeoutMS') && error.message.includes('maxRetry'),
    );
  });

  test('rateLimit.perSecond must be a whole number of requests', () => {
    assert.throws(
      () => clientFor({ rateLimit: { perSecond: 2.5 } }),
      (error: Error) => error.name === 'ConfigError' && error.message.includes('rateLimit'),
    );
  });

  test("a limiter of the app's own that also has perSecond is used, not replaced", async () => {
    let acquired = 0;
    const limiter = { perSecond: 1, acquire: async () => void acquired++ };
    const client = clientFor({ rateLimit: limiter });
    const value = await client.platforms.get(platformId);
    assert.equal(value.id, platformId);
    assert.equal(acquired, 1);
    assert.equal(client.rateLimiter, limiter, "and it is the one the client names, for requests of the app's own");
  });

  test("client.rateLimiter: the limiter its calls take their turns in, for requests of the app's own; null without one", async () => {
    const paced = clientFor({ rateLimit: { perSecond: 1 } });
    const own = paced.rateLimiter!;
    // A request of the app's own takes the one place of this second: the client's next call waits for the next
    // (a lower bound on time, which slowness cannot break; without the shared limiter it takes milliseconds).
    const started = performance.now();
    await own.acquire();
    await paced.platforms.get(platformId);
    assert.ok(performance.now() - started >= 1_000, `the client's call went ${Math.round(performance.now() - started)} ms later`);
    assert.equal(clientFor({ rateLimit: false }).rateLimiter, null);
    assert.equal(typeof clientFor().rateLimiter?.acquire, 'function', "the default: the mode's limit");
  });

  test('an async hook that rejects is contained and logged, like a throwing one', async () => {
    const before_ = lines.length;
    const value = await clientFor({
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a promise-returning hook, on purpose: what an app may pass
      onRequest: async () => {
        throw new Error('async hook broke');
      },
    }).platforms.get(platformId);
    assert.equal(value.id, platformId);
    // The hook's promise rejected before the request was even sent: logged by now.
    assert.equal(
      lines.slice(before_).filter((line) => line.includes('onRequest hook threw') && line.includes('async hook broke')).length,
      1,
    );
  });

  test('an upstream echoing the secret in Service-Version and x-service-request-id: in no hook, error or response', async () => {
    const told: unknown[] = [];
    const echo =
      (status: number, body: string): Fault =>
      (request, response) => {
        const echoed = String(request.headers['x-api-secret']);
        response
          .writeHead(status, { 'content-type': 'application/json', 'service-version': `v-${echoed}`, 'x-service-request-id': echoed })
          .end(body);
        return true;
      };
    const client = clientFor({ maxRetries: 0, onResponse: (info) => told.push(info) });
    const { value } = await withFault(echo(200, JSON.stringify({ data: { id: platformId, name: 'P', type: 'payroll' } })), () =>
      client.platforms.get(platformId),
    );
    assert.equal(value?.id, platformId);
    assert.ok(!JSON.stringify(value?.response).includes(sandbox.secret), JSON.stringify(value?.response));
    assert.equal(value?.response.requestId, null, 'not a request UUID: dropped');
    const { error } = await withFault(echo(400, errorBody(400, 'BAD', 'BAD')), () => client.platforms.get(platformId));
    assert.equal(error?.kind, 'invalid_request');
    assert.ok(!everythingOf(error).includes(sandbox.secret) && !String(error?.version).includes(sandbox.secret), everythingOf(error));
    assert.equal(told.length, 2);
    assert.ok(!JSON.stringify(told).includes(sandbox.secret), JSON.stringify(told));
  });

  test('accounts.disconnect answered 204: resolves with no body and its response', async () => {
    const { value, error } = await withFault(
      (request, response) => {
        if (request.method !== 'POST') return false;
        response.writeHead(204).end();
        return true;
      },
      () => clientFor().accounts.disconnect(randomUUID()),
    );
    assert.equal(error, undefined, error?.message);
    assert.ok(value && !('id' in value));
    assert.equal(value.response.status, 204);
    assert.equal(JSON.stringify(value), '{}');
  });

  const listAnswer =
    (body: unknown): Fault =>
    (_request, response) => (response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)), true);

  test('a list answered with meta.count only (List Platforms in the spec) is one page', async () => {
    const { value, requests } = await withFault(
      listAnswer({ data: [{ id: platformId, name: 'P', type: 'payroll' }], meta: { count: 1 } }),
      () => clientFor().platforms.list().toArray({ limit: 10 }),
    );
    assert.deepEqual(
      value?.map((platform) => platform.id),
      [platformId],
    );
    assert.equal(requests.length, 1);
  });

  test('cursor before version 2022-03-02 (no cursor pagination then) is refused before sending', async () => {
    const { error, requests } = await withFault(listAnswer({ data: [], meta: { count: 0 } }), () =>
      clientFor({ version: '2021-07-28' }).employers.list({ cursor: 'abc' }).toArray({ limit: 10 }),
    );
    assert.equal(error?.kind, 'invalid_request');
    assert.match(error?.message ?? '', /2022-03-02/);
    assert.deepEqual(requests, []);
  });

  // The timeout makes the old fault (a loop without end) a failure rather than a hang.
  test('a next_cursor the service already gave: invalid_response, not a loop', { timeout: 10_000 }, async () => {
    const { error, requests } = await withFault(listAnswer({ data: [], meta: { count: 0, next_cursor: 'same' } }), () =>
      clientFor().employers.list().toArray({ limit: 10 }),
    );
    assert.equal(error?.kind, 'invalid_response');
    assert.equal(requests.length, 2);
  });

  test('list parameters the spec gives no range or values for are sent as given', async () => {
    const queries: string[] = [];
    const longId = 'u'.repeat(300);
    const { error } = await withFault(
      (request, response) => {
        queries.push(new URL(request.url!, 'http://x').search);
        return listAnswer({ data: [], meta: { count: 0, next_cursor: null } })(request, response, 0);
      },
      async () => {
        await clientFor().accounts.list({ limit: 500, monitoring_status: 'paused_by_service', end_user_id: longId }).toArray({ limit: 1 });
        await clientFor().jobs.list({ status: 'queued' }).toArray({ limit: 1 });
        await clientFor()
          .verificationReports.voe(longId)
          .catch(() => undefined);
      },
    );
    assert.equal(error, undefined, error?.message);
    assert.deepEqual(queries.slice(0, 2), [`?limit=500&monitoring_status=paused_by_service&end_user_id=${longId}`, '?status=queued']);
    assert.equal(queries.length, 3, 'the report of a 300-character end user id was asked for');
  });

  test('an upstream echoing the secret in its error body: scrubbed from the error', async () => {
    const { error } = await withFault(
      (request, response) => {
        const echoed = String(request.headers['x-api-secret']);
        response.writeHead(400, { 'content-type': 'application/json' }).end(errorBody(400, `BAD ${echoed}`, `CODE_${echoed}`));
        return true;
      },
      () => clientFor().platforms.get(platformId),
    );
    assert.equal(error?.kind, 'invalid_request');
    assert.ok(!everythingOf(error).includes(sandbox.secret), everythingOf(error));
  });

  test('the secret is in no error and no log line; no unhandled rejection', () => {
    assert.ok(errors.length >= 10);
    for (const error of errors) assert.ok(!everythingOf(error).includes(sandbox.secret), everythingOf(error));
    for (const line of lines) assert.ok(!line.includes(sandbox.secret), line);
    assert.deepEqual(unhandled, []);
    assert.equal(outside.sandbox429s(), 0);
  });
});
