import * as z from 'zod';
import { ConfigError } from '../config-error.js';
import { redactingLogger } from '../logger.js';
import { backoffDelay, wait } from '../../shared/backoff.js';
import { timeLimit } from '../../shared/time-limit.js';
import { AbortSignalSchema } from '../handler/function-schema.js';
import { CallOptionsSchema, ClientOptionsSchema, limiterFor, type CallOptions, type ClientOptions } from './client-options.js';
import { PayrollApiError } from './payroll-api-error.js';
import { PAYROLL_API_ENDPOINTS, type PayrollApiEndpoint, type PayrollApiEndpoints } from './payroll-api-endpoints.js';
import { PayrollList, type PayrollPage } from './payroll-list.js';
import type { RateLimiter } from './rate-limiter.js';
import type { KnownFields } from './known-fields.js';
import type { Job } from './resource-schemas.js';
import type { ServiceVersion } from './service-version.js';
import { keepClientSecret } from './client-secret.js';
import { createTransport, DEFAULT_BACKOFF, type RetryPolicy, type TransportAnswer } from './transport.js';

export type {
  AccountListParams,
  CreateJobBody,
  JobListParams,
  LinkTokenCreateBody,
  PageParams,
  PlatformListParams,
} from './payroll-api-endpoints.js';

/**
 * Whether a path parameter names no segment of its own: empty, `.` or `..`, as given or after any number of
 * percent-decodings (`%2e`, `.%2E`, `%252e%252e`). Sent, the URL parser `fetch` uses reads `%2E%2E` as `..` and
 * drops the segment before it; a proxy or the service may decode once more.
 */
function isDotSegment(value: string): boolean {
  let text = value;
  for (;;) {
    if (text === '' || text === '.' || text === '..') return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      return false;
    }
    // Each decoding that changes the text shortens it: the loop ends.
    if (decoded === text) return false;
    text = decoded;
  }
}

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

/** The argument a path parameter becomes, named as in the row's path (a tuple label cannot be computed). */
interface PathArgument {
  id: [id: string];
  accountId: [accountId: string];
  endUserId: [endUserId: string];
}
type PathArgs<R> = R extends { pathParams: infer P }
  ? { [K in keyof P]: K extends keyof PathArgument ? PathArgument[K] : [value: string] }[keyof P]
  : [];
type QueryArgs<R> = R extends { query: infer Q extends z.ZodType } ? [params?: z.input<Q>] : [];
type BodyArgs<R> = R extends { body: infer B extends z.ZodType } ? [body: z.input<B>] : [];
/** An item of the answer: the schema's output, a loose one with its known fields only (as the exported resource types). */
type ItemOf<R> = R extends { answer: infer S extends z.core.$ZodType }
  ? string extends keyof z.output<S>
    ? KnownFields<z.output<S>>
    : z.output<S>
  : never;
type ResultOf<R> = R extends { returns: 'list' }
  ? PayrollList<ItemOf<R>>
  : R extends { returns: 'one' }
    ? Promise<WithResponse<ItemOf<R>>>
    : Promise<WithResponse<ItemOf<R>> | NoContent>;
/**
 * A client method for each row of a table of endpoints, grouped as the table is; each takes its row's doc comment.
 * A method's arguments are its path parameters, its query parameters or its body, then the call's options (written
 * out here rather than through an alias, so that an editor shows the method's signature, not the alias's name).
 */
export type EndpointMethods<T extends PayrollApiEndpoints> = {
  [G in keyof T]: {
    [M in keyof T[G]]: (
      ...args: [...PathArgs<T[G][M]>, ...QueryArgs<T[G][M]>, ...BodyArgs<T[G][M]>, options?: CallOptions]
    ) => ResultOf<T[G][M]>;
  };
};

/** Options of `jobs.wait`. */
export interface WaitOptions {
  /** How long to poll before rejecting with kind `timeout`; 60 s by default. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const WaitOptionsSchema = z
  .strictObject({
    timeoutMs: z.int().min(1).max(3_600_000).optional(),
    signal: AbortSignalSchema.optional(),
  })
  .optional();

const DEFAULT_WAIT_MS = 60_000;
const POLL_FIRST_MS = 250;
const POLL_MAX_MS = 2_000;

const envelope = <S extends z.core.$ZodType>(schema: S) => z.object({ data: schema });
// `next_cursor` is absent on a list that is not paginated (List Platforms shows `meta.count` only) and before version
// 2022-03-02: either way, the only page.
const listEnvelope = <S extends z.core.$ZodType>(schema: S) =>
  z.object({ data: z.array(schema), meta: z.object({ count: z.int().min(0), next_cursor: z.string().min(1).nullish() }) });

/** The version that brought cursor pagination (spec, "Versioning" 5); versions are dates, so they compare as strings. */
const CURSORS_SINCE = '2022-03-02';

/**
 * Creates a typed client of the service's API (the `/v1` endpoints, `GET /employers` and `POST /link_tokens`, each path
 * as the spec writes it): the secret and `Service-Version` on every call, answers checked against the resource schemas,
 * calls paced under the mode's rate limit, retries as the spec says, and one error class, {@link PayrollApiError}.
 * Web-standard: runs wherever `fetch` does.
 *
 * Throws a {@link ConfigError} naming each bad option. Every method returns a promise (or a {@link PayrollList}) and
 * rejects, never throws, on bad input.
 *
 * @example
 * const client = createPayrollClient({ apiSecret: process.env.PAYROLL_API_SECRET!, baseUrl: 'http://127.0.0.1:4010', version: '2025-07-08', mode: 'sandbox' });
 * const employment = await client.accounts.employment(accountId);
 * for await (const paystub of client.accounts.paystubs(accountId)) console.log(paystub.id);
 */
export function createPayrollClient(options: ClientOptions): PayrollClient {
  return createPayrollClientWith(options, { backoff: DEFAULT_BACKOFF, longRetryAfter: 'wait' });
}

/**
 * {@link createPayrollClient} with another retry policy: the token handler's, from its documented `retry` and
 * `timeouts` by {@link handlerCallPolicy} (service-connection.ts).
 */
export function createPayrollClientWith(options: ClientOptions, policy: RetryPolicy): PayrollClient {
  const parsed = ClientOptionsSchema.safeParse(options, { reportInput: true });
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

  /** The row's path with each parameter checked and sent as one path segment (a slash, a question mark, a dot segment alike). */
  const pathOf = (row: PayrollApiEndpoint, values: Readonly<Record<string, unknown>>): string =>
    row.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const param = row.pathParams![name]!;
      const value = values[name];
      if (param.mustBe === undefined) check(param.schema, value, param.what);
      else if (!param.schema.safeParse(value).success) throw badInput(`${param.what} must be ${param.mustBe}`);
      if (isDotSegment(value as string)) throw badInput(`${param.what} must not be empty, "." or "..", in any encoding`);
      return encodeURIComponent(value as string).replace(/\./g, '%2E');
    });

  /** A row's body, checked: the caller's, or `{}` for a `POST` that takes none. */
  const bodyOf = (row: PayrollApiEndpoint, value: unknown): unknown => {
    if (row.body === undefined) return row.method === 'POST' ? {} : undefined;
    const checked = check(row.body, value, 'body') as Record<string, unknown>;
    const present = row.refusedFields?.(settings.version).filter((field) => field in checked) ?? [];
    if (present.length > 0) throw badInput(`body: ${present.join(', ')} is not a field of version ${settings.version}`);
    return checked;
  };

  /** One call of a row that answers one resource (or, for `one-or-nothing`, possibly no body: {@link NoContent}). */
  async function one(row: PayrollApiEndpoint, path: string, body: unknown, options: unknown): Promise<object> {
    const call = callOptions(options);
    const answer = await transport.send({
      method: row.method,
      path,
      body,
      retryAfterPossibleSend: row.retryAfterSend,
      signal: call.signal,
      timeoutMs: call.timeoutMs,
      maxRetries: call.maxRetries,
    });
    if (row.returns === 'one-or-nothing' && answer.json === undefined) return withMeta({}, answer);
    const { data } = answerBody(answer, envelope(row.answer), `${row.method} ${path}`) as { data: object };
    return withMeta(data, answer);
  }

  /** A row that answers a list: nothing is checked or fetched until the list is read (bad input rejects, never throws). */
  function list(
    row: PayrollApiEndpoint,
    values: Readonly<Record<string, unknown>>,
    params: unknown,
    options: unknown,
  ): PayrollList<unknown> {
    const wrapped = listEnvelope(row.answer);
    const fetchPage = async (cursor: string | undefined): Promise<PayrollPage<unknown>> => {
      const path = pathOf(row, values);
      const query = check(row.query!.optional(), params, 'parameters') ?? {};
      if (query['cursor'] !== undefined && settings.version < CURSORS_SINCE) {
        throw badInput(`parameters: cursor needs version ${CURSORS_SINCE} or later (this client sends ${settings.version})`);
      }
      const call = callOptions(options);
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries({ ...query, cursor: cursor ?? query['cursor'] })) {
        if (value !== undefined) search.set(key, String(value));
      }
      const answer = await transport.send({
        method: row.method,
        path,
        query: search,
        retryAfterPossibleSend: row.retryAfterSend,
        signal: call.signal,
        timeoutMs: call.timeoutMs,
        maxRetries: call.maxRetries,
      });
      const body = answerBody(answer, wrapped, `${row.method} ${path}`) as { data: unknown[]; meta: { next_cursor?: string | null } };
      return { data: body.data, nextCursor: body.meta.next_cursor ?? null, requestId: answer.requestId };
    };
    return new PayrollList(fetchPage, undefined, transport.fail);
  }

  /** The method of one row: its arguments are its path parameters, its query parameters or body, then the call's options. */
  const methodOf = (row: PayrollApiEndpoint) => {
    const names = Object.keys(row.pathParams ?? {});
    return (...args: unknown[]) => {
      const values = Object.fromEntries(names.map((name, index) => [name, args[index]]));
      const rest = args.slice(names.length);
      if (row.returns === 'list') return list(row, values, rest[0], rest[1]);
      return (async () => {
        const path = pathOf(row, values);
        const body = bodyOf(row, row.body === undefined ? undefined : rest.shift());
        return one(row, path, body, rest[0]);
      })();
    };
  };

  const endpoints = PAYROLL_API_ENDPOINTS as PayrollApiEndpoints;
  const methods = Object.fromEntries(
    Object.entries(endpoints).map(([group, rows]) => [
      group,
      Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, methodOf(row)])),
    ]),
  ) as EndpointMethods<typeof PAYROLL_API_ENDPOINTS>;

  /** `jobs.wait`, as {@link PayrollClient} describes it: polls the `jobs.get` row. */
  async function waitForJob(id: string, options?: WaitOptions): Promise<WithResponse<Job>> {
    const row: PayrollApiEndpoint = PAYROLL_API_ENDPOINTS.jobs.get;
    const path = pathOf(row, { id });
    const { timeoutMs = DEFAULT_WAIT_MS, signal } = check(WaitOptionsSchema, options, 'options') ?? {};
    const deadline = Date.now() + timeoutMs;
    const stillPending = (requestId: string | null) =>
      transport.fail({ kind: 'timeout', requestId, message: `GET ${path}: the job was still pending after ${timeoutMs} ms` });
    // One signal for the caller's cancel and the deadline: it ends a wait for the limiter, a poll or a
    // backoff alike, so the promise settles within timeoutMs however long the limiter holds a poll back.
    let lastRequestId: string | null = null;
    const [bound, , dispose] = timeLimit(timeoutMs, signal, () => stillPending(lastRequestId));
    try {
      for (let poll = 1; ; poll++) {
        // A poll never runs past the deadline: its own attempt bound is whichever comes first.
        const pollMs = Math.max(1, Math.min(settings.timeoutMs, Math.ceil(deadline - Date.now())));
        const job = (await one(row, path, undefined, { signal: bound, timeoutMs: pollMs })) as WithResponse<Job>;
        lastRequestId = job.response.requestId;
        const status = (job as { status?: unknown }).status;
        // The spec promises no job field but `id`: a job without a status has not said that it ended.
        if (typeof status !== 'string') {
          throw transport.fail({
            kind: 'invalid_response',
            requestId: lastRequestId,
            message: `GET ${path}: the job has no status, so jobs.wait cannot tell whether it has ended (the service's spec shows no job field but id)`,
          });
        }
        if (status !== 'pending') return job;
        const delayMs = backoffDelay(poll, POLL_FIRST_MS, POLL_MAX_MS);
        if (Date.now() + delayMs >= deadline) throw stillPending(lastRequestId);
        await wait(delayMs, bound);
      }
    } finally {
      dispose();
    }
  }

  const client: PayrollClient = {
    ...methods,
    version: settings.version,
    rateLimiter: limiter,
    jobs: { ...methods.jobs, wait: waitForJob },
  };
  // Beside the client, not on it: the handlers given this client scrub their lines of it (client-secret.ts).
  keepClientSecret(client, settings.apiSecret);
  return client;
}

/** The client {@link createPayrollClient} returns: a method for each row of {@link PAYROLL_API_ENDPOINTS}, and `jobs.wait`. */
export type PayrollClient = EndpointMethods<typeof PAYROLL_API_ENDPOINTS> & {
  /** The `Service-Version` every call sends. */
  version: ServiceVersion;
  /**
   * The rate limiter this client paces its calls with (null with `rateLimit: false`): for a request of your own
   * with the same secret (one the client has no method for, such as the sandbox's triggers), so that it takes
   * its slot in the same limit: `acquire()` before sending it.
   */
  rateLimiter: RateLimiter | null;
  jobs: {
    /**
     * Polls the job (backing off from 250 ms to 2 s, each poll paced by the rate limiter) until it is no longer
     * `pending`, and resolves with it, whatever its status; {@link WaitOptions} bounds the wait.
     */
    wait: (id: string, options?: WaitOptions) => Promise<WithResponse<Job>>;
  };
};

export { PayrollApiError };
