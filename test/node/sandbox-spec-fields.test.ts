/**
 * `fields: 'spec'`: every endpoint of PAYROLL_API_ENDPOINTS answers exactly the fields SPEC_FIELDS keeps (each item
 * of a list, the envelope whole), the disconnect no body; the webhooks, as recorded and as a loopback receiver gets
 * them, carry exactly the table's fields; the client reads every endpoint without a schema error; and the
 * sandbox's own routes (the Link page's API, the triggers) still answer whole.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { z, ZodError } from 'zod';
import { createPayrollClient, WebhookEventSchema } from '../../src/server/index.js';
import { endpointList, PAYROLL_API_ENDPOINTS, type PayrollApiEndpoint } from '../../src/server/client/payroll-api-endpoints.js';
import { LinkJobSchema, LinkPageSessionSchema } from '../../sandbox/api/link-api-schemas.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/start-sandbox.js';
import { AccountSchema, JobSchema } from '../../sandbox/state/resources.js';
import { SPEC_FIELDS, specFieldsOfAnswer, specFieldsOfEvent, type SpecFieldTable } from '../../sandbox/state/spec-fields.js';
import { api, connectAccount, createLinkToken, linkApi, linkTokenBody, startTestSandbox } from './sandbox-test-client.js';

const END_USER = 'spec-user/1';

/** The dotted paths of an object's fields, its object fields' fields included, sorted. */
const pathsOf = (value: unknown, prefix = ''): string[] =>
  Object.entries(value as Record<string, unknown>)
    .flatMap(([key, field]) =>
      typeof field === 'object' && field !== null && !Array.isArray(field)
        ? [`${prefix}${key}`, ...pathsOf(field, `${prefix}${key}.`)]
        : [`${prefix}${key}`],
    )
    .sort();

/** The paths the table keeps, given which of its `when` conditions hold. */
const tablePaths = (table: SpecFieldTable, holds: { set?: boolean; 'link-initiated'?: boolean } = {}, prefix = ''): string[] =>
  Object.entries(table)
    .flatMap(([key, rule]) => {
      if (typeof rule === 'object' && 'when' in rule && !holds[rule.when]) return [];
      return typeof rule === 'object' && 'fields' in rule
        ? [`${prefix}${key}`, ...tablePaths(rule.fields, holds, `${prefix}${key}.`)]
        : [`${prefix}${key}`];
    })
    .sort();

/** A spec-mode sandbox with a payroll account (Link, with an end user) and a time-and-attendance one (Link, without). */
async function specSandbox(options: SandboxOptions = {}) {
  const sandbox = await startTestSandbox({ fields: 'spec', ...options });
  const payroll = await connectAccount(sandbox, { endUserId: END_USER });
  const clock = await connectAccount(sandbox, { platformType: 'time_and_attendance' });
  return { sandbox, payroll, clock };
}

type Setup = Awaited<ReturnType<typeof specSandbox>>;

/** What an endpoint is called with: its path parameters, a list's query, a POST's body. */
interface Input {
  readonly params: Record<string, string>;
  readonly query?: Record<string, string | number | boolean>;
  readonly body?: unknown;
}

/** What an endpoint needs that its row does not say: another account, a body, a query. */
const samples = ({ clock }: Setup): Record<string, { id?: string; query?: Input['query']; body?: unknown }> => ({
  'linkTokens.create': { body: linkTokenBody() },
  // The spec's two filters still work, on fields the sandbox keeps though its answer no longer shows all of them.
  'accounts.list': { query: { connected: true, monitoring_status: 'active' } },
  'accounts.shifts': { id: clock.accountId },
  'jobs.create': { body: { name: 'paystubs' } },
});

/**
 * Every endpoint of PAYROLL_API_ENDPOINTS with its input (a path parameter takes the id of the collection it
 * names: `/v1/jobs/{id}` a job's), the disconnect last: a disconnected account takes no job.
 */
const endpointsOf = (setup: Setup): { name: string; endpoint: PayrollApiEndpoint; input: Input }[] => {
  const ids: Record<string, string> = {
    accounts: setup.payroll.accountId,
    platforms: setup.payroll.platformId,
    jobs: setup.payroll.jobId,
    end_users: END_USER,
  };
  const all = endpointList().map(({ name, endpoint }) => {
    const sample = samples(setup)[name] ?? {};
    const collection = endpoint.path.split('/').find((segment) => segment in ids);
    const params = Object.fromEntries(Object.keys(endpoint.pathParams ?? {}).map((param) => [param, sample.id ?? ids[collection!]!]));
    return { name, endpoint, input: { params, query: sample.query, body: sample.body } };
  });
  return [
    ...all.filter(({ endpoint }) => endpoint.returns !== 'one-or-nothing'),
    ...all.filter(({ endpoint }) => endpoint.returns === 'one-or-nothing'),
  ];
};

test('the table lists only resources an endpoint answers', () => {
  const answered = new Set<unknown>(endpointList().map(({ endpoint }) => endpoint.answer));
  for (const [name, resource] of Object.entries(SPEC_FIELDS.resources))
    assert.ok(answered.has(resource.schema), `no endpoint answers ${name}`);
});

test('a resource or an event the table does not list keeps the fields its package schema requires, each whole', () => {
  const unlisted = z.looseObject({ id: z.uuid(), amount: z.number().optional(), lines: z.array(z.looseObject({ name: z.string() })) });
  assert.deepEqual(tablePaths(specFieldsOfAnswer(unlisted)), ['id', 'lines']);
  assert.deepEqual(specFieldsOfAnswer(PAYROLL_API_ENDPOINTS.accounts.get.answer), SPEC_FIELDS.resources.Account.fields);
  assert.deepEqual(specFieldsOfEvent('account.added'), SPEC_FIELDS.events['account.added'].fields);
});

describe("fields: 'spec', the service API", () => {
  test('every endpoint answers exactly the fields the table keeps, in a whole envelope; the disconnect a 204', async () => {
    const setup = await specSandbox();
    const { sandbox } = setup;
    try {
      for (const { name, endpoint, input } of endpointsOf(setup)) {
        const path = endpoint.path.replace(/\{(\w+)\}/g, (_, param: string) => encodeURIComponent(input.params[param]!));
        const query = new URLSearchParams(Object.entries(input.query ?? {}).map(([key, value]) => [key, String(value)]));
        const response = await api(sandbox, endpoint.method, `${path}${input.query ? `?${query}` : ''}`, {
          ...(input.body !== undefined && { body: input.body }),
        });
        if (endpoint.returns === 'one-or-nothing') {
          assert.equal(response.status, 204, `${name}: ${response.text}`);
          assert.equal(response.text, '');
          assert.equal(response.headers.get('content-type'), null);
          assert.ok(response.headers.get('x-service-request-id'));
          continue;
        }
        assert.equal(response.status, 200, `${name}: ${response.text}`);
        const expected = tablePaths(specFieldsOfAnswer(endpoint.answer));
        if (endpoint.returns === 'list') {
          assert.deepEqual(Object.keys(response.body).sort(), ['data', 'meta'], name);
          assert.deepEqual(Object.keys(response.body.meta).sort(), ['count', 'next_cursor'], name);
          assert.ok(response.body.data.length > 0, `${name} lists something`);
          assert.equal(response.body.meta.count, response.body.data.length);
          for (const item of response.body.data) assert.deepEqual(pathsOf(item), expected, name);
        } else {
          assert.deepEqual(Object.keys(response.body), ['data'], name);
          assert.deepEqual(pathsOf(response.body.data), expected, name);
        }
        if (name === 'jobs.create') await sandbox.store.whenJobFinished(response.body.data.id);
      }
      // The records stay whole: the sandbox's rules read them.
      const account = sandbox.store.account(setup.payroll.accountId)!.account;
      assert.equal(AccountSchema.safeParse(account).success, true);
      assert.equal(account.connected, false);
    } finally {
      await sandbox.close();
    }
  });

  test('a page after the first is cut down too, and an error body stays whole', async () => {
    const { sandbox, payroll } = await specSandbox();
    try {
      const first = await api(sandbox, 'GET', `/v1/accounts/${payroll.accountId}/paystubs?limit=5`);
      const next = await api(sandbox, 'GET', `/v1/accounts/${payroll.accountId}/paystubs?limit=5&cursor=${first.body.meta.next_cursor}`);
      assert.equal(next.status, 200);
      for (const item of next.body.data) assert.deepEqual(Object.keys(item), ['id']);
      const missing = await api(sandbox, 'GET', `/v1/accounts/${crypto.randomUUID()}`);
      assert.equal(missing.status, 404);
      assert.deepEqual(Object.keys(missing.body.error).sort(), ['error_codes', 'message', 'status_code', 'type']);
    } finally {
      await sandbox.close();
    }
  });

  test('the client reads every endpoint without a schema error; the disconnect resolves with no content', async () => {
    const setup = await specSandbox();
    const { sandbox } = setup;
    try {
      const client = createPayrollClient({ apiSecret: sandbox.secret, baseUrl: sandbox.url, version: '2025-07-08', rateLimit: false });
      for (const { name, endpoint, input } of endpointsOf(setup)) {
        const [group, method] = name.split('.') as [string, string];
        const call = (client as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>)[group]![method]!;
        const args = [
          ...Object.keys(endpoint.pathParams ?? {}).map((param) => input.params[param]),
          ...(endpoint.body ? [input.body] : []),
          ...(input.query ? [input.query] : []),
        ];
        const result =
          endpoint.returns === 'list'
            ? await (call(...args) as { toArray: (options: { limit: number }) => Promise<unknown[]> }).toArray({ limit: 100 })
            : await (call(...args) as Promise<object>);
        if (endpoint.returns === 'one-or-nothing') {
          assert.ok(!('id' in result), 'no content: the spec shows no answer');
          assert.equal((result as { response: { status: number } }).response.status, 204);
        } else if (Array.isArray(result)) {
          assert.ok(result.length > 0, name);
        }
        if (name === 'jobs.create') await sandbox.store.whenJobFinished((result as { id: string }).id);
      }
    } finally {
      await sandbox.close();
    }
  });
});

/** A loopback receiver that keeps each body it is sent and answers 200. */
async function startReceiver() {
  const received: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Waits for every delivery so far to settle; asserts each was delivered. */
async function allDelivered(sandbox: Sandbox): Promise<void> {
  const settled = await Promise.all(sandbox.webhooks.deliveries.map((delivery) => sandbox.webhooks.whenSettled(delivery)));
  for (const delivery of settled) assert.equal(delivery.status, 'delivered', delivery.lastError ?? '');
}

describe("fields: 'spec', the webhooks", () => {
  test('each event carries exactly the table’s fields, as recorded and as received; the receiver’s schemas read them', async () => {
    const receiver = await startReceiver();
    const { sandbox, payroll } = await specSandbox({ webhookUrl: receiver.url });
    try {
      const job = await api(sandbox, 'POST', `/v1/accounts/${payroll.accountId}/jobs`, { body: { name: 'paystubs' } });
      await sandbox.store.whenJobFinished(job.body.data.id);
      assert.equal((await api(sandbox, 'POST', `/v1/accounts/${payroll.accountId}/disconnect`)).status, 204);
      await allDelivered(sandbox);
      const { events } = SPEC_FIELDS;
      const link = { 'link-initiated': true };
      const expected: [string, string[]][] = [
        ['account.added', tablePaths(events['account.added'].fields, { set: true })],
        ['paystubs.added', tablePaths(events['paystubs.added'].fields, link)],
        ['verification_reports.refreshed', tablePaths(events['verification_reports.refreshed'].fields)],
        // The time-and-attendance account was connected without an end user: none to echo, no reports.
        ['account.added', tablePaths(events['account.added'].fields, { set: false })],
        ['shifts.added', tablePaths(events['shifts.added'].fields, link)],
        // The on-demand sync: not Link-initiated.
        ['paystubs.added', tablePaths(events['paystubs.added'].fields)],
        ['verification_reports.refreshed', tablePaths(events['verification_reports.refreshed'].fields)],
        ['account.monitoring_status.updated', []],
      ];
      assert.deepEqual(
        sandbox.store.events.map((event) => [event.event, pathsOf(event.payload)]),
        expected,
      );
      assert.deepEqual(
        sandbox.store.events.map((event) => Object.keys(event).sort()),
        expected.map(() => ['event', 'event_id', 'payload']),
      );
      const byId = (list: unknown[]) =>
        [...list].sort((a, b) => ((a as { event_id: string }).event_id < (b as { event_id: string }).event_id ? -1 : 1));
      assert.deepEqual(byId(receiver.received), byId(JSON.parse(JSON.stringify(sandbox.store.events)) as unknown[]));
      for (const event of receiver.received) {
        const parsed = WebhookEventSchema.safeParse(event);
        assert.ok(parsed.success, `${JSON.stringify(event)}: ${parsed.error?.message}`);
      }
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });

  test('the deprecated account events carry an empty payload (not shown), through the triggers too', async () => {
    const sandbox = await startTestSandbox({ fields: 'spec', webhookVersion: '2021-07-28' });
    try {
      const created = await api(sandbox, 'POST', '/sandbox/accounts', { body: { end_user_id: END_USER } });
      const accountId = created.body.data.account.id as string;
      const sent = [];
      for (const event of ['account.disconnected', 'account.reconnected']) {
        const response = await api(sandbox, 'POST', '/sandbox/events', { body: { event, account_id: accountId }, version: '2021-07-28' });
        assert.equal(response.status, 200, response.text);
        sent.push(...(response.body.data.events as { event: string; payload: object }[]));
      }
      assert.deepEqual(
        sent.map((event) => [event.event, event.payload]),
        [
          ['account.disconnected', {}],
          ['account.reconnected', {}],
        ],
      );
    } finally {
      await sandbox.close();
    }
  });
});

describe("fields: 'spec', the sandbox's own routes answer whole", () => {
  test('the Link page’s API: its session and its job with every field', async () => {
    const sandbox = await startTestSandbox({ fields: 'spec' });
    try {
      const token = await createLinkToken(sandbox, { end_user_id: END_USER });
      const session = await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: token.token });
      assert.equal(session.status, 201, session.text);
      assert.deepEqual(Object.keys(session.body.data).sort(), Object.keys(LinkPageSessionSchema.shape).sort());
      const connected = await connectAccount(sandbox, { endUserId: END_USER });
      const job = await linkApi(sandbox, 'GET', `/link/api/jobs/${connected.jobId}`, connected.session);
      assert.equal(job.status, 200, job.text);
      assert.deepEqual(Object.keys(job.body.data).sort(), Object.keys(LinkJobSchema.shape).sort());
    } finally {
      await sandbox.close();
    }
  });

  test('the triggers (the sandbox’s, not the spec’s): the account and job whole, the events as sent', async () => {
    const sandbox = await startTestSandbox({ fields: 'spec' });
    try {
      const created = await api(sandbox, 'POST', '/sandbox/accounts', { body: { end_user_id: END_USER } });
      assert.equal(created.status, 201, created.text);
      AccountSchema.parse(created.body.data.account);
      JobSchema.parse(created.body.data.job);
      assert.deepEqual(created.body.data.events, JSON.parse(JSON.stringify(sandbox.store.events)));
      assert.deepEqual(pathsOf(created.body.data.events[0].payload), tablePaths(SPEC_FIELDS.events['account.added'].fields, { set: true }));
    } finally {
      await sandbox.close();
    }
  });
});

test("fields is 'full' by default, and a value other than full or spec is refused", async () => {
  const sandbox = await startTestSandbox();
  try {
    const { accountId } = await connectAccount(sandbox, { endUserId: END_USER });
    const account = await api(sandbox, 'GET', `/v1/accounts/${accountId}`);
    // What spec mode leaves out is there in full mode: a test in spec mode tests something.
    assert.equal(account.body.data.end_user_id, END_USER);
    AccountSchema.parse(account.body.data);
  } finally {
    await sandbox.close();
  }
  await assert.rejects(startSandbox({ fields: 'nope' as 'spec' }), ZodError);
});
