/**
 * Review finding 3 (#48): a stalled body held the token handler and the launch routes until Node's own limit
 * (300 s). Every handler now bounds the time to read a body (`bodyTimeoutMs`, 10 s by default) and answers 408 in
 * the spec's error body, logged once. Each handler is mounted on a real node:http server through the Node adapter,
 * as integrators mount it; a raw socket sends the headers and part of a body, then nothing.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ConfigError } from '../../src/server/config-error.js';
import { ErrorBodySchema } from '../../src/server/error-body.js';
import { createPayrollClient } from '../../src/server/index.js';
import { createLinkTokenHandler } from '../../src/server/link-token/link-token-handler.js';
import { createLinkLaunches, type LinkLaunches } from '../../src/server/launches.js';
import { toNodeHandler, type WebHandler } from '../../src/server/node.js';
import { createWebhookHandler } from '../../src/server/webhooks/webhook-handler.js';
import { captureLog } from './server-example-upstream.js';

/** Short, so that the test is quick; the answer is awaited, never the time. */
const DEADLINE_MS = 200;
const LAUNCH_SECRET = 'launch-secret-0123456789abcdef-0123456789';
const { log, lines } = captureLog();

let server: Server;
let port: number;
let launches: LinkLaunches;
const handlers = new Map<string, WebHandler>();

before(async () => {
  server = createServer((req, res) => {
    const prefix = [...handlers.keys()].find((path) => req.url!.startsWith(path))!;
    void toNodeHandler(handlers.get(prefix)!)(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  // Nothing here reaches the service: each body is refused before anything would be minted.
  const service = `http://127.0.0.1:${port}/nowhere`;
  const client = createPayrollClient({ apiSecret: 'sandbox_body_deadline_0123456789', baseUrl: service, version: '2025-07-08', log });
  const product = { orgName: 'Acme Lending', solution: 'Deposit Switch', features: ['direct_deposit_switch'] };
  handlers.set('/api/link-token', createLinkTokenHandler({ client, version: '2025-07-08', ...product, log, bodyTimeoutMs: DEADLINE_MS }));
  handlers.set('/api/webhooks', createWebhookHandler({ allowUnverified: true, onEvent: () => {}, log, bodyTimeoutMs: DEADLINE_MS }));
  launches = createLinkLaunches({
    client,
    ...product,
    linkUrl: `http://127.0.0.1:${port}/link-page`,
    publicUrl: `http://127.0.0.1:${port}/link`,
    secret: LAUNCH_SECRET,
    log,
    onResult: () => {},
    bodyTimeoutMs: DEADLINE_MS,
  });
  handlers.set('/link/', (request) => launches.handle(request));
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** What a stalled request got: its status and body, when the answer came, and when the server let the socket go. */
interface StalledAnswer {
  status: number;
  body: unknown;
  answeredAfterMs: number;
  /** Resolves when the server has closed the connection. */
  released: Promise<void>;
}

/** Sends the headers and the first bytes of a 64-byte JSON body, then nothing; resolves with the answer. */
function stalledPost(path: string): Promise<StalledAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let received = '';
    const released = new Promise<void>((done) => socket.once('close', () => done()));
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('data', (chunk: string) => {
      received += chunk;
      const split = received.indexOf('\r\n\r\n');
      if (split < 0) return;
      const head = received.slice(0, split);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
      const body = received.slice(split + 4);
      if (body.length < length) return;
      socket.removeAllListeners('data');
      resolve({ status: Number(head.split(' ')[1]), body: JSON.parse(body), answeredAfterMs: Date.now() - started, released });
    });
    socket.write(
      [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', 'Content-Length: 64', '', '{"end_user_id":'].join(
        '\r\n',
      ),
    );
  });
}

/** The launch's token and result paths, below `publicUrl`. */
async function launchPaths(): Promise<{ token: string; result: string }> {
  const { url } = await launches.create({ endUserId: 'user-deadline' });
  const path = new URL(url).pathname;
  return { token: `${path}/token`, result: `${path}/result` };
}

const timeoutLines = () => lines.filter((line) => /did not arrive within 200 ms/.test(line));

describe('the body deadline', () => {
  test(
    'review finding 3: a stalled body gets 408 at the deadline from every handler, logged once, and its socket is released',
    { timeout: 20_000 },
    async () => {
      const { token, result } = await launchPaths();
      for (const path of ['/api/link-token', '/api/webhooks', token, result]) {
        const before = timeoutLines().length;
        const answer = await stalledPost(path);
        assert.equal(answer.status, 408, path);
        const { error } = ErrorBodySchema.parse(answer.body);
        assert.equal(error.status_code, 408, path);
        assert.equal(error.error_codes[0]!.error_code, 'REQUEST_TIMEOUT', path);
        // Not before the deadline, and long before the default 10 s or Node's 300 s.
        assert.ok(answer.answeredAfterMs >= DEADLINE_MS - 10, `${path}: answered after ${answer.answeredAfterMs} ms`);
        assert.ok(answer.answeredAfterMs < 5_000, `${path}: answered after ${answer.answeredAfterMs} ms`);
        await answer.released;
        assert.equal(timeoutLines().length, before + 1, `${path}: one log line`);
      }
    },
  );

  test('each request has its own deadline: stalled ones beside a prompt one, each answered on its own', { timeout: 20_000 }, async () => {
    const before = timeoutLines().length;
    const stalled = [stalledPost('/api/webhooks'), stalledPost('/api/link-token'), stalledPost('/api/webhooks')];
    const prompt = await fetch(`http://127.0.0.1:${port}/api/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'account.added', event_id: crypto.randomUUID(), payload: {} }),
    });
    assert.equal(prompt.status, 200, 'the prompt delivery is answered, not held for the stalled ones');
    for (const answer of await Promise.all(stalled)) {
      assert.equal(answer.status, 408);
      await answer.released;
    }
    assert.equal(timeoutLines().length, before + 3);
  });

  test('without Node: the stalled body stream is cancelled at the deadline, and the answer is 408', async () => {
    let cancelled!: (reason: unknown) => void;
    const cancelledWith = new Promise<unknown>((resolve) => (cancelled = resolve));
    // A Web-standard body that sends a first chunk and then nothing, as on workerd, Deno or Bun.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"event":'));
      },
      cancel: (reason) => cancelled(reason),
    });
    const request = new Request(`http://127.0.0.1:${port}/api/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    const answer = await handlers.get('/api/webhooks')!(request);
    assert.equal(answer.status, 408);
    assert.equal(ErrorBodySchema.parse(await answer.json()).error.error_codes[0]!.error_code, 'REQUEST_TIMEOUT');
    assert.equal(((await cancelledWith) as Error).name, 'TimeoutError');
  });

  test('bodyTimeoutMs is checked with the other options', () => {
    const client = createPayrollClient({
      apiSecret: 'sandbox_body_deadline_0123456789',
      baseUrl: 'http://127.0.0.1:9',
      version: '2025-07-08',
    });
    const product = { orgName: 'Acme', solution: 'Deposit Switch', features: ['direct_deposit_switch'] };
    for (const bodyTimeoutMs of [0, 1.5, 'soon', 300_001]) {
      const wrong = bodyTimeoutMs as number;
      assert.throws(() => createLinkTokenHandler({ client, version: '2025-07-08', ...product, bodyTimeoutMs: wrong }), isBodyTimeoutError);
      assert.throws(() => createWebhookHandler({ allowUnverified: true, onEvent: () => {}, bodyTimeoutMs: wrong }), isBodyTimeoutError);
      assert.throws(
        () =>
          createLinkLaunches({
            client,
            ...product,
            linkUrl: 'https://link.example.com/link',
            publicUrl: 'https://app.example.com/link',
            secret: LAUNCH_SECRET,
            onResult: () => {},
            bodyTimeoutMs: wrong,
          }),
        isBodyTimeoutError,
      );
    }
  });
});

const isBodyTimeoutError = (error: unknown) => error instanceof ConfigError && /bodyTimeoutMs/.test(error.message);
