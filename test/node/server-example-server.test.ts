/**
 * The runnable example server: its routes through the real node:http adapter,
 * the account list, configuration from the environment, start-up errors as
 * `npm run server-example` prints them, and the README's plain-Node snippet
 * being this very code. The service behind it is a fake on loopback here; the
 * sandbox round trip is in server-example-sandbox.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../../src/server/config-error.js';
import { ErrorBodySchema } from '../../src/server/error-body.js';
import {
  exampleServerOptionsFromEnv,
  startExampleServer,
  type ExampleServer,
  type ExampleServerOptions,
} from '../../server-example/server.js';
import { LinkTokenEnvelopeSchema } from '../../src/protocol.js';
import {
  exampleServerOptions,
  reply,
  serviceError,
  startUpstream,
  tokenEnvelope,
  type FakeUpstream,
  WEBHOOK_SECRET,
} from './server-example-upstream.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'sk_sandbox_server_test_secret';

const options = (service: FakeUpstream): ExampleServerOptions => exampleServerOptions(service, SECRET);

/** The query of a request the service got, as an object (the client orders parameters its own way), once the path is `path`. */
function sentQuery(sent: string, path: string): Record<string, string> {
  const url = new URL(sent, 'http://service.invalid');
  assert.equal(url.pathname, path);
  return Object.fromEntries(url.searchParams);
}

describe('routes, served through the node:http adapter', () => {
  const accounts = {
    data: [{ id: crypto.randomUUID(), platform_name: 'Gusto Sandbox', connected: true }],
    meta: { count: 1, next_cursor: null },
  };
  let service: FakeUpstream;
  let server: ExampleServer;
  before(async () => {
    service = await startUpstream((request, _n, res) => {
      if (request.path.startsWith('/link_tokens')) return reply(res, 200, tokenEnvelope());
      if (request.path.startsWith('/v1/accounts?end_user_id=refused')) return reply(res, 401, serviceError(401, 'BAD_SECRET', 'no'));
      if (request.path.startsWith('/v1/accounts')) return reply(res, 200, accounts);
      reply(res, 404, serviceError(404, 'NOT_FOUND', 'no such path'));
    });
    server = await startExampleServer(options(service));
  });
  after(async () => {
    await server.close();
    await service.close();
  });

  test('POST /api/link-token answers the envelope', async () => {
    const response = await fetch(`${server.url}/api/link-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"end_user_id":"u-1"}',
    });
    assert.equal(response.status, 200);
    assert.equal(LinkTokenEnvelopeSchema.safeParse(await response.json()).success, true);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(JSON.parse(service.requests.at(-1)!.body).end_user_id, 'u-1');
  });

  test('GET /api/link-token: 405 with Allow', async () => {
    const response = await fetch(`${server.url}/api/link-token`);
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'POST');
    assert.equal(ErrorBodySchema.parse(await response.json()).error.status_code, 405);
  });

  test('an oversized chunked upload gets its 413 through the adapter', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16_384));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Far more than the cap, and no Content-Length: the cap must hold while reading.
        if (sent++ < 64) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${server.url}/api/link-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit).catch((error: unknown) => error);
    // The server may close the connection while the client is still sending; what arrives must be the 413.
    if (response instanceof Response) {
      assert.equal(response.status, 413);
      assert.equal(ErrorBodySchema.parse(await response.json()).error.error_codes[0]!.error_code, 'REQUEST_TOO_LARGE');
    } else {
      assert.ok(response instanceof Error, String(response));
    }
    // Either way the server is still fine.
    assert.equal(
      (await fetch(`${server.url}/api/link-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status,
      200,
    );
  });

  test('webhooks: POST delivers, GET lists', async () => {
    const event = {
      event: 'account.added',
      event_id: crypto.randomUUID(),
      payload: { account_id: crypto.randomUUID(), platform_name: 'Gusto Sandbox', link_token_id: crypto.randomUUID() },
    };
    const post = await fetch(`${server.url}/api/webhooks?secret=${WEBHOOK_SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    assert.equal(post.status, 200);
    const list = (await (await fetch(`${server.url}/api/webhooks`)).json()) as { data: { event_id: string }[] };
    assert.deepEqual(
      list.data.map((item) => item.event_id),
      [event.event_id],
    );
  });

  test('GET /api/accounts lists through GET /v1/accounts with the secret and version, passing filters on', async () => {
    const response = await fetch(`${server.url}/api/accounts?connected=true&limit=10`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), accounts);
    const sent = service.requests.at(-1)!;
    assert.equal(sent.method, 'GET');
    assert.deepEqual(sentQuery(sent.path, '/v1/accounts'), { connected: 'true', limit: '10' });
    assert.equal(sent.headers['x-api-secret'], SECRET);
    assert.equal(sent.headers['service-version'], '2025-07-08');
  });

  test('GET /api/accounts passes on every filter it supports, and only those', async () => {
    const query = 'connected=false&monitoring_status=disconnected&end_user_id=user-42&limit=100&cursor=opaque.cursor';
    const response = await fetch(`${server.url}/api/accounts?${query}`);
    assert.equal(response.status, 200);
    assert.deepEqual(sentQuery(service.requests.at(-1)!.path, '/v1/accounts'), Object.fromEntries(new URLSearchParams(query)));
  });

  test('GET /api/accounts refuses unknown, bad or repeated filters with a 400 naming the parameter, before any call', async () => {
    const before = service.requests.length;
    const bad: [string, RegExp][] = [
      ['?connected=maybe', /^connected: /],
      ['?limit=ten', /^limit: must be a whole number from 1 to 100/],
      ['?limit=0', /^limit: must be a whole number from 1 to 100/],
      ['?limit=101', /^limit: must be a whole number from 1 to 100/],
      ['?limit=1e2', /^limit: /],
      ['?monitoring_status=sleeping', /^monitoring_status: /],
      ['?end_user_id=', /^end_user_id: /],
      [`?end_user_id=${'u'.repeat(256)}`, /^end_user_id: /],
      ['?cursor=', /^cursor: /],
      ['?limit=1&limit=2', /^limit: must be given once/],
      ['?secret=1', /secret/],
      ['?__proto__=1', /__proto__/],
    ];
    for (const [query, message] of bad) {
      const response = await fetch(`${server.url}/api/accounts${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const { error } = ErrorBodySchema.parse(await response.json());
      assert.equal(error.type, 'INVALID_REQUEST_PARAMETERS', query);
      assert.equal(error.message, 'The query string is invalid.', query);
      assert.equal(error.error_codes[0]!.error_code, 'INVALID_PARAMS', query);
      assert.match(error.error_codes[0]!.message, message, query);
    }
    assert.equal(service.requests.length, before);
  });

  test('GET /api/accounts: a refusal upstream is a 502 without its detail', async () => {
    const response = await fetch(`${server.url}/api/accounts?end_user_id=refused`);
    assert.equal(response.status, 502);
    assert.ok(!(await response.text()).includes('BAD_SECRET'));
  });

  test('POST /api/accounts: 405', async () => {
    const response = await fetch(`${server.url}/api/accounts`, { method: 'POST' });
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'GET');
  });

  test('an unknown path: 404 in the error shape', async () => {
    const response = await fetch(`${server.url}/api/nope`);
    assert.equal(response.status, 404);
    assert.equal(ErrorBodySchema.parse(await response.json()).error.error_codes[0]!.error_code, 'NOT_FOUND');
  });
});

describe('start-up errors', () => {
  test('a port in use is a ConfigError that says so', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    const service = await startUpstream(() => {});
    try {
      await assert.rejects(startExampleServer({ ...options(service), port }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, new RegExp(`Port ${port} on 127.0.0.1 is already in use`));
        return true;
      });
    } finally {
      blocker.close();
      await service.close();
    }
  });

  test('bad options are a ConfigError naming the field', async () => {
    const service = await startUpstream(() => {});
    try {
      await assert.rejects(startExampleServer({ ...options(service), version: '2030-01-01' as '2025-07-08' }), /version: must be one of/);
      await assert.rejects(startExampleServer({ ...options(service), port: 70_000 }), /port:/);
    } finally {
      await service.close();
    }
  });
});

describe('configuration from the environment', () => {
  test('defaults fit npm run sandbox', () => {
    const parsed = exampleServerOptionsFromEnv({ PAYROLL_API_SECRET: SECRET });
    assert.equal(parsed.baseUrl, 'http://127.0.0.1:4010');
    assert.equal(parsed.version, '2025-07-08');
    assert.equal(parsed.port, 8787);
    assert.equal(parsed.host, '127.0.0.1');
    assert.deepEqual(parsed.features, ['direct_deposit_switch']);
  });

  test('every variable is read', () => {
    const parsed = exampleServerOptionsFromEnv({
      PAYROLL_API_SECRET: SECRET,
      PAYROLL_BASE_URL: 'https://sandbox.payroll.example',
      PAYROLL_VERSION: '2021-07-28',
      PAYROLL_ORG_NAME: 'Beta',
      PAYROLL_SOLUTION: 'Income',
      PAYROLL_FEATURES: 'direct_deposit_switch, paystubs',
      PORT: '9001',
      HOST: '0.0.0.0',
    });
    assert.deepEqual(
      { ...parsed },
      {
        apiSecret: SECRET,
        baseUrl: 'https://sandbox.payroll.example',
        version: '2021-07-28',
        orgName: 'Beta',
        solution: 'Income',
        features: ['direct_deposit_switch', 'paystubs'],
        port: 9001,
        host: '0.0.0.0',
      },
    );
  });

  const bad: [string, NodeJS.ProcessEnv, RegExp][] = [
    ['no secret', {}, /PAYROLL_API_SECRET: is required[\s\S]*npm run sandbox/],
    ['unknown version', { PAYROLL_API_SECRET: SECRET, PAYROLL_VERSION: '2019-01-01' }, /PAYROLL_VERSION: must be one of/],
    ['http off loopback', { PAYROLL_API_SECRET: SECRET, PAYROLL_BASE_URL: 'http://payroll.example' }, /PAYROLL_BASE_URL: must use https/],
    ['PORT not a number', { PAYROLL_API_SECRET: SECRET, PORT: 'eighty' }, /PORT:/],
    ['empty feature list', { PAYROLL_API_SECRET: SECRET, PAYROLL_FEATURES: '' }, /PAYROLL_FEATURES:/],
  ];
  for (const [name, env, expected] of bad) {
    test(`${name}: a ConfigError naming the variable`, () => {
      assert.throws(
        () => exampleServerOptionsFromEnv(env),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.match(error.message, expected);
          assert.ok(!error.message.includes(SECRET));
          return true;
        },
      );
    });
  }
});

/** Runs `server.ts` as `npm run server-example` does (tsx), until it prints a line matching `until` or exits. */
function runServerExample(env: NodeJS.ProcessEnv, until?: RegExp) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server-example/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const printed = new Promise<string>((resolve, reject) => {
    if (!until) return;
    child.stdout.on('data', () => {
      const match = until.exec(stdout);
      if (match) resolve(match[0]);
    });
    void exited.then(() => reject(new Error(`exited before printing ${until}: ${stdout}${stderr}`)));
  });
  printed.catch(() => {}); // awaited only by the tests that wait for output
  return { child, exited, printed, output: () => ({ stdout, stderr }) };
}

describe('npm run server-example', () => {
  test('missing secret: one clear message, exit code 1, no stack trace', async () => {
    const run = runServerExample({});
    assert.equal(await run.exited, 1);
    const { stderr } = run.output();
    assert.match(stderr, /^server-example: Invalid environment:\n {2}- PAYROLL_API_SECRET: is required/);
    assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  });

  test('port in use: one clear message, exit code 1, no stack trace', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const run = runServerExample({ PAYROLL_API_SECRET: SECRET, PORT: String(port) });
      assert.equal(await run.exited, 1);
      const { stderr } = run.output();
      assert.equal(
        stderr.trim(),
        `server-example: Port ${port} on 127.0.0.1 is already in use: stop what runs there, or set PORT to another port.`,
      );
    } finally {
      blocker.close();
    }
  });

  test('starts, serves, and stops on SIGTERM', async () => {
    const service = await startUpstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
    const run = runServerExample(
      { PAYROLL_API_SECRET: SECRET, PAYROLL_BASE_URL: service.url, PORT: '0' },
      /listening on (http:\/\/127\.0\.0\.1:\d+)/,
    );
    try {
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(await run.printed)![0];
      const response = await fetch(`${url}/api/link-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(response.status, 200);
      assert.equal(service.requests.length, 1);
      run.child.kill('SIGTERM');
      assert.equal(await run.exited, 0);
      const { stdout, stderr } = run.output();
      assert.ok(!`${stdout}${stderr}`.includes(SECRET), 'the secret is never printed');
    } finally {
      run.child.kill('SIGKILL');
      await service.close();
    }
  });
});
