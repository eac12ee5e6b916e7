/**
 * Review finding 8 (#48): an unknown webhook event's name with CR/LF reached a log line raw, so a delivery could
 * write a line of its own into the integrator's log. Every line the handlers write goes through one logger
 * (`redactingLogger`), which escapes control characters (C0, DEL, C1, U+2028, U+2029) in the message and in every
 * string of the fields. Read here as an integrator reads them: a real `Console` writing to a stream.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Console } from 'node:console';
import { PassThrough } from 'node:stream';
import { after, test } from 'node:test';
import { createLinkTokenHandler, createWebhookHandler } from '../../src/server/index.js';
import { redactingLogger } from '../../src/server/logger.js';
import { toNodeHandler } from '../../src/server/node.js';

const WEBHOOK_SECRET = 'whsec_control_characters_test';

/** A `Console` as `log`, and the text it wrote, split into the lines a log reader sees. */
function consoleLog() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const log = new Console({ stdout: stream, stderr: stream, colorMode: false });
  return { log, lines: () => text.split(/\r\n|\r|\n|\u2028|\u2029|\u0085/).filter((line) => line !== '') };
}

const servers: ReturnType<typeof createServer>[] = [];
after(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

test('review finding 8: an unknown webhook event named "x\\r\\nFAKE …" writes one log line, its CR/LF escaped, no forged line', async () => {
  const { log, lines } = consoleLog();
  const server = createServer(toNodeHandler(createWebhookHandler({ secret: WEBHOOK_SECRET, log, onEvent: () => {} })));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const event = 'x.unknown\r\nFAKE error payroll-link: the API secret is sk_live_123\u2028FAKE2\u0085FAKE3';
  const response = await fetch(`http://127.0.0.1:${port}/api/webhooks?secret=${WEBHOOK_SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event, event_id: crypto.randomUUID(), payload: {} }),
  });
  assert.equal(response.status, 200, await response.text());
  const written = lines();
  assert.equal(written.length, 1, `more than one line: ${JSON.stringify(written)}`);
  assert.ok(!written.some((line) => line.startsWith('FAKE')));
  assert.ok(
    written[0]!.startsWith(
      'webhook x.unknown\\r\\nFAKE error payroll-link: the API secret is sk_live_123\\u2028FAKE2\\u0085FAKE3: an event',
    ),
    written[0],
  );
});

test("review finding 8: a hook's error with CR, LF, TAB, ESC, DEL, C1 and U+2028/2029 is one line, each escaped visibly", async () => {
  const { log, lines } = consoleLog();
  const handler = createLinkTokenHandler({
    apiSecret: 'sk_control_characters_0123456789',
    baseUrl: 'http://127.0.0.1:9',
    version: '2025-07-08',
    orgName: 'Acme',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    log,
    linkTokenFields: () => {
      throw new Error('a\rb\nc\td\u001be\u007ff\u009bg\u2028h\u2029i');
    },
  });
  const response = await handler(
    new Request('http://127.0.0.1/api/link-token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
  );
  assert.equal(response.status, 500);
  const written = lines();
  assert.equal(written.length, 1, JSON.stringify(written));
  assert.ok(written[0]!.endsWith('Error: a\\rb\\nc\\td\\u001be\\u007ff\\u009bg\\u2028h\\u2029i'), written[0]);
  assert.doesNotMatch(written[0]!, /\p{Cc}/u);
});

test('review finding 8: the logger escapes strings at any depth of the fields, keys too, and leaves other values and plain text alone', () => {
  const seen: unknown[] = [];
  const log = redactingLogger({ info: (...args) => void seen.push(args), warn: () => {}, error: () => {} }, ['s3cr3t']);
  log.info('plain text, quotes " and a backslash \\ stay', {
    count: 3,
    ok: true,
    none: null,
    nested: { list: ['a\nb', { 'key\rx': 'v\u2029' }], secret: 'is s3cr3t\n' },
  });
  assert.deepEqual(seen, [
    [
      'plain text, quotes " and a backslash \\ stay',
      { count: 3, ok: true, none: null, nested: { list: ['a\\nb', { 'key\\rx': 'v\\u2029' }], secret: 'is [redacted]\\n' } },
    ],
  ]);
});

test("review finding 8: toNodeHandler's own failure line stays one line when the error's message carries CR/LF", async () => {
  const { log, lines } = consoleLog();
  // A handler of the app's that throws an error whose message came from outside.
  const failing = () => Promise.reject(new Error('upstream said\r\nFAKE error payroll-link: forged\u2028FAKE2'));
  const server = createServer(toNodeHandler(failing, { log }));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST' });
  assert.equal(response.status, 500);
  await response.arrayBuffer();
  assert.equal(lines().length, 1, lines().join('\n'));
  assert.match(lines()[0]!, /upstream said\\r\\nFAKE error payroll-link: forged\\u2028FAKE2/);
});
