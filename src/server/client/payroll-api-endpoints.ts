/** The service's API as data ({@link PAYROLL_API_ENDPOINTS}), from its specification's "Endpoints"; the tests take their list from it too. */
import * as z from 'zod';
import { LinkTokenSchema } from '../../protocol/link-token.js';
import {
  AccountSchema,
  EmployerSchema,
  EmploymentSchema,
  IncomeSchema,
  JobSchema,
  PaystubSchema,
  PlatformSchema,
  ShiftSchema,
  VoeReportSchema,
  VoieReportSchema,
} from './resource-schemas.js';
import { usesRequiredJobs, type ServiceVersion } from './service-version.js';

/**
 * A path parameter: its schema, the name an error gives it, and, when set, what it must be (the error then says
 * `{what} must be {mustBe}` instead of zod's words). Its value is sent as one path segment whatever it holds.
 */
export interface PathParam {
  readonly schema: z.ZodType<string>;
  readonly what: string;
  readonly mustBe?: string;
}

/** One endpoint of the service's API. */
export interface PayrollApiEndpoint {
  readonly method: 'GET' | 'POST';
  /** The path as the spec writes it (some with `/v1`, some without); `{name}` is a path parameter, named as the method's argument. */
  readonly path: string;
  /** Each `{name}` of `path`; at most one, as in every path of the spec. */
  readonly pathParams?: Readonly<Record<string, PathParam>>;
  /** The query parameters of a list (strict: another one is refused before sending). */
  readonly query?: z.ZodObject;
  /** The JSON body the caller gives; a `POST` without one sends `{}`. */
  readonly body?: z.ZodType;
  /** The body fields a version does not take (refused before sending). */
  readonly refusedFields?: (version: ServiceVersion) => readonly string[];
  /** The schema of the answer's `data` (of each item of a list). */
  readonly answer: z.core.$ZodType;
  /** One resource, a list (paginated the spec's way), or one resource or no content (the spec does not show the answer). */
  readonly returns: 'one' | 'list' | 'one-or-nothing';
  /**
   * Whether the call may be sent again after a failure that may have reached the service (a timeout, a 500 or a
   * 504, an answer cut off): true for reads; false for a `POST`, which the service may have done all the same.
   */
  readonly retryAfterSend: boolean;
}

/** The endpoints, grouped as the client's namespaces. */
export type PayrollApiEndpoints = Readonly<Record<string, Readonly<Record<string, PayrollApiEndpoint>>>>;

const uuidParam = (what: string) => ({ schema: z.uuid(), what, mustBe: 'a UUID' }) as const satisfies PathParam;
const ACCOUNT_ID = uuidParam('accountId');

// The spec gives no range for `limit` ("Limits": not shown): any page size the service may accept is sent.
const page = z.object({ limit: z.int().min(1).optional(), cursor: z.string().min(1).optional() });
/** Parameters of the lists that take only `limit` and `cursor`. */
export const PageParamsSchema = page.strict();
/** Parameters of `accounts.list`. */
export const AccountListParamsSchema = page
  .extend({
    connected: z.boolean().optional(),
    // Its values are not shown in the spec: the service judges them, not a copy of the sandbox's list.
    monitoring_status: z.string().min(1).optional(),
    end_user_id: z.string().min(1).optional(),
  })
  .strict();
/** Parameters of `platforms.list`. */
export const PlatformListParamsSchema = page.extend({ type: z.enum(['payroll', 'time_and_attendance']).optional() }).strict();
/** Parameters of `jobs.list`. */
export const JobListParamsSchema = page
  .extend({ account_id: z.uuid().optional(), status: z.string().min(1).optional(), name: z.string().min(1).optional() })
  .strict();
/** The body of `jobs.create`: the job's `name` and, for a deposit switch, its `allocation`; other fields pass through. */
export const CreateJobBodySchema = z.looseObject({ name: z.string().min(1) });
/** The body of `linkTokens.create` (`org_name` required); the other version's fields are refused before sending. */
export const LinkTokenCreateBodySchema = z.looseObject({ org_name: z.string().min(1) });

/**
 * The payroll service's API, as data: each endpoint the client calls, a {@link PayrollApiEndpoint} by the client's
 * namespace and method name.
 *
 * `createPayrollClient`'s methods are built from it (with `jobs.wait`, which polls `jobs.get`), the local sandbox
 * checks its requests against it, and the method table of `docs/reading-data.md` is generated from it. Read it to call
 * an endpoint the client has no method for in the client's terms, or to describe the API to a tool.
 *
 * @example
 * import { PAYROLL_API_ENDPOINTS } from 'payroll-link/server';
 * const { method, path } = PAYROLL_API_ENDPOINTS.accounts.paystubs; // 'GET', '/v1/accounts/{id}/paystubs'
 */
export const PAYROLL_API_ENDPOINTS = {
  linkTokens: {
    /** `POST /link_tokens`: a Link token for the client's `version` (billable: a failed POST that may have reached the service is never sent again). */
    create: {
      method: 'POST',
      path: '/link_tokens',
      body: LinkTokenCreateBodySchema,
      refusedFields: (version) => (usesRequiredJobs(version) ? ['features', 'solution'] : ['required_jobs']),
      answer: LinkTokenSchema,
      returns: 'one',
      retryAfterSend: false,
    },
  },
  employers: {
    /** `GET /employers`: the path as the spec writes it, without `/v1` (as `POST /link_tokens`). */
    list: {
      method: 'GET',
      path: '/employers',
      query: PageParamsSchema,
      answer: EmployerSchema,
      returns: 'list',
      retryAfterSend: true,
    },
  },
  platforms: {
    /** `GET /v1/platforms`. */
    list: {
      method: 'GET',
      path: '/v1/platforms',
      query: PlatformListParamsSchema,
      answer: PlatformSchema,
      returns: 'list',
      retryAfterSend: true,
    },
    /** `GET /v1/platforms/{id}`. */
    get: {
      method: 'GET',
      path: '/v1/platforms/{id}',
      pathParams: { id: uuidParam('id') },
      answer: PlatformSchema,
      returns: 'one',
      retryAfterSend: true,
    },
  },
  accounts: {
    /** `GET /v1/accounts`, filtered by `connected`, `monitoring_status`, `end_user_id`. */
    list: {
      method: 'GET',
      path: '/v1/accounts',
      query: AccountListParamsSchema,
      answer: AccountSchema,
      returns: 'list',
      retryAfterSend: true,
    },
    /** `GET /v1/accounts/{id}`. */
    get: {
      method: 'GET',
      path: '/v1/accounts/{id}',
      pathParams: { id: ACCOUNT_ID },
      answer: AccountSchema,
      returns: 'one',
      retryAfterSend: true,
    },
    /**
     * `POST /v1/accounts/{id}/disconnect`: ends recurring access; the data stays readable. The spec does not
     * show the answer: resolves with the account when the service sends it (the sandbox does), and with
     * {@link NoContent} when it answers without a body (a 204); `'id' in result` tells which.
     */
    disconnect: {
      method: 'POST',
      path: '/v1/accounts/{id}/disconnect',
      pathParams: { id: ACCOUNT_ID },
      answer: AccountSchema,
      returns: 'one-or-nothing',
      retryAfterSend: false,
    },
    /** `GET /v1/accounts/{id}/employment`. */
    employment: {
      method: 'GET',
      path: '/v1/accounts/{id}/employment',
      pathParams: { id: ACCOUNT_ID },
      answer: EmploymentSchema,
      returns: 'one',
      retryAfterSend: true,
    },
    /** `GET /v1/accounts/{id}/income`. */
    income: {
      method: 'GET',
      path: '/v1/accounts/{id}/income',
      pathParams: { id: ACCOUNT_ID },
      answer: IncomeSchema,
      returns: 'one',
      retryAfterSend: true,
    },
    /** `GET /v1/accounts/{id}/paystubs`. */
    paystubs: {
      method: 'GET',
      path: '/v1/accounts/{id}/paystubs',
      pathParams: { id: ACCOUNT_ID },
      query: PageParamsSchema,
      answer: PaystubSchema,
      returns: 'list',
      retryAfterSend: true,
    },
    /** `GET /v1/accounts/{id}/shifts` (time-and-attendance platforms). */
    shifts: {
      method: 'GET',
      path: '/v1/accounts/{id}/shifts',
      pathParams: { id: ACCOUNT_ID },
      query: PageParamsSchema,
      answer: ShiftSchema,
      returns: 'list',
      retryAfterSend: true,
    },
  },
  jobs: {
    /** `POST /v1/accounts/{accountId}/jobs`: an on-demand job. */
    create: {
      method: 'POST',
      path: '/v1/accounts/{accountId}/jobs',
      pathParams: { accountId: ACCOUNT_ID },
      body: CreateJobBodySchema,
      answer: JobSchema,
      returns: 'one',
      retryAfterSend: false,
    },
    /** `GET /v1/jobs`, filtered by `account_id`, `status`, `name`. */
    list: {
      method: 'GET',
      path: '/v1/jobs',
      query: JobListParamsSchema,
      answer: JobSchema,
      returns: 'list',
      retryAfterSend: true,
    },
    /** `GET /v1/jobs/{id}`. */
    get: {
      method: 'GET',
      path: '/v1/jobs/{id}',
      pathParams: { id: uuidParam('id') },
      answer: JobSchema,
      returns: 'one',
      retryAfterSend: true,
    },
  },
  verificationReports: {
    /** `GET /v1/end_users/{endUserId}/verification_reports/voe`. */
    voe: {
      method: 'GET',
      path: '/v1/end_users/{endUserId}/verification_reports/voe',
      pathParams: { endUserId: { schema: z.string().min(1), what: 'endUserId' } },
      answer: VoeReportSchema,
      returns: 'one',
      retryAfterSend: true,
    },
    /** `GET /v1/end_users/{endUserId}/verification_reports/voie`. */
    voie: {
      method: 'GET',
      path: '/v1/end_users/{endUserId}/verification_reports/voie',
      pathParams: { endUserId: { schema: z.string().min(1), what: 'endUserId' } },
      answer: VoieReportSchema,
      returns: 'one',
      retryAfterSend: true,
    },
  },
} as const satisfies PayrollApiEndpoints;

/** The endpoints, each with its `namespace.method` name, in the table's order. */
export function endpointList(): Array<{ name: string; endpoint: PayrollApiEndpoint }> {
  return Object.entries(PAYROLL_API_ENDPOINTS as PayrollApiEndpoints).flatMap(([group, rows]) =>
    Object.entries(rows).map(([method, endpoint]) => ({ name: `${group}.${method}`, endpoint })),
  );
}

export type PageParams = z.input<typeof PageParamsSchema>;
export type AccountListParams = z.input<typeof AccountListParamsSchema>;
export type PlatformListParams = z.input<typeof PlatformListParamsSchema>;
export type JobListParams = z.input<typeof JobListParamsSchema>;
export type CreateJobBody = z.input<typeof CreateJobBodySchema>;
export type LinkTokenCreateBody = z.input<typeof LinkTokenCreateBodySchema>;
