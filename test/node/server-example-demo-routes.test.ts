/**
 * The demo-only routes (`GET /api/accounts`, `GET /api/webhooks`) have no
 * authentication: the example server answers them only when it listens on
 * loopback (and there only to requests addressed to loopback by name), unless
 * `demoRoutes` (`DEMO_ROUTES`) says otherwise. Real servers,
 * bound as each case says; the requests always go through 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { get as httpGet } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { ConfigError } from '../../src/server/config-error.js';
import { ErrorBodySchema } from '../../src/server/error-body.js';
import { exampleServerOptionsFromEnv, startExampleServer, type ExampleServerOptions } from '../../server-example/server.js';
import {
  captureLog,
  exampleServerOptions,
  reply,
  serviceError,
  startUpstream,
  type FakeUpstream,
  WEBHOOK_SECRET,
} from './server-example-upstream.js';

const SECRET = 'sk_sandbox_demo_routes_test_secret';

let service: FakeUpstream;
before(async () => {
  service = await startUpstream((request, _n, res) => {
    if (request.path.startsWith('/v1/accounts')) return reply(res, 200, { data: [], meta: { count: 0, next_cursor: null } });
    reply(res, 404, serviceError(404, 'NOT_FOUND', 'no such path'));
  });
});
after(() => service.close());

/** Starts the example server with `overrides`, and returns how to reach it over 127.0.0.1 (or ::1) whatever it is bound to. */
async function serve(overrides: Partial<ExampleServerOptions>) {
  const { log, lines } = captureLog();
  const server = await startExampleServer({ ...exampleServerOptions(service, SECRET, log), ...overrides });
  const port = new URL(server.url).port;
  const base = overrides.host === '::1' ? `http://[::1]:${port}` : `http://127.0.0.1:${port}`;
  return { server, base, lines };
}

const accountAdded = () => ({
  event: 'account.added',
  event_id: crypto.randomUUID(),
  payload: { account_id: crypto.randomUUID(), platform_name: 'Gusto Sandbox', link_token_id: crypto.randomUUID() },
});

/** The status of each demo route, and of a webhook delivery (which must never be gated). */
async function statuses(base: string) {
  const accounts = await fetch(`${base}/api/accounts`);
  const webhooks = await fetch(`${base}/api/webhooks`);
  const delivery = await fetch(`${base}/api/webhooks?secret=${WEBHOOK_SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(accountAdded()),
  });
  for (const response of [accounts, webhooks]) {
    if (response.status === 404) {
      assert.equal(ErrorBodySchema.parse(await response.json()).error.error_codes[0]!.error_code, 'NOT_FOUND');
    }
  }
  return { accounts: accounts.status, webhooks: webhooks.status, delivery: delivery.status };
}

/** A GET with the `Host` header of our choosing (fetch always sends the URL's own). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

describe('where the demo routes are served', () => {
  for (const host of ['127.0.0.1', '::1', 'localhost']) {
    test(`bound to ${host} (loopback): served`, async () => {
      const { server, base } = await serve({ host });
      try {
        assert.equal(server.demoRoutes, true);
        assert.deepEqual(await statuses(base), { accounts: 200, webhooks: 200, delivery: 200 });
      } finally {
        await server.close();
      }
    });
  }

  test('bound to 0.0.0.0: 404, and webhook deliveries still work', async () => {
    const before = service.requests.length;
    const { server, base } = await serve({ host: '0.0.0.0' });
    try {
      assert.equal(server.demoRoutes, false);
      assert.deepEqual(await statuses(base), { accounts: 404, webhooks: 404, delivery: 200 });
      assert.equal(service.requests.length, before, 'the service is never asked for the accounts');
      // The other methods of a hidden route are hidden too, not a 405 that gives it away.
      assert.equal((await fetch(`${base}/api/accounts`, { method: 'POST' })).status, 404);
    } finally {
      await server.close();
    }
  });

  test('bound to 0.0.0.0 with demoRoutes: true: served, with a warning', async () => {
    const { server, base, lines } = await serve({ host: '0.0.0.0', demoRoutes: true });
    try {
      assert.equal(server.demoRoutes, true);
      assert.deepEqual(await statuses(base), { accounts: 200, webhooks: 200, delivery: 200 });
      assert.ok(
        lines.some((line) => line.startsWith('warn ') && line.includes('/api/accounts') && line.includes('0.0.0.0')),
        lines.join('\n'),
      );
      assert.ok(!lines.join('\n').includes(SECRET));
    } finally {
      await server.close();
    }
  });

  test('on loopback, requests addressed to another name (DNS rebinding) get 403; deliveries still work', async () => {
    const { server, base } = await serve({ host: '127.0.0.1' });
    try {
      const port = new URL(base).port;
      for (const path of ['/api/accounts', '/api/webhooks']) {
        const rebound = await getWithHost(`${base}${path}`, `attacker.example:${port}`);
        assert.equal(rebound.status, 403, path);
        assert.equal(ErrorBodySchema.parse(JSON.parse(rebound.body)).error.error_codes[0]!.error_code, 'HOST_NOT_LOOPBACK');
        assert.equal((await getWithHost(`${base}${path}`, `localhost:${port}`)).status, 200, path);
        assert.equal((await getWithHost(`${base}${path}`, `[::1]:${port}`)).status, 200, path);
      }
      assert.equal((await statuses(base)).delivery, 200);
    } finally {
      await server.close();
    }
  });

  test('on loopback with demoRoutes: false: 404', async () => {
    const { server, base } = await serve({ host: '127.0.0.1', demoRoutes: false });
    try {
      assert.equal(server.demoRoutes, false);
      assert.deepEqual(await statuses(base), { accounts: 404, webhooks: 404, delivery: 200 });
    } finally {
      await server.close();
    }
  });
});

describe('DEMO_ROUTES', () => {
  test('unset: decided by the address (no demoRoutes option)', () => {
    assert.equal('demoRoutes' in exampleServerOptionsFromEnv({ PAYROLL_API_SECRET: SECRET, HOST: '0.0.0.0' }), false);
  });

  test('true and false set the option', () => {
    assert.equal(exampleServerOptionsFromEnv({ PAYROLL_API_SECRET: SECRET, DEMO_ROUTES: 'true' }).demoRoutes, true);
    assert.equal(exampleServerOptionsFromEnv({ PAYROLL_API_SECRET: SECRET, DEMO_ROUTES: 'false' }).demoRoutes, false);
  });

  test('anything else is a ConfigError naming the variable', () => {
    assert.throws(
      () => exampleServerOptionsFromEnv({ PAYROLL_API_SECRET: SECRET, DEMO_ROUTES: 'yes please' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /DEMO_ROUTES: must be true or false/);
        return true;
      },
    );
  });
});
