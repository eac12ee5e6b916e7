/**
 * Review finding 2 (#48): the API secret reached a log line when the token handler got `client` (which
 * `createLinkLaunches` always passes): the handler scrubbed only an `apiSecret` of its own. Each path is run
 * three ways (the handler with `apiSecret`, with `client`, and through a launch's token route) against a loopback
 * service that echoes the secret back, or with a hook whose error carries it; every line the handler writes is
 * read. The client itself keeps the secret where no caller can read it.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { after, describe, test } from 'node:test';
import { createLinkTokenHandler, createPayrollClient, type PayrollClient } from '../../src/server/index.js';
import { createLinkLaunches, type LaunchStore } from '../../src/server/launches.js';
import { captureLog, reply, startUpstream, type FakeUpstream } from './server-example-upstream.js';

const API_SECRET = 'sk_scrub_test_5f0c9a1e7b3d4c2a8e6f1b0d9c7a5e3f';
const PUBLIC_URL = 'https://app.example.com/link';
const LAUNCH_SECRET = 'launch-secret-scrub-0123456789abcdef-0123';
const PRODUCT = { orgName: 'Acme Lending', solution: 'Deposit Switch', features: ['direct_deposit_switch'] };

const upstreams: FakeUpstream[] = [];
after(() => Promise.all(upstreams.map((upstream) => upstream.close())));

/** A service that refuses every call and echoes the secret it was sent in every text field of its error body. */
async function echoingService(): Promise<FakeUpstream> {
  const upstream = await startUpstream((request, _n, res) => {
    const echoed = String(request.headers['x-api-secret']);
    reply(res, 400, {
      error: {
        status_code: 400,
        message: `bad secret ${echoed}`,
        type: `TYPE_${echoed}`,
        error_codes: [{ error_code: `CODE_${echoed}`, message: `you sent ${echoed}` }],
      },
    });
  });
  upstreams.push(upstream);
  return upstream;
}

type Caller = 'apiSecret' | 'client' | 'createLinkLaunches';

/** A token request through `caller`, with `hooks` for the token handler's options: its answer and every log line. */
async function requestToken(caller: Caller, service: FakeUpstream, hooks: { linkTokenFields?: () => Record<string, unknown> } = {}) {
  const { log, lines } = captureLog();
  const client = createPayrollClient({ apiSecret: API_SECRET, baseUrl: service.url, version: '2025-07-08', log, maxRetries: 0 });
  let response: Response;
  if (caller === 'createLinkLaunches') {
    const launches = createLinkLaunches({
      client,
      ...PRODUCT,
      ...hooks,
      linkUrl: `${service.url}/link`,
      publicUrl: PUBLIC_URL,
      secret: LAUNCH_SECRET,
      log,
      onResult: () => {},
    });
    const { url } = await launches.create({ endUserId: 'user-scrub' });
    response = await launches.handle(
      new Request(`${url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: new URL(PUBLIC_URL).origin, 'sec-fetch-site': 'same-origin' },
        body: '{}',
      }),
    );
  } else {
    const connection =
      caller === 'client'
        ? { client }
        : { apiSecret: API_SECRET, baseUrl: service.url, version: '2025-07-08' as const, retry: { maxAttempts: 1 } };
    const handler = createLinkTokenHandler({ ...connection, ...PRODUCT, ...hooks, log });
    response = await handler(
      new Request('http://127.0.0.1/api/link-token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
  }
  return { status: response.status, text: await response.text(), lines };
}

const CALLERS: Caller[] = ['apiSecret', 'client', 'createLinkLaunches'];

describe('review finding 2: the API secret is scrubbed from every log line, whichever way the handler got it', () => {
  for (const caller of CALLERS) {
    test(`review finding 2 (${caller}): a service that echoes the secret in its error body logs the refusal, secret redacted`, async () => {
      const service = await echoingService();
      const { status, text, lines } = await requestToken(caller, service);
      assert.equal(status, 502, text);
      assert.equal(service.requests.length, 1);
      const refusal = lines.find((line) => line.includes('refused with HTTP 400'));
      assert.ok(refusal, `no refusal line in ${JSON.stringify(lines)}`);
      assert.match(refusal, /\[redacted\]/);
      for (const line of [...lines, text]) assert.ok(!line.includes(API_SECRET), `the secret reached: ${line}`);
    });

    test(`review finding 2 (${caller}): a linkTokenFields hook whose error carries the secret logs it redacted`, async () => {
      const service = await echoingService();
      const { status, text, lines } = await requestToken(caller, service, {
        linkTokenFields: () => {
          throw new Error(`could not read the employer: x-api-secret ${API_SECRET} refused`);
        },
      });
      assert.equal(status, 500, text);
      assert.equal(service.requests.length, 0);
      const hookLine = lines.find((line) => line.includes('linkTokenFields threw'));
      assert.ok(hookLine, `no hook line in ${JSON.stringify(lines)}`);
      assert.match(hookLine, /x-api-secret \[redacted\] refused/);
      for (const line of [...lines, text]) assert.ok(!line.includes(API_SECRET), `the secret reached: ${line}`);
    });
  }

  test("review finding 2 (createLinkLaunches): the launches' own lines (a failing store) are scrubbed of the client's secret too", async () => {
    const service = await echoingService();
    const { log, lines } = captureLog();
    const failing = () => Promise.reject(new Error(`store refused the connection string redis://:${API_SECRET}@cache`));
    const store: LaunchStore = { get: failing, add: failing, set: failing, remove: failing, increment: failing };
    const client = createPayrollClient({ apiSecret: API_SECRET, baseUrl: service.url, version: '2025-07-08', log });
    const launches = createLinkLaunches({
      client,
      ...PRODUCT,
      linkUrl: `${service.url}/link`,
      publicUrl: PUBLIC_URL,
      secret: LAUNCH_SECRET,
      store,
      log,
      onResult: () => {},
    });
    const { url } = await launches.create({ endUserId: 'user-store' });
    const page = await launches.handle(new Request(url));
    assert.equal(page.status, 503);
    const storeLine = lines.find((line) => line.includes('store refused the connection string'));
    assert.ok(storeLine, `no store line in ${JSON.stringify(lines)}`);
    for (const line of lines) assert.ok(!line.includes(API_SECRET), `the secret reached: ${line}`);
  });
});

describe('review finding 2: the client keeps its secret where no caller can read it', () => {
  /** Every string reachable from `value` through properties (own, inherited from non-built-in prototypes, symbols, non-enumerable). */
  function reachableStrings(value: unknown, seen = new Set<unknown>()): string[] {
    if (typeof value === 'string') return [value];
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return [];
    seen.add(value);
    const found: string[] = [];
    for (let target: object | null = value; target && target !== Object.prototype && target !== Function.prototype;) {
      for (const key of Reflect.ownKeys(target)) {
        const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
        found.push(...reachableStrings('value' in descriptor ? descriptor.value : undefined, seen));
      }
      target = Object.getPrototypeOf(target) as object | null;
    }
    return found;
  }

  test('review finding 2: no property of the client, however hidden, holds the secret; neither inspect nor JSON shows it', () => {
    const client: PayrollClient = createPayrollClient({ apiSecret: API_SECRET, baseUrl: 'http://127.0.0.1:9', version: '2025-07-08' });
    assert.ok(!reachableStrings(client).some((text) => text.includes(API_SECRET)));
    assert.ok(!inspect(client, { showHidden: true, depth: Infinity, getters: true }).includes(API_SECRET));
    assert.ok(!JSON.stringify(client).includes(API_SECRET));
  });

  test('review finding 2: a shallow copy of the client (`{ ...client }`) given as client still has its secret scrubbed', async () => {
    const { log, lines } = captureLog();
    const client = createPayrollClient({ apiSecret: API_SECRET, baseUrl: 'http://127.0.0.1:9', version: '2025-07-08', log });
    const handler = createLinkTokenHandler({
      client: { ...client },
      ...PRODUCT,
      log,
      linkTokenFields: () => {
        throw new Error(`echoed ${API_SECRET}`);
      },
    });
    const response = await handler(
      new Request('http://127.0.0.1/api/link-token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
    assert.equal(response.status, 500);
    assert.ok(
      lines.some((line) => line.includes('linkTokenFields threw: Error: echoed [redacted]')),
      JSON.stringify(lines),
    );
    assert.ok(!lines.some((line) => line.includes(API_SECRET)));
  });
});
