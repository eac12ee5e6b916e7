/**
 * One set of resource schemas (#35): the client checks answers with the schemas of
 * src/server/client/resource-schemas.ts and the sandbox builds its answers from them. Every answer the real
 * sandbox gives, for every endpoint the client calls, must parse with the client's schema, with nothing lost
 * (the client lets every field through), and with the sandbox's own exact schema (sandbox/state/resources.ts);
 * its error bodies must parse with the one `ErrorBodySchema`. And the client's schemas require only what the
 * spec shows: an answer with the spec's fields alone parses.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { LinkTokenSchema } from '../../src/protocol.js';
import { ErrorBodySchema } from '../../src/server/error-body.js';
import { createPayrollClient } from '../../src/server/index.js';
import * as client from '../../src/server/client/resource-schemas.js';
import * as sandboxSchemas from '../../sandbox/state/resources.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { api, linkTokenBody, startTestSandbox, type TestResponse } from './sandbox-test-client.js';

/** An endpoint the client calls: how to call it on the sandbox, and the two schemas of its items. */
interface Endpoint {
  method: 'GET' | 'POST';
  path: () => string;
  body?: unknown;
  /** The client's schema and the sandbox's exact one. */
  schemas: [z.ZodType, z.ZodType];
  list?: true;
}

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

/** Every endpoint the client calls, by the client's method name (`jobs.wait` polls `jobs.get`: no endpoint of its own). */
const ENDPOINTS: Record<string, Endpoint> = {
  'linkTokens.create': {
    method: 'POST',
    path: () => '/link_tokens',
    body: linkTokenBody(),
    schemas: [LinkTokenSchema as unknown as z.ZodType, LinkTokenSchema as unknown as z.ZodType],
  },
  'employers.list': {
    method: 'GET',
    path: () => '/employers?limit=100',
    schemas: [client.EmployerSchema, sandboxSchemas.EmployerSchema],
    list: true,
  },
  'platforms.list': {
    method: 'GET',
    path: () => '/v1/platforms',
    schemas: [client.PlatformSchema, sandboxSchemas.PlatformSchema],
    list: true,
  },
  'platforms.get': {
    method: 'GET',
    path: () => `/v1/platforms/${ids.platform}`,
    schemas: [client.PlatformSchema, sandboxSchemas.PlatformSchema],
  },
  'accounts.list': {
    method: 'GET',
    path: () => '/v1/accounts?limit=100',
    schemas: [client.AccountSchema, sandboxSchemas.AccountSchema],
    list: true,
  },
  'accounts.get': {
    method: 'GET',
    path: () => `/v1/accounts/${ids.payroll}`,
    schemas: [client.AccountSchema, sandboxSchemas.AccountSchema],
  },
  'accounts.employment': {
    method: 'GET',
    path: () => `/v1/accounts/${ids.payroll}/employment`,
    schemas: [client.EmploymentSchema, sandboxSchemas.EmploymentSchema],
  },
  'accounts.income': {
    method: 'GET',
    path: () => `/v1/accounts/${ids.payroll}/income`,
    schemas: [client.IncomeSchema, sandboxSchemas.IncomeSchema],
  },
  'accounts.paystubs': {
    method: 'GET',
    path: () => `/v1/accounts/${ids.payroll}/paystubs?limit=100`,
    schemas: [client.PaystubSchema, sandboxSchemas.PaystubSchema],
    list: true,
  },
  'accounts.shifts': {
    method: 'GET',
    path: () => `/v1/accounts/${ids.timeAndAttendance}/shifts?limit=100`,
    schemas: [client.ShiftSchema, sandboxSchemas.ShiftSchema],
    list: true,
  },
  'jobs.create': {
    method: 'POST',
    path: () => `/v1/accounts/${ids.payroll}/jobs`,
    body: { name: 'paystubs' },
    schemas: [client.JobSchema, sandboxSchemas.JobSchema],
  },
  'jobs.list': { method: 'GET', path: () => '/v1/jobs?limit=100', schemas: [client.JobSchema, sandboxSchemas.JobSchema], list: true },
  'jobs.get': { method: 'GET', path: () => `/v1/jobs/${ids.job}`, schemas: [client.JobSchema, sandboxSchemas.JobSchema] },
  'verificationReports.voe': {
    method: 'GET',
    path: () => `/v1/end_users/${encodeURIComponent(ids.endUser)}/verification_reports/voe`,
    schemas: [client.VoeReportSchema, sandboxSchemas.VoeReportSchema],
  },
  'verificationReports.voie': {
    method: 'GET',
    path: () => `/v1/end_users/${encodeURIComponent(ids.endUser)}/verification_reports/voie`,
    schemas: [client.VoieReportSchema, sandboxSchemas.VoieReportSchema],
  },
  // Last: the account it disconnects is its own.
  'accounts.disconnect': {
    method: 'POST',
    path: () => `/v1/accounts/${ids.disconnected}/disconnect`,
    schemas: [client.AccountSchema, sandboxSchemas.AccountSchema],
  },
};

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
  test('the table covers every endpoint method of the client', () => {
    const payroll = createPayrollClient({
      apiSecret: 'sandbox_unused_0123456789',
      baseUrl: 'http://127.0.0.1:9',
      version: '2025-07-08',
      rateLimit: false,
    });
    const methods = Object.entries(payroll).flatMap(([namespace, value]) =>
      typeof value === 'object' && value !== null ? Object.keys(value).map((name) => `${namespace}.${name}`) : [],
    );
    assert.deepEqual(methods.filter((name) => name !== 'jobs.wait').sort(), Object.keys(ENDPOINTS).sort());
  });

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
