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
import { apiError, notFound } from '../http/errors.js';
import { jsonResponse } from '../http/http-types.js';
import { changeMonitoringStatus } from '../state/monitoring.js';
import { CursorSchema, LimitSchema } from '../http/pagination.js';
import { allocationParams } from '../state/job-params.js';
import { requireAllocationSupport, requireConnected } from '../state/job-rules.js';
import { AllocationSchema, JobNameSchema, MonitoringStatusSchema, type Job, type PlatformType } from '../state/resources.js';
import type { RouteHandler, Router } from '../http/router.js';
import type { ApiExtra, SandboxDeps } from '../sandbox-deps.js';
import type { AccountRecord, SandboxStore } from '../state/store.js';
import { parseBody, parseParam, parseQuery } from '../http/validate.js';

const AccountsQuerySchema = z.strictObject({
  connected: z.enum(['true', 'false']).optional(),
  monitoring_status: MonitoringStatusSchema.optional(),
  end_user_id: z.string().min(1).max(255).optional(),
  limit: LimitSchema,
  cursor: CursorSchema,
});
const RecordsQuerySchema = z.strictObject({ limit: LimitSchema, cursor: CursorSchema });
/** `POST /v1/accounts/{id}/disconnect` takes no fields (an empty body or `{}`). */
const DisconnectBodySchema = z.strictObject({});
/** `POST /v1/accounts/{id}/jobs`: start an on-demand job. */
export const CreateJobRequestSchema = z.strictObject({ name: JobNameSchema, allocation: z.optional(AllocationSchema) });

/** Which job names and data a platform type supports. */
const SUPPORTED: Readonly<Record<PlatformType, ReadonlySet<string>>> = {
  payroll: new Set(['paystubs', 'direct_deposit_switch']),
  time_and_attendance: new Set(['shifts']),
};

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

  const accountOf = (params: Readonly<Record<string, string>>): AccountRecord =>
    requireAccount(store, parseParam('id', params['id']!, z.uuid()));

  const list: RouteHandler<ApiExtra> = ({ request }) => {
    const query = parseQuery(request, AccountsQuerySchema);
    const matches = store
      .accounts()
      .filter(
        ({ account }) =>
          (query.connected === undefined || String(account.connected) === query.connected) &&
          (query.monitoring_status === undefined || account.monitoring_status === query.monitoring_status) &&
          (query.end_user_id === undefined || account.end_user_id === query.end_user_id),
      );
    const scope = `accounts?c=${query.connected ?? ''}&m=${query.monitoring_status ?? ''}&u=${query.end_user_id ?? ''}`;
    return jsonResponse(
      200,
      cursors.page(matches, {
        scope,
        limit: query.limit,
        cursor: query.cursor,
        position: (record) => record.seq,
        view: (record) => record.account,
      }),
    );
  };

  const records =
    <K extends 'paystubs' | 'shifts'>(kind: K): RouteHandler<ApiExtra> =>
    ({ request, params }) => {
      const record = accountOf(params);
      requireSupport(record, kind);
      const query = parseQuery(request, RecordsQuerySchema);
      const items = record.data[kind].map((item, position) => ({ item, position }));
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
    };

  router
    .on('GET', '/v1/accounts', list)
    .on('GET', '/v1/accounts/:id', ({ params }) => jsonResponse(200, { data: accountOf(params).account }))
    .on('POST', '/v1/accounts/:id/disconnect', ({ request, params }) => {
      const record = accountOf(params);
      parseBody(request, DisconnectBodySchema, { optional: true });
      // Disconnecting twice is harmless: the second call changes nothing and sends no event.
      changeMonitoringStatus(deps, record, 'disconnected');
      return jsonResponse(200, { data: record.account });
    })
    .on('GET', '/v1/accounts/:id/employment', ({ params }) => jsonResponse(200, { data: accountOf(params).data.employment }))
    .on('GET', '/v1/accounts/:id/income', ({ params }) => jsonResponse(200, { data: accountOf(params).data.income }))
    .on('GET', '/v1/accounts/:id/paystubs', records('paystubs'))
    .on('GET', '/v1/accounts/:id/shifts', records('shifts'))
    .on('POST', '/v1/accounts/:id/jobs', ({ request, params }) => {
      const record = accountOf(params);
      const input = parseBody(request, CreateJobRequestSchema);
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
    });
};
