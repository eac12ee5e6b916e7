import * as z from 'zod';
import { LinkTokenSchema, type LinkToken } from '../../protocol.js';
import { ConfigError } from '../config-error.js';
import { redactingLogger } from '../logger.js';
import { usesRequiredJobs } from './service-version.js';
import { backoffDelay, wait } from '../../shared/backoff.js';
import { CallOptionsSchema, ClientOptionsSchema, limiterFor, type CallOptions, type ClientOptions } from './client-options.js';
import { PayrollApiError } from './payroll-api-error.js';
import { PayrollList, type PayrollPage } from './payroll-list.js';
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
  type Account,
  type Employer,
  type Employment,
  type Income,
  type Job,
  type Paystub,
  type Platform,
  type Shift,
  type VoeReport,
  type VoieReport,
} from './resource-schemas.js';
import { createTransport, DEFAULT_BACKOFF, type RetryPolicy, type TransportAnswer } from './transport.js';

/** Where a single resource came from; on every resolved object as the non-enumerable `response`. */
export interface ResponseMeta {
  requestId: string | null;
  status: number;
  version: string;
}

/** A resource as the service sent it, with its {@link ResponseMeta} (left out of JSON). */
export type WithResponse<T> = T & { readonly response: ResponseMeta };

/**
 * An answer without a body (a 204, or an empty 200): an empty object whose
 * only property is the non-enumerable {@link ResponseMeta} `response`.
 */
export type NoContent = { readonly response: ResponseMeta };

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

export type PageParams = z.input<typeof PageParamsSchema>;
export type AccountListParams = z.input<typeof AccountListParamsSchema>;
export type PlatformListParams = z.input<typeof PlatformListParamsSchema>;
export type JobListParams = z.input<typeof JobListParamsSchema>;
export type CreateJobBody = z.input<typeof CreateJobBodySchema>;
export type LinkTokenCreateBody = z.input<typeof LinkTokenCreateBodySchema>;

/** Options of `jobs.wait`. */
export interface WaitOptions {
  /** How long to poll before rejecting with kind `timeout`; 60 s by default. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const WaitOptionsSchema = z
  .strictObject({
    timeoutMs: z.int().min(1).max(3_600_000).optional(),
    signal: z.custom<AbortSignal>((value) => typeof value === 'object' && value !== null && 'aborted' in value).optional(),
  })
  .optional();

const DEFAULT_WAIT_MS = 60_000;
const POLL_FIRST_MS = 250;
const POLL_MAX_MS = 2_000;

const envelope = <S extends z.core.$ZodType>(schema: S) => z.object({ data: schema });
// `next_cursor` is absent on a list that is not paginated (List Platforms shows `meta.count` only) and
// before version 2022-03-02: either way, the only page.
const listEnvelope = <S extends z.core.$ZodType>(schema: S) =>
  z.object({ data: z.array(schema), meta: z.object({ count: z.int().min(0), next_cursor: z.string().min(1).nullish() }) });

/** The version that brought cursor pagination (spec, "Versioning" 5); versions are dates, so they compare as strings. */
const CURSORS_SINCE = '2022-03-02';

const uuid = z.uuid();
const endUserId = z.string().min(1);

/**
 * Creates a typed client of the service's API (the `/v1` endpoints,
 * `GET /employers` and `POST /link_tokens`, each path as the spec writes it): the secret and `Service-Version` on every call,
 * answers checked against the resource schemas, calls paced under the mode's
 * rate limit, retries as the spec says, and one error class,
 * {@link PayrollApiError}. Web-standard: runs wherever `fetch` does.
 *
 * Throws a {@link ConfigError} naming each bad option. Every method returns a
 * promise (or a {@link PayrollList}) and rejects, never throws, on bad input.
 *
 * @example
 * const client = createPayrollClient({ apiSecret: process.env.PAYROLL_API_SECRET!, baseUrl: 'http://127.0.0.1:4010', version: '2025-07-08', mode: 'sandbox' });
 * const employment = await client.accounts.employment(accountId);
 * for await (const paystub of client.accounts.paystubs(accountId)) console.log(paystub.id);
 */
export function createPayrollClient(options: ClientOptions) {
  return buildClient(options, { backoff: DEFAULT_BACKOFF, longRetryAfter: 'wait' });
}

/**
 * {@link createPayrollClient} with another retry policy: the token handler's, from its documented `retry` and
 * `timeouts` by {@link handlerCallPolicy} (service-connection.ts).
 */
export function createPayrollClientWith(options: ClientOptions, retry: RetryPolicy) {
  return buildClient(options, retry);
}

function buildClient(options: ClientOptions, policy: RetryPolicy) {
  const parsed = ClientOptionsSchema.safeParse(options);
  if (!parsed.success) throw ConfigError.fromZod('payroll client options', parsed.error);
  const settings = parsed.data;
  const log = redactingLogger(settings.log ?? console, [settings.apiSecret]);
  const limiter = limiterFor(settings.rateLimit, settings.mode);
  const transport = createTransport({
    apiSecret: settings.apiSecret,
    baseUrl: settings.baseUrl,
    version: settings.version,
    fetch: settings.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    log,
    limiter,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    ...policy,
    onRequest: settings.onRequest,
    onResponse: settings.onResponse,
  });

  const badInput = (what: string, error?: z.ZodError) =>
    transport.fail({
      kind: 'invalid_request',
      message: `${what}${error ? `: ${error.issues.map((issue) => `${issue.path.join('.') || '(value)'} ${issue.message}`).join('; ')}` : ''}; not sent`,
    });

  /** Checks input; the parsed value, or throws (inside an async function: a rejection) an `invalid_request` error. */
  const check = <S extends z.core.$ZodType>(schema: S, value: unknown, what: string): z.output<S> => {
    const result = z.safeParse(schema, value);
    if (!result.success) throw badInput(what, result.error);
    return result.data;
  };
  const callOptions = (value: unknown): CallOptions => check(CallOptionsSchema, value, 'options') ?? {};
  const pathId = (value: unknown, what: string): string => {
    if (!uuid.safeParse(value).success) throw badInput(`${what} must be a UUID`);
    return value as string;
  };

  const answerBody = <S extends z.core.$ZodType>(answer: TransportAnswer, schema: S, label: string): z.output<S> => {
    const result = z.safeParse(schema, answer.json);
    if (result.success) return result.data;
    const paths = [...new Set(result.error.issues.map((issue) => issue.path.join('.') || '(root)'))];
    throw transport.fail({
      kind: 'invalid_response',
      status: answer.status,
      requestId: answer.requestId,
      version: answer.version,
      message: `${label}: HTTP ${answer.status} but the body does not match the expected shape (at ${paths.join(', ')})`,
    });
  };

  const withMeta = <T extends object>(value: T, answer: TransportAnswer): WithResponse<T> => {
    const response: ResponseMeta = { requestId: answer.requestId, status: answer.status, version: answer.version };
    return Object.defineProperty(value, 'response', { value: response, enumerable: false }) as WithResponse<T>;
  };

  const sendChecked = (method: 'GET' | 'POST', path: string, options: unknown, body?: unknown) => {
    const call = callOptions(options);
    return transport.send({ method, path, body, signal: call.signal, timeoutMs: call.timeoutMs, maxRetries: call.maxRetries });
  };

  async function one<S extends z.core.$ZodType>(
    method: 'GET' | 'POST',
    path: string,
    schema: S,
    options: unknown,
    body?: unknown,
  ): Promise<WithResponse<z.output<S>>> {
    const answer = await sendChecked(method, path, options, body);
    const { data } = answerBody(answer, envelope(schema), `${method} ${path}`) as { data: z.output<S> };
    return withMeta(data as object, answer) as WithResponse<z.output<S>>;
  }

  /** {@link one} for an endpoint whose answer the spec does not show: no body is {@link NoContent}, a body must fit `schema`. */
  async function oneOrNothing<S extends z.core.$ZodType>(
    method: 'POST',
    path: string,
    schema: S,
    options: unknown,
    body?: unknown,
  ): Promise<WithResponse<z.output<S>> | NoContent> {
    const answer = await sendChecked(method, path, options, body);
    if (answer.json === undefined) return withMeta({}, answer);
    const { data } = answerBody(answer, envelope(schema), `${method} ${path}`) as { data: z.output<S> };
    return withMeta(data as object, answer) as WithResponse<z.output<S>>;
  }

  function list<S extends z.core.$ZodType>(
    pathOf: () => string,
    schema: S,
    params: unknown,
    paramsSchema: z.ZodType<Record<string, unknown> | undefined>,
    options: unknown,
  ): PayrollList<z.output<S>> {
    const wrapped = listEnvelope(schema);
    // Checked on the first read: a list object is returned at once, and bad input must reject, not throw.
    const fetchPage = async (cursor: string | undefined): Promise<PayrollPage<z.output<S>>> => {
      const path = pathOf();
      const query = check(paramsSchema.optional(), params, 'parameters') ?? {};
      if (query['cursor'] !== undefined && settings.version < CURSORS_SINCE) {
        throw badInput(`parameters: cursor needs version ${CURSORS_SINCE} or later (this client sends ${settings.version})`);
      }
      const call = callOptions(options);
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries({ ...query, cursor: cursor ?? query['cursor'] })) {
        if (value !== undefined) search.set(key, String(value));
      }
      const answer = await transport.send({
        method: 'GET',
        path,
        query: search,
        signal: call.signal,
        timeoutMs: call.timeoutMs,
        maxRetries: call.maxRetries,
      });
      const body = answerBody(answer, wrapped, `GET ${path}`) as { data: z.output<S>[]; meta: { next_cursor?: string | null } };
      return { data: body.data, nextCursor: body.meta.next_cursor ?? null, requestId: answer.requestId };
    };
    return new PayrollList(fetchPage, undefined, transport.fail);
  }

  const accountPath =
    (id: unknown, tail = '') =>
    () =>
      `/v1/accounts/${pathId(id, 'accountId')}${tail}`;

  return {
    /** The `Service-Version` every call sends. */
    version: settings.version,
    /**
     * The rate limiter this client paces its calls with (null with `rateLimit: false`): for a request of your own
     * with the same secret (one the client has no method for, such as the sandbox's triggers), so that it takes
     * its turn in the same limit. `acquire()` before sending it, then call what that resolved with, if anything,
     * once it has its answer (`RequestAnswered`).
     */
    rateLimiter: limiter,
    /** `POST /link_tokens`: a Link token for the client's `version` (billable: a failed POST that may have reached the service is never sent again). */
    linkTokens: {
      async create(body: LinkTokenCreateBody, options?: CallOptions): Promise<WithResponse<LinkToken>> {
        const checked = check(LinkTokenCreateBodySchema, body, 'body');
        const foreign = usesRequiredJobs(settings.version) ? ['features', 'solution'] : ['required_jobs'];
        const present = foreign.filter((field) => field in checked);
        if (present.length > 0) throw badInput(`body: ${present.join(', ')} is not a field of version ${settings.version}`);
        return one('POST', '/link_tokens', LinkTokenSchema, options, checked);
      },
    },
    employers: {
      /** `GET /employers`: the path as the spec writes it, without `/v1` (as `POST /link_tokens`). */
      list: (params?: PageParams, options?: CallOptions): PayrollList<Employer> =>
        list(() => '/employers', EmployerSchema, params, PageParamsSchema, options),
    },
    platforms: {
      /** `GET /v1/platforms`. */
      list: (params?: PlatformListParams, options?: CallOptions): PayrollList<Platform> =>
        list(() => '/v1/platforms', PlatformSchema, params, PlatformListParamsSchema, options),
      /** `GET /v1/platforms/{id}`. */
      get: async (id: string, options?: CallOptions): Promise<WithResponse<Platform>> =>
        one('GET', `/v1/platforms/${pathId(id, 'id')}`, PlatformSchema, options),
    },
    accounts: {
      /** `GET /v1/accounts`, filtered by `connected`, `monitoring_status`, `end_user_id`. */
      list: (params?: AccountListParams, options?: CallOptions): PayrollList<Account> =>
        list(() => '/v1/accounts', AccountSchema, params, AccountListParamsSchema, options),
      /** `GET /v1/accounts/{id}`. */
      get: async (id: string, options?: CallOptions): Promise<WithResponse<Account>> =>
        one('GET', accountPath(id)(), AccountSchema, options),
      /**
       * `POST /v1/accounts/{id}/disconnect`: ends recurring access; the data stays readable. The spec does not
       * show the answer: resolves with the account when the service sends it (the sandbox does), and with
       * {@link NoContent} when it answers without a body (a 204); `'id' in result` tells which.
       */
      disconnect: async (id: string, options?: CallOptions): Promise<WithResponse<Account> | NoContent> =>
        oneOrNothing('POST', accountPath(id, '/disconnect')(), AccountSchema, options, {}),
      /** `GET /v1/accounts/{id}/employment`. */
      employment: async (id: string, options?: CallOptions): Promise<WithResponse<Employment>> =>
        one('GET', accountPath(id, '/employment')(), EmploymentSchema, options),
      /** `GET /v1/accounts/{id}/income`. */
      income: async (id: string, options?: CallOptions): Promise<WithResponse<Income>> =>
        one('GET', accountPath(id, '/income')(), IncomeSchema, options),
      /** `GET /v1/accounts/{id}/paystubs`. */
      paystubs: (id: string, params?: PageParams, options?: CallOptions): PayrollList<Paystub> =>
        list(accountPath(id, '/paystubs'), PaystubSchema, params, PageParamsSchema, options),
      /** `GET /v1/accounts/{id}/shifts` (time-and-attendance platforms). */
      shifts: (id: string, params?: PageParams, options?: CallOptions): PayrollList<Shift> =>
        list(accountPath(id, '/shifts'), ShiftSchema, params, PageParamsSchema, options),
    },
    jobs: {
      /** `POST /v1/accounts/{accountId}/jobs`: an on-demand job. */
      create: async (accountId: string, body: CreateJobBody, options?: CallOptions): Promise<WithResponse<Job>> => {
        const path = accountPath(accountId, '/jobs')();
        return one('POST', path, JobSchema, options, check(CreateJobBodySchema, body, 'body'));
      },
      /** `GET /v1/jobs`, filtered by `account_id`, `status`, `name`. */
      list: (params?: JobListParams, options?: CallOptions): PayrollList<Job> =>
        list(() => '/v1/jobs', JobSchema, params, JobListParamsSchema, options),
      /** `GET /v1/jobs/{id}`. */
      get: async (id: string, options?: CallOptions): Promise<WithResponse<Job>> =>
        one('GET', `/v1/jobs/${pathId(id, 'id')}`, JobSchema, options),
      /**
       * Polls the job (backing off from 250 ms to 2 s, each poll paced by the
       * rate limiter) until it is no longer `pending`, and resolves with it,
       * whatever its status. Still pending after `timeoutMs`: rejects with kind `timeout`.
       */
      wait: async (id: string, options?: WaitOptions): Promise<WithResponse<Job>> => {
        const path = `/v1/jobs/${pathId(id, 'id')}`;
        const { timeoutMs = DEFAULT_WAIT_MS, signal } = check(WaitOptionsSchema, options, 'options') ?? {};
        const deadline = Date.now() + timeoutMs;
        const late = (requestId: string | null) =>
          transport.fail({ kind: 'timeout', requestId, message: `GET ${path}: the job was still pending after ${timeoutMs} ms` });
        // One signal for the caller's cancel and the deadline: it ends a wait for the limiter, a poll or a
        // backoff alike, so the promise settles within timeoutMs however long the limiter holds a poll back.
        const bound = new AbortController();
        const onCallerAbort = () => bound.abort(signal!.reason);
        if (signal?.aborted) onCallerAbort();
        signal?.addEventListener('abort', onCallerAbort, { once: true });
        let lastRequestId: string | null = null;
        const timer = setTimeout(() => bound.abort(late(lastRequestId)), timeoutMs);
        try {
          for (let poll = 1; ; poll++) {
            // A poll never runs past the deadline: its own attempt bound is whichever comes first.
            const pollMs = Math.max(1, Math.min(settings.timeoutMs, Math.ceil(deadline - Date.now())));
            const job = await one('GET', path, JobSchema, { signal: bound.signal, timeoutMs: pollMs });
            lastRequestId = job.response.requestId;
            if ((job as { status?: unknown }).status !== 'pending') return job;
            const delayMs = backoffDelay(poll, POLL_FIRST_MS, POLL_MAX_MS);
            if (Date.now() + delayMs >= deadline) throw late(lastRequestId);
            await wait(delayMs, bound.signal);
          }
        } finally {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onCallerAbort);
        }
      },
    },
    verificationReports: {
      /** `GET /v1/end_users/{endUserId}/verification_reports/voe`. */
      voe: async (endUserId: string, options?: CallOptions): Promise<WithResponse<VoeReport>> =>
        one('GET', `${reportPath(endUserId)}/voe`, VoeReportSchema, options),
      /** `GET /v1/end_users/{endUserId}/verification_reports/voie`. */
      voie: async (endUserId: string, options?: CallOptions): Promise<WithResponse<VoieReport>> =>
        one('GET', `${reportPath(endUserId)}/voie`, VoieReportSchema, options),
    },
  };

  function reportPath(value: unknown): string {
    check(endUserId, value, 'endUserId');
    // One path segment whatever the integrator's id holds (a slash, a question mark, a dot segment).
    return `/v1/end_users/${encodeURIComponent(value as string).replace(/\./g, '%2E')}/verification_reports`;
  }
}

/** The client {@link createPayrollClient} returns. */
export type PayrollClient = ReturnType<typeof buildClient>;

export { PayrollApiError };
