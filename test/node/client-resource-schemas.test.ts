/**
 * One set of resource schemas (#35): the client checks answers with the schemas of
 * src/server/client/resource-schemas.ts and the sandbox builds its answers from them. Every answer the real
 * sandbox gives, for every endpoint the client calls, must parse with the client's schema, with nothing lost
 * (the client lets every field through), and with the sandbox's exact form of the schema its row names
 * (`exactFormOf` of sandbox/state/resources.ts: found through the row, never by a name);
 * its error bodies must parse with the one `ErrorBodySchema`. And the client's schemas require only what the
 * spec shows: an answer with the spec's fields alone parses.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ErrorBodySchema } from '../../src/server/error-body.js';
import { endpointList, PAYROLL_API_ENDPOINTS } from '../../src/server/client/payroll-api-endpoints.js';
import * as client from '../../src/server/client/resource-schemas.js';
import { exactFormOf, PaystubSchema as SandboxPaystubSchema } from '../../sandbox/state/resources.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { api, linkTokenBody, startTestSandbox, type TestResponse } from './sandbox-test-client.js';

let sandbox: Sandbox;
const ids = { payroll: '', timeAndAttendance: '', failing: '', disconnected: '', platform: '', job: '', endUser: `user/${randomUUID()}` };

before(async () => {
  sandbox = await startTestSandbox();
  const connect = async (body: Record<string, unknown>) => {
    const created = await api(sandbox, 'POST', '/sandbox/accounts', { body });
    assert.equal(created.status, 201, created.text);
    await sandbox.store.whenJobFinished(created.body.data.job.id);
    return created.body.data.account.id as string;
  };
  const timePlatform = sandbox.store.catalogue.platforms.find(({ item }) => item.type === 'time_and_attendance')!.item;
  ids.payroll = await connect({ end_user_id: ids.endUser });
  ids.timeAndAttendance = await connect({ platform_id: timePlatform.id, end_user_id: ids.endUser });
  // user_error's jobs fail: a job with its `error` filled in.
  ids.failing = await connect({ username: 'user_error' });
  ids.disconnected = await connect({});
  ids.platform = timePlatform.id;
});
after(() => sandbox.close());

/** The id a path parameter takes, by the collection it names (`/v1/platforms/{id}`: a platform's). */
const idFor: Record<string, () => string> = {
  accounts: () => ids.payroll,
  platforms: () => ids.platform,
  jobs: () => ids.job,
  end_users: () => ids.endUser,
};
/** What an endpoint needs that its row does not say: another account, a body, its place in the walk. */
const SAMPLES: Record<string, { id?: () => string; body?: unknown; last?: true }> = {
  'linkTokens.create': { body: linkTokenBody() },
  'accounts.shifts': { id: () => ids.timeAndAttendance },
  'jobs.create': { body: { name: 'paystubs' } },
  // Last: the account it disconnects is its own.
  'accounts.disconnect': { id: () => ids.disconnected, last: true },
};

/** An endpoint of the table, as the test calls it on the sandbox. */
interface Endpoint {
  method: 'GET' | 'POST';
  path: () => string;
  body?: unknown;
  /** The client's schema and the sandbox's exact one. */
  schemas: [z.ZodType, z.ZodType];
  list?: true;
}

/** Every endpoint the client calls (PAYROLL_API_ENDPOINTS; `jobs.wait` polls `jobs.get`: no endpoint of its own). */
const ENDPOINTS: Record<string, Endpoint> = Object.fromEntries(
  endpointList()
    .sort((a, b) => Number(SAMPLES[a.name]?.last ?? false) - Number(SAMPLES[b.name]?.last ?? false))
    .map(({ name, endpoint }) => {
      const sample = SAMPLES[name] ?? {};
      const path = () =>
        endpoint.path.replace(
          /\/([a-z_]+)\/\{\w+\}/,
          (_, collection: string) => `/${collection}/${encodeURIComponent((sample.id ?? idFor[collection]!)())}`,
        ) + (endpoint.returns === 'list' ? '?limit=100' : '');
      return [
        name,
        {
          method: endpoint.method,
          path,
          ...(sample.body === undefined ? {} : { body: sample.body }),
          schemas: [endpoint.answer as z.ZodType, exactFormOf(endpoint.answer)],
          ...(endpoint.returns === 'list' ? { list: true as const } : {}),
        },
      ];
    }),
);

/** The items of a success answer: `data`, or each item of a collection's `data`. */
function itemsOf(response: TestResponse, endpoint: Endpoint): unknown[] {
  assert.equal(response.status, 200, response.text);
  if (!endpoint.list) return [response.body.data];
  assert.ok(Array.isArray(response.body.data) && response.body.data.length > 0, `a non-empty page: ${response.text}`);
  assert.equal(response.body.meta.count, response.body.data.length);
  return response.body.data;
}

function assertParses(schema: z.ZodType, item: unknown, what: string): unknown {
  const result = schema.safeParse(item);
  assert.ok(result.success, `${what}: ${result.success ? '' : z.prettifyError(result.error)}\n${JSON.stringify(item)}`);
  return result.data;
}

describe("the sandbox's answers and the client's schemas", () => {
  test('every answer parses with the client schema, every field kept, and with the sandbox schema', async () => {
    for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
      const response = await api(sandbox, endpoint.method, endpoint.path(), endpoint.body === undefined ? {} : { body: endpoint.body });
      const items = itemsOf(response, endpoint);
      const [clientSchema, sandboxSchema] = endpoint.schemas;
      for (const item of items) {
        // linkTokens.create reads the wire contract's LinkToken (src/protocol.ts), which keeps its four fields only.
        if (name !== 'linkTokens.create')
          assert.deepEqual(assertParses(clientSchema, item, `${name}, client schema`), item, `${name}: the client kept every field`);
        else assertParses(clientSchema, item, `${name}, client schema`);
        assertParses(sandboxSchema, item, `${name}, sandbox schema`);
      }
      if (name === 'jobs.create') ids.job = (items[0] as { id: string }).id;
    }
  });

  test("a job that failed, and an account's disconnected state, parse too", async () => {
    const jobs = await api(sandbox, 'GET', `/v1/jobs?account_id=${ids.failing}`);
    const failed = itemsOf(jobs, ENDPOINTS['jobs.list']!) as Array<{ status: string; error: unknown }>;
    assert.ok(
      failed.some((job) => job.status === 'error' && job.error !== null),
      jobs.text,
    );
    for (const job of failed) assert.deepEqual(assertParses(client.JobSchema, job, 'failed job'), job);
    const account = await api(sandbox, 'GET', `/v1/accounts/${ids.disconnected}`);
    assert.equal(account.body.data.connected, false);
    assert.deepEqual(assertParses(client.AccountSchema, account.body.data, 'disconnected account'), account.body.data);
  });

  test('error answers parse with the one ErrorBodySchema', async () => {
    const answers = [
      await api(sandbox, 'GET', `/v1/accounts/${randomUUID()}`),
      await api(sandbox, 'GET', '/v1/accounts', { secret: 'sandbox_wrong_0123456789' }),
      await api(sandbox, 'GET', '/v1/accounts?limit=0'),
      await api(sandbox, 'POST', '/link_tokens', { body: { org_name: 'Acme' } }),
      await api(sandbox, 'DELETE', '/v1/accounts'),
    ];
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [404, 401, 400, 400, 405],
    );
    for (const answer of answers) {
      const body = assertParses(ErrorBodySchema, answer.body, `HTTP ${answer.status}`) as z.infer<typeof ErrorBodySchema>;
      assert.equal(body.error.status_code, answer.status);
    }
  });

  test("a row's answer finds the sandbox's form through the row: the one resources.ts narrows, else the client's made exact", () => {
    assert.equal(exactFormOf(PAYROLL_API_ENDPOINTS.accounts.paystubs.answer), SandboxPaystubSchema);
    const exact = exactFormOf(z.looseObject({ id: z.uuid(), note: z.string().optional() }));
    const id = randomUUID();
    assert.equal(exact.safeParse({ id, note: 'n' }).success, true);
    assert.equal(exact.safeParse({ id }).success, false, 'every field the client names is required');
    assert.equal(exact.safeParse({ id, note: 'n', other: 1 }).success, false, 'and no other field');
  });

  test("a required field renamed in the sandbox's answer fails the client's schema", async () => {
    const employment = (await api(sandbox, 'GET', `/v1/accounts/${ids.payroll}/employment`)).body.data;
    const { employer_name, ...rest } = employment;
    assert.equal(client.EmploymentSchema.safeParse({ ...rest, employer: employer_name }).success, false);
    const account = (await api(sandbox, 'GET', `/v1/accounts/${ids.payroll}`)).body.data;
    const { id, ...accountRest } = account;
    assert.equal(client.AccountSchema.safeParse({ ...accountRest, account_id: id }).success, false);
  });
});

describe("the client's schemas require only what the spec shows", () => {
  const uuid = randomUUID();
  /** Each resource with the spec's fields only, plus a field neither the spec nor the sandbox has. */
  const SPEC_ONLY: Array<[string, z.ZodType, Record<string, unknown>]> = [
    ['Platform', client.PlatformSchema, { id: uuid, name: 'Gusto', type: 'payroll' }],
    ['Employer', client.EmployerSchema, { id: uuid }],
    ['Account', client.AccountSchema, { id: uuid, monitoring_status: 'some_status_of_the_service' }],
    ['Job', client.JobSchema, { id: uuid }],
    [
      'Employment',
      client.EmploymentSchema,
      {
        id: uuid,
        employer_name: 'Acme',
        status: 'active',
        start_date: '2024-01-02',
        account_id: uuid,
        created_at: '2024-01-02T03:04:05.123456+00:00',
      },
    ],
    ['Income', client.IncomeSchema, { id: uuid }],
    ['Paystub', client.PaystubSchema, { id: uuid }],
    ['Shift', client.ShiftSchema, { id: uuid }],
    ['VoeReport', client.VoeReportSchema, {}],
    ['VoieReport', client.VoieReportSchema, { employments: [{ company: 'An employment the service describes otherwise' }] }],
  ];

  for (const [name, schema, specOnly] of SPEC_ONLY) {
    test(`${name}: the spec's fields alone parse, and a field of the service's own passes through`, () => {
      const answer = { ...specOnly, a_field_of_the_service: { nested: [1, 2] } };
      assert.deepEqual(assertParses(schema, answer, name), answer);
    });
  }

  test('a spec field missing or of another type fails', () => {
    assert.equal(client.PlatformSchema.safeParse({ id: uuid, name: 'Gusto' }).success, false);
    assert.equal(
      client.EmploymentSchema.safeParse({ id: uuid, employer_name: 'Acme', status: 'active', start_date: '2024-01-02', created_at: 'x' })
        .success,
      false,
    );
    assert.equal(client.AccountSchema.safeParse({ id: 'not-a-uuid', monitoring_status: 'active' }).success, false);
  });
});
