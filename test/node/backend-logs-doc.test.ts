/**
 * docs/backend.md's "Logs" table says what the token and webhook handlers write: this test runs both, on the path
 * that goes well and on a few that fail, and holds every line they write to the table (its level, its message,
 * `…` standing for the details, and its fields). A token that goes well writes exactly the rows marked "every
 * token minted"; a webhook event handled once, and its copy, write nothing.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, test } from 'node:test';
import { createLinkTokenHandler, createWebhookHandler, type Logger, type LinkTokenHandlerConfig } from '../../src/server/index.js';
import { reply, serviceError, startUpstream, tokenEnvelope, type FakeUpstream } from './server-example-upstream.js';
import { accountAdded } from './webhook-event.js';

/** One line a handler wrote. */
interface Line {
  level: string;
  message: string;
  fields: string[];
}

/** One row of the docs' table. */
interface Row {
  handler: string;
  level: string;
  messages: RegExp[];
  fields: string[];
  when: string;
}

const codeSpans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

async function documentedRows(): Promise<Row[]> {
  const doc = await readFile(new URL('../../docs/backend.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Logs: the `log` option'));
  const table = section.slice(section.indexOf('| handler | level |'));
  const lines = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
  return lines.map((line) => {
    const [handler, level, message, fields, when] = line.split(' | ').map((cell) => cell.replace(/^\| ?| ?\|$/g, '').trim());
    const pattern = (text: string) =>
      new RegExp(
        `^${text
          .split('…')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.+')}$`,
      );
    return {
      handler: handler!,
      level: codeSpans(level!)[0]!,
      messages: codeSpans(message!).map(pattern),
      fields: codeSpans(fields!),
      when: when!,
    };
  });
}

function recorder(): { log: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, message, fields: Object.keys(fields ?? {}) });
  return { log: { info: record('info'), warn: record('warn'), error: record('error') }, lines };
}

/** The row a line is, or a failure naming the line. */
function rowOf(rows: Row[], handler: string, line: Line): Row {
  const row = rows.find(
    (candidate) =>
      (candidate.handler === handler || candidate.handler === 'either') &&
      candidate.level === line.level &&
      candidate.messages.some((message) => message.test(line.message)) &&
      line.fields.every((field) => candidate.fields.includes(field)),
  );
  assert.ok(row, `docs/backend.md's table has no row for the ${handler} handler's line ${JSON.stringify(line)}`);
  return row;
}

const upstreams: FakeUpstream[] = [];
after(() => Promise.all(upstreams.map((upstream) => upstream.close())));

const WEBHOOK_SECRET = 'whsec_logs_doc_test';
const tokenRequest = (body: unknown = {}) =>
  new Request('http://localhost/api/link-token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const delivery = (body: unknown, secret = WEBHOOK_SECRET) =>
  new Request(`http://localhost/api/webhooks?secret=${secret}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A POST whose body sends its first bytes and then nothing. */
const stalled = (url: string) =>
  new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"a":')) }),
    duplex: 'half',
  } as RequestInit);

async function tokenHandler(answers: Array<[status: number, body: unknown]>, overrides: Partial<LinkTokenHandlerConfig> = {}) {
  const service = await startUpstream((_request, n, res) => {
    const [status, body] = answers[Math.min(n, answers.length - 1)]!;
    reply(res, status, body, status === 503 ? { 'retry-after': '0' } : {});
  });
  upstreams.push(service);
  const { log, lines } = recorder();
  const handle = createLinkTokenHandler({
    apiSecret: 'sk_sandbox_logs_doc_test',
    baseUrl: service.url,
    version: '2025-07-08',
    orgName: 'Acme',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    log,
    ...overrides,
  });
  return { handle, lines };
}

test('a token that goes well writes the rows marked "every token minted", and nothing else', async () => {
  const rows = await documentedRows();
  const { handle, lines } = await tokenHandler([[200, tokenEnvelope()]]);
  assert.equal((await handle(tokenRequest({ end_user_id: 'user-1' }))).status, 200);
  const documented = rows.filter((row) => row.when === 'every token minted');
  assert.equal(documented.length, 1, 'the table names what a token that goes well writes');
  assert.deepEqual(
    lines.map((line) => ({ level: line.level, fields: line.fields, row: rowOf(rows, 'token', line) })),
    documented.map((row) => ({ level: row.level, fields: row.fields, row })),
  );
});

test('a webhook event handled once, and its copy, write nothing', async () => {
  const { log, lines } = recorder();
  const handle = createWebhookHandler({ secret: WEBHOOK_SECRET, log, onEvent: () => {} });
  const event = accountAdded();
  assert.equal((await handle(delivery(event))).status, 200);
  assert.equal((await handle(delivery(event))).status, 200);
  assert.deepEqual(lines, []);
});

test('what the handlers write when something fails is in the table', async () => {
  const rows = await documentedRows();
  const seen = new Set<Row>();
  const check = (handler: string, lines: Line[]) => {
    assert.ok(lines.length > 0, `the ${handler} handler wrote something`);
    for (const line of lines) seen.add(rowOf(rows, handler, line));
  };

  // The token handler: a refused account, a busy service tried again, a refusal, a hook that throws.
  const refusing = await tokenHandler([[200, tokenEnvelope()]], { authorizeAccount: () => false });
  assert.equal((await refusing.handle(tokenRequest({ account_id: crypto.randomUUID() }))).status, 403);
  check('token', refusing.lines);
  const busy = await tokenHandler([
    [503, serviceError(503, 'SERVICE_UNAVAILABLE', 'busy')],
    [200, tokenEnvelope()],
  ]);
  assert.equal((await busy.handle(tokenRequest())).status, 200);
  check('token', busy.lines);
  const refused = await tokenHandler([[400, serviceError(400, 'INVALID_FIELD', 'no')]]);
  assert.equal((await refused.handle(tokenRequest())).status, 502);
  check('token', refused.lines);
  const hook = await tokenHandler([[200, tokenEnvelope()]], {
    resolveEndUserId: () => {
      throw new Error('session store gone');
    },
  });
  assert.equal((await hook.handle(tokenRequest())).status, 500);
  check('token', hook.lines);
  const slow = await tokenHandler([[200, tokenEnvelope()]], { bodyTimeoutMs: 20 });
  assert.equal((await slow.handle(stalled('http://localhost/api/link-token'))).status, 408);
  check('token', slow.lines);

  // The webhook handler: no secret, an event it does not know, a payload that changed, a callback that throws.
  const { log, lines } = recorder();
  const webhook = createWebhookHandler({
    secret: WEBHOOK_SECRET,
    log,
    onEvent: (event) => {
      if (event.event === 'account.added' && event.payload.end_user_id === 'user-boom') throw new Error('database gone');
    },
  });
  assert.equal((await webhook(delivery(accountAdded(), 'whsec_wrong'))).status, 401);
  assert.equal((await webhook(delivery({ event: 'account.renamed', event_id: crypto.randomUUID(), payload: {} }))).status, 200);
  assert.equal((await webhook(delivery(accountAdded({}, { account_id: 42 })))).status, 200);
  assert.equal((await webhook(delivery(accountAdded({}, { end_user_id: 'user-boom' })))).status, 500);
  check('webhook', lines);
  const slowWebhook = recorder();
  const slowHandler = createWebhookHandler({ secret: WEBHOOK_SECRET, log: slowWebhook.log, onEvent: () => {}, bodyTimeoutMs: 20 });
  assert.equal((await slowHandler(stalled(`http://localhost/api/webhooks?secret=${WEBHOOK_SECRET}`))).status, 408);
  check('webhook', slowWebhook.lines);

  assert.ok(seen.size >= 8, `the scenarios above met ${seen.size} rows of the table`);
});
