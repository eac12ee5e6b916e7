import { z } from 'zod';
import { ErrorBodySchema } from '../error-body.js';
import { LoggerSchema, type Logger } from '../logger.js';
import { describeError } from '../describe-error.js';
import { readCapped } from '../json-request.js';
import { isLoopbackHost } from '../loopback.js';
import { parseRetryAfter } from '../../shared/backoff.js';
import { untilAborted, withRetries, type AttemptResult, type RetryPolicy } from './retry.js';
import { ServiceVersionSchema } from './service-version.js';

/** The longest `Retry-After` (seconds) passed on to the browser when the service is unavailable. */
const MAX_BROWSER_RETRY_AFTER_S = 60;

/**
 * The most of one service answer that is read. A Link token envelope is well
 * under a kilobyte; without a cap a broken or hostile upstream could make the
 * handler hold hundreds of megabytes per request.
 */
export const MAX_SERVICE_ANSWER_BYTES = 1_048_576;

/**
 * How to reach the service: shared by every handler that calls it. Parsed with
 * zod at creation, so mistakes surface at start-up.
 */
export const ServiceConnectionSchema = z.object({
  /** The API secret of the mode that `baseUrl` serves. Sent as `x-api-secret`; never logged, never answered. */
  apiSecret: z.string().min(1, 'is required: the API secret of the mode that baseUrl serves'),
  /**
   * The service's base URL for the mode, e.g. the sandbox. HTTPS, as the spec
   * requires; plain HTTP only on loopback, where the local sandbox runs.
   */
  baseUrl: z
    .url({ message: 'must be an absolute URL such as https://sandbox.example.com or http://127.0.0.1:4010' })
    .refine((value) => {
      if (!URL.canParse(value)) return true; // already reported by z.url()
      const url = new URL(value);
      return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
    }, 'must use https (plain http is allowed only on loopback, for the local sandbox)')
    .refine((value) => {
      if (!URL.canParse(value)) return true;
      const url = new URL(value);
      // Credentials would reach error messages (and so logs); a query or fragment would break every path.
      return url.username === '' && url.password === '' && url.search === '' && url.hash === '';
    }, 'must have no user name, password, query or fragment')
    .transform((value) => value.replace(/\/+$/, '')),
  /** The `Service-Version` sent on every call. */
  version: ServiceVersionSchema,
  /** Injectable for tests and for runtimes with their own; defaults to the global `fetch`. */
  fetch: z.custom<typeof fetch>((value) => typeof value === 'function', { message: 'must be a fetch function' }).optional(),
  /** Defaults to `console`. */
  log: LoggerSchema.optional(),
  /**
   * Bounds in milliseconds. The whole budget stays under the widget's own
   * 15 s per-try timeout, so the browser hears our 503 rather than giving up first.
   *
   * A `POST` whose try timed out is not tried again: the service may have
   * done it all the same (for `POST /link_tokens`, minted a token, which is
   * billable), and a second try would do it twice. So `attemptMs` is most of
   * the budget (8 s of 10 s): a slow service gets time to answer the one try,
   * and only quick failures (a refused connection, 429, 5xx) are retried.
   */
  timeouts: z
    .object({
      attemptMs: z.int().min(1).max(60_000).default(8_000),
      totalMs: z.int().min(1).max(120_000).default(10_000),
    })
    .prefault({}),
  /** At most 3 tries: the spec asks clients to back off, not to hammer an overloaded service. */
  retry: z
    .object({
      maxAttempts: z.int().min(1).max(3).default(3),
      baseDelayMs: z.int().min(0).max(60_000).default(250),
      maxDelayMs: z.int().min(0).max(60_000).default(2_000),
    })
    .prefault({}),
});

/** What callers pass: every field with a default may be left out. */
export type ServiceConnectionConfig = z.input<typeof ServiceConnectionSchema>;
/** The connection after parsing, defaults filled in. */
export type ServiceConnection = z.output<typeof ServiceConnectionSchema>;

/** The answer to one logical call, after retries. Never thrown: every outcome is data. */
export type ServiceResult<T> =
  /** A 2xx whose body passed the schema. */
  | { kind: 'ok'; status: number; data: T; requestId: string | null }
  /** A 4xx (other than 429) or 3xx: not worth retrying; `errorCodes` from the spec's error body when present. */
  | { kind: 'rejected'; status: number; requestId: string | null; errorCodes: string[] }
  /** A 2xx whose body was not JSON or failed the schema. */
  | { kind: 'malformed'; status: number; requestId: string | null; problem: string }
  /** Retries ran out (429, 5xx, timeouts, network errors); the caller's client should wait `retryAfterSeconds`. */
  | { kind: 'unavailable'; retryAfterSeconds: number; problem: string };

/** One call to make. */
export interface ServiceCall<S extends z.core.$ZodType> {
  method: 'GET' | 'POST';
  /** Path below the base URL, with its leading slash, e.g. `/link_tokens`. */
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  /** The schema a 2xx body must pass; zod and zod/mini schemas both work. */
  schema: S;
}

/** Statuses the spec says to retry: rate limit, unexpected error, down, overloaded, timed out. */
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/** Why a rejected call happened, in words an integrator can act on. */
const REJECTION_HINTS: Record<number, string> = {
  400: 'the service refused the request body or headers: check version, orgName, solution and features',
  401: 'the API secret is missing or wrong: it must belong to the mode that baseUrl serves',
  403: 'the service understood the request but refused it: see its error codes',
  404: 'no such endpoint: check baseUrl',
};

/** An answer; `tooLarge` when its body passed {@link MAX_SERVICE_ANSWER_BYTES} and was left unread. */
type Answer = { kind: 'answer'; status: number; requestId: string | null; text: string; tooLarge?: true };
type Failure = { kind: 'failure'; problem: string };

/**
 * A small client for the service: sends the secret and `Service-Version`,
 * retries what the spec says to retry, validates 2xx bodies, and logs one line
 * per try with the upstream `x-service-request-id` (never the secret, never a body).
 */
export function createServiceClient(connection: ServiceConnection, log: Logger) {
  const fetchFn = connection.fetch ?? globalThis.fetch;
  const policy: RetryPolicy = {
    maxAttempts: connection.retry.maxAttempts,
    baseDelayMs: connection.retry.baseDelayMs,
    maxDelayMs: connection.retry.maxDelayMs,
    attemptTimeoutMs: connection.timeouts.attemptMs,
    totalTimeoutMs: connection.timeouts.totalMs,
  };

  async function call<S extends z.core.$ZodType>(request: ServiceCall<S>): Promise<ServiceResult<z.output<S>>> {
    const label = `${request.method} ${request.path}`;
    const query = request.query && [...request.query].length > 0 ? `?${request.query}` : '';
    const url = `${connection.baseUrl}${request.path}${query}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-api-secret': connection.apiSecret,
      'Service-Version': connection.version,
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';

    const tryOnce = async (signal: AbortSignal, attempt: number): Promise<AttemptResult<Answer | Failure>> => {
      const started = Date.now();
      let requestId: string | null = null;
      try {
        const response = await untilAborted(
          fetchFn(url, {
            method: request.method,
            headers,
            body: request.body === undefined ? undefined : JSON.stringify(request.body),
            // A redirect would carry the secret to wherever it points; the spec's 307 is reported, not followed.
            redirect: 'manual',
            signal,
          }),
          signal,
        );
        requestId = response.headers.get('x-service-request-id');
        const bytes = await untilAborted(readCapped(response, MAX_SERVICE_ANSWER_BYTES), signal);
        if (bytes === 'unreadable') throw new Error('the answer could not be read');
        const fields = { attempt, status: response.status, requestId, ms: Date.now() - started };
        if (bytes === 'too-large') {
          await response.body?.cancel().catch(() => {});
          log.warn(`payroll service ${label}: HTTP ${response.status}, answer larger than ${MAX_SERVICE_ANSWER_BYTES} bytes; not read`, fields);
          return { retry: false, value: { kind: 'answer', status: response.status, requestId, text: '', tooLarge: true } };
        }
        const text = new TextDecoder().decode(bytes);
        const answer: Answer = { kind: 'answer', status: response.status, requestId, text };
        if (RETRYABLE_STATUSES.has(response.status)) {
          log.warn(`payroll service ${label}: HTTP ${response.status}`, fields);
          return { retry: true, value: answer, retryAfterMs: parseRetryAfter(response.headers.get('retry-after')) };
        }
        log.info(`payroll service ${label}: HTTP ${response.status}`, fields);
        return { retry: false, value: answer };
      } catch (error) {
        const problem = signal.aborted ? 'no answer in time' : `network error (${describeError(error)})`;
        log.warn(`payroll service ${label}: ${problem}`, { attempt, requestId, ms: Date.now() - started });
        // The service may have done a POST that timed out (minted a billable token): never do it twice.
        if (signal.aborted && request.method === 'POST') return { retry: false, value: { kind: 'failure', problem } };
        return { retry: true, value: { kind: 'failure', problem }, retryAfterMs: null };
      }
    };

    const outcome = await withRetries(tryOnce, policy, ({ attempt, delayMs, fromRetryAfter }) => {
      log.info(`payroll service ${label}: retrying in ${Math.round(delayMs)} ms`, {
        afterAttempt: attempt,
        delayMs: Math.round(delayMs),
        reason: fromRetryAfter ? 'Retry-After' : 'backoff',
      });
    });

    const last = outcome.value;
    if (outcome.exhausted) {
      const problem = last.kind === 'failure' ? last.problem : `HTTP ${last.status}`;
      // Passed on to the browser: bounded, so an upstream's "Retry-After: 3600" (or 1e25) never parks a user for an hour.
      const retryAfterSeconds = Math.min(MAX_BROWSER_RETRY_AFTER_S, Math.max(1, Math.ceil(outcome.retryAfterMs / 1000)));
      const hint = problem.includes('ECONNREFUSED') ? `: nothing listens at ${connection.baseUrl}; is the service (npm run sandbox) running?` : '';
      log.error(`payroll service ${label}: unavailable after ${outcome.attempts} ${outcome.attempts === 1 ? 'try' : 'tries'} (${problem})${hint}`, {
        attempts: outcome.attempts,
        retryAfterSeconds,
        requestId: last.kind === 'answer' ? last.requestId : null,
      });
      return { kind: 'unavailable', retryAfterSeconds, problem };
    }
    if (last.kind === 'failure') {
      // A POST that timed out: not retried (see timeouts), so the browser is told to try again itself.
      log.error(`payroll service ${label}: ${last.problem}; not tried again, since the service may have done it`, { attempts: outcome.attempts });
      return { kind: 'unavailable', retryAfterSeconds: 1, problem: last.problem };
    }
    const answer = last;
    const { status, requestId } = answer;
    if (answer.tooLarge) return malformed(label, answer, `the body is larger than ${MAX_SERVICE_ANSWER_BYTES} bytes`);
    if (status < 200 || status > 299) return reject(label, answer);

    let json: unknown;
    try {
      json = JSON.parse(answer.text);
    } catch {
      return malformed(label, answer, 'the body is not JSON');
    }
    const parsed = z.safeParse(request.schema, json);
    if (!parsed.success) {
      const paths = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(root)'))];
      return malformed(label, answer, `the body does not match the expected shape (at ${paths.join(', ')})`);
    }
    return { kind: 'ok', status, data: parsed.data, requestId };
  }

  function reject(label: string, answer: Answer): ServiceResult<never> {
    const body = (() => {
      try {
        return ErrorBodySchema.safeParse(JSON.parse(answer.text));
      } catch {
        return null;
      }
    })();
    const error = body?.success ? body.data.error : null;
    const errorCodes = error ? error.error_codes.map((entry) => entry.error_code) : [];
    const hint =
      answer.status >= 300 && answer.status < 400
        ? 'the service redirected; redirects are not followed because they would carry the API secret: check baseUrl'
        : (REJECTION_HINTS[answer.status] ?? 'unexpected status');
    log.error(`payroll service ${label}: refused with HTTP ${answer.status}: ${hint}`, {
      status: answer.status,
      requestId: answer.requestId,
      type: error?.type ?? null,
      errorCodes,
      messages: error ? error.error_codes.map((entry) => entry.message) : [],
    });
    return { kind: 'rejected', status: answer.status, requestId: answer.requestId, errorCodes };
  }

  function malformed(label: string, answer: Answer, problem: string): ServiceResult<never> {
    log.error(`payroll service ${label}: answered HTTP ${answer.status} but ${problem}`, {
      status: answer.status,
      requestId: answer.requestId,
    });
    return { kind: 'malformed', status: answer.status, requestId: answer.requestId, problem };
  }

  return { call };
}

/** The client {@link createServiceClient} returns. */
export type ServiceClient = ReturnType<typeof createServiceClient>;
