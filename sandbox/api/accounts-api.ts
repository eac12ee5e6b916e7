/**
 * Account endpoints: list (filters `connected`, `monitoring_status`,
 * `end_user_id`; paginated), get, disconnect, the data endpoints
 * (employment, income, paystubs, shifts) and on-demand jobs.
 *
 * Platform rules (spec, "Platform"): a time_and_attendance account has shifts
 * but no paystubs and no deposit switch; a payroll account has no shifts. A
 * disconnected account keeps its data readable, but on-demand jobs are refused,
 * and the jobs it still had pending end at once as failed (ACCOUNT_DISCONNECTED):
 * without access to the platform they could never finish.
 */
import { z } from 'zod';
import { PAYROLL_API_ENDPOINTS, type PayrollApiEndpoint } from 'payroll-link/server';
import { apiError, notFound } from '../http/errors.js';
import { addEndpointRoute } from '../http/endpoint-route.js';
import { jsonResponse } from '../http/http-types.js';
import { changeMonitoringStatus } from '../state/monitoring.js';
import { CursorSchema, LimitSchema } from '../http/pagination.js';
import { allocationParams } from '../state/job-params.js';
import { requireAllocationSupport, requireConnected } from '../state/job-rules.js';
import { AllocationSchema, JobNameSchema, MonitoringStatusSchema, type Job, type PlatformType } from '../state/resources.js';
import type { Router } from '../http/router.js';
import type { ApiExtra, SandboxDeps } from '../sandbox-deps.js';
import type { AccountRecord, SandboxStore } from '../state/store.js';
import type { RecordKind } from '../state/payroll-data.js';

/** The sandbox's `GET /v1/accounts` filters: `connected` as the URL writes it (`true` or `false`), its own monitoring statuses. */
const ACCOUNTS_QUERY = {
  connected: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  monitoring_status: MonitoringStatusSchema.optional(),
  end_user_id: z.string().min(1).max(255).optional(),
  limit: LimitSchema,
  cursor: CursorSchema,
};
const RECORDS_QUERY = { limit: LimitSchema, cursor: CursorSchema };
/** `POST /v1/accounts/{id}/jobs`: start an on-demand job. */
export const CreateJobRequestSchema = z.strictObject({ name: JobNameSchema, allocation: z.optional(AllocationSchema) });

type AccountRow = keyof typeof PAYROLL_API_ENDPOINTS.accounts;
/** Whether the row `name` reads a kind of an account's records: what `RecordKind` says, at run time. */
const readsRecords = (name: AccountRow): name is RecordKind => {
  const row: PayrollApiEndpoint = PAYROLL_API_ENDPOINTS.accounts[name];
  return row.returns === 'list' && row.path === `/v1/accounts/{id}/${name}`;
};

/** Which job names and data a platform type supports. */
const SUPPORTED: Readonly<Record<PlatformType, ReadonlySet<string>>> = {
  payroll: new Set(['paystubs', 'direct_deposit_switch']),
  time_and_attendance: new Set(['shifts']),
};

/** What SUPPORTED has a rule for. */
const RULED: ReadonlySet<string> = new Set(Object.values(SUPPORTED).flatMap((names) => [...names]));

/** 400 PRODUCT_NOT_SUPPORTED when the account's platform type does not support `what`. */
export const requireSupport = (record: AccountRecord, what: string): void => {
  const type = record.account.platform_type;
  if (SUPPORTED[type].has(what)) return;
  throw apiError(
    400,
    'INVALID_REQUEST_PARAMETERS',
    'PRODUCT_NOT_SUPPORTED',
    type === 'payroll'
      ? `${what} is available only for time_and_attendance platforms`
      : `${what} is not supported on time_and_attendance platforms`,
  );
};

/**
 * The account with this id.
 *
 * @throws ApiError 404 ACCOUNT_NOT_FOUND.
 */
export const requireAccount = (store: SandboxStore, id: string): AccountRecord => {
  const record = store.account(id);
  if (!record) throw notFound('ACCOUNT_NOT_FOUND', `No account ${id}`);
  return record;
};

/** Adds the account routes. */
export const addAccountRoutes = (router: Router<ApiExtra>, deps: SandboxDeps): void => {
  const { store, cursors } = deps;
  const rows = PAYROLL_API_ENDPOINTS.accounts;

  addEndpointRoute(router, rows.list, { query: ACCOUNTS_QUERY }, ({ query }) => {
    const filters = { connected: 'c', monitoring_status: 'm', end_user_id: 'u' } as const;
    return jsonResponse(
      200,
      cursors.pageWhere('accounts', store.accounts(), (record) => record.account, query, filters),
    );
  });

  const account = ({ id }: { id: string }) => requireAccount(store, id);
  /** The account, when its platform has records of this kind (a kind without a rule in SUPPORTED: every platform). */
  const supporting =
    (kind: RecordKind) =>
    ({ id }: { id: string }) => {
      const record = requireAccount(store, id);
      if (RULED.has(kind)) requireSupport(record, kind);
      return record;
    };

  /** An account's records of one kind, a page at a time. */
  const records = (kind: RecordKind) => {
    const row = rows[kind];
    const fields = Object.keys(row.query.shape).sort().join();
    if (fields !== Object.keys(RECORDS_QUERY).sort().join()) {
      throw new Error(`${row.method} ${row.path} takes ${fields}: a list of records with filters needs its own route`);
    }
    addEndpointRoute(router, row, { resource: supporting(kind), query: RECORDS_QUERY }, ({ resource: record, query }) => {
      const list: readonly unknown[] = record.data[kind];
      const items = list.map((item, position) => ({ item, position }));
      return jsonResponse(
        200,
        cursors.page(items, {
          scope: `${kind}:${record.account.id}`,
          limit: query.limit,
          cursor: query.cursor,
          position: (entry) => entry.position,
          view: (entry) => entry.item,
        }),
      );
    });
  };
  // Every paginated read of an account's records (`GET /v1/accounts/{id}/<kind>`) serves that list of the account's
  // data: a new one needs its row and its data (state/payroll-data.ts, where a kind without one is a type error), no
  // route of its own.
  for (const name of Object.keys(rows) as AccountRow[]) if (readsRecords(name)) records(name);

  addEndpointRoute(router, rows.get, { resource: account }, ({ resource }) => jsonResponse(200, { data: resource.account }));
  addEndpointRoute(router, rows.disconnect, { resource: account }, ({ resource: record }) => {
    // Disconnecting twice is harmless: the second call changes nothing and sends no event.
    changeMonitoringStatus(deps, record, 'disconnected');
    return jsonResponse(200, { data: record.account });
  });
  addEndpointRoute(router, rows.employment, { resource: account }, ({ resource }) => jsonResponse(200, { data: resource.data.employment }));
  addEndpointRoute(router, rows.income, { resource: account }, ({ resource }) => jsonResponse(200, { data: resource.data.income }));
  const jobAccount = ({ accountId }: { accountId: string }) => requireAccount(store, accountId);
  addEndpointRoute(
    router,
    PAYROLL_API_ENDPOINTS.jobs.create,
    { resource: jobAccount, body: CreateJobRequestSchema },
    ({ resource: record, body: input }) => {
      requireSupport(record, input.name);
      requireConnected(record.account);
      if (input.name === 'direct_deposit_switch' && !input.allocation) {
        throw apiError(400, 'INVALID_REQUEST_PARAMETERS', 'MISSING_FIELDS', 'allocation is required for a direct_deposit_switch job');
      }
      requireAllocationSupport(store.catalogue, record.account, input.allocation);
      const params_: Job['params'] = input.allocation ? allocationParams(input.allocation) : {};
      const job = store.addJob({ name: input.name, accountId: record.account.id, linkTokenId: null, params: params_ }, false);
      deps.runner.start(job);
      return jsonResponse(200, { data: job.job });
    },
  );
};
