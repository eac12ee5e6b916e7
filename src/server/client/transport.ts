/**
 * One logical call to the service: pacing, attempts with their timeout, retries as the spec says, same-origin
 * redirects, a capped body read, and every failure as a {@link PayrollApiError}. Web-standard only.
 */
import { ErrorBodySchema } from '../error-body.js';
import { describeError } from '../describe-error.js';
import { readCapped } from '../json-request.js';
import type { Logger } from '../logger.js';
import { MAX_SERVICE_ANSWER_BYTES } from './service-connection.js';
import { timeLimit } from '../../shared/time-limit.js';
import { untilAborted } from '../../shared/until-aborted.js';
import { backoffDelay, MAX_RETRY_WAIT_MS, parseRetryAfter, wait } from '../../shared/backoff.js';
import type { RequestInfo, ResponseInfo } from './client-options.js';
import { kindOfStatus, PayrollApiError, toErrorCodes, type PayrollApiErrorFields } from './payroll-api-error.js';
import type { RateLimiter } from './rate-limiter.js';

/** The client's {@link RetryPolicy} `backoff`. */
export const DEFAULT_BACKOFF = { baseMs: 250, maxMs: 4_000 } as const;
/** Same-origin redirects followed in one call, so a loop ends. */
const MAX_REDIRECTS = 3;
/**
 * What `x-service-request-id` must look like to be passed on (spec: a request UUID). Anything else is dropped: a header
 * an upstream filled with what it was sent (the secret, say) must reach no hook, error or `response`.
 */
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The statuses of {@link Effect}'s `not-done`. */
const NOT_DONE_STATUSES = new Set([429, 502, 503]);
/** The statuses of {@link Effect}'s `maybe-done`. */
const MAYBE_DONE_STATUSES = new Set([500, 504]);
/** Network failures that mean the request never left: safe to send a POST again. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** How retries wait. */
export interface RetryPolicy {
  /** The first backoff step and the ceiling of one computed step. */
  backoff: { baseMs: number; maxMs: number };
  /**
   * A `Retry-After` over {@link MAX_RETRY_WAIT_MS}: `wait` the cap and try again (the client), or `fail` at once with
   * the error, which carries `retryAfterMs` (the token handler, which has a browser to answer in time).
   */
  longRetryAfter: 'wait' | 'fail';
}

/** What the transport needs of the client's settings. */
export interface TransportSettings extends RetryPolicy {
  apiSecret: string;
  baseUrl: string;
  version: string;
  fetch: typeof fetch;
  log: Logger;
  limiter: RateLimiter | null;
  timeoutMs: number;
  maxRetries: number;
  onRequest: ((info: RequestInfo) => unknown) | undefined;
  onResponse: ((info: ResponseInfo) => unknown) | undefined;
}

/** One call. */
export interface TransportCall {
  method: 'GET' | 'POST';
  /** Below the base URL, with its leading slash, path segments already encoded. */
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  /** As {@link PayrollApiEndpoint}'s; by default a GET may, a POST may not. */
  retryAfterPossibleSend?: boolean | undefined;
}

/** A 2xx answer: its JSON (undefined for 204) and where it came from. */
export interface TransportAnswer {
  json: unknown;
  status: number;
  requestId: string | null;
  version: string;
}

/**
 * What a failed attempt says the service did, which decides a retry (see {@link shouldRetry}):
 * `not-done`: nothing (429, 502, 503; a connection never made);
 * `maybe-done`: it may have acted (500, 504; a timeout; an answer cut off; a connection lost);
 * `final`: its answer stands (any other status; an answer that breaks the spec).
 */
type Effect = 'not-done' | 'maybe-done' | 'final';

/** A failed attempt: the error to throw if it is not retried, and what the service may have done. */
interface Failure {
  error: PayrollApiError;
  effect: Effect;
}

/** What an attempt saw of an answer before its body: the status and the headers passed on. */
interface AnswerHead {
  status: number;
  requestId: string | null;
  version: string;
}

/** One attempt's end: an answer to hand back, a failure, or a same-origin redirect to follow. */
type AttemptEnd = { answer: TransportAnswer } | Failure | ({ redirect: string } & AnswerHead);

/**
 * The one retry decision, stripe-node's `_shouldRetry` in spirit: a failure is tried again when retries are left, its
 * answer does not stand, and either the service did nothing or the call may be sent twice (`retryAfterPossibleSend`, by
 * default a GET); never after a `Retry-After` beyond {@link MAX_RETRY_WAIT_MS} when the policy says to `fail` at once.
 */
function shouldRetry(failure: Failure, call: TransportCall, retries: number, maxRetries: number, policy: RetryPolicy): boolean {
  if (failure.effect === 'final' || retries >= maxRetries) return false;
  const { retryAfterMs } = failure.error;
  if (retryAfterMs !== null && retryAfterMs > MAX_RETRY_WAIT_MS && policy.longRetryAfter === 'fail') return false;
  return failure.effect === 'not-done' || (call.retryAfterPossibleSend ?? call.method === 'GET');
}

/** What a status says the service did: see {@link Effect}. */
const effectOfStatus = (status: number): Effect =>
  NOT_DONE_STATUSES.has(status) ? 'not-done' : MAYBE_DONE_STATUSES.has(status) ? 'maybe-done' : 'final';

/** Builds the send function of one client. */
export function createTransport(settings: TransportSettings) {
  const { log } = settings;
  const scrub = (text: string) => text.replaceAll(settings.apiSecret, '[redacted]');
  const fail = (fields: PayrollApiErrorFields) =>
    new PayrollApiError({
      ...fields,
      message: scrub(fields.message),
      type: fields.type == null ? null : scrub(fields.type),
      requestId: fields.requestId == null ? null : scrub(fields.requestId),
      errorCodes: fields.errorCodes?.map((entry) => ({ errorCode: scrub(entry.errorCode), message: scrub(entry.message) })),
      version: fields.version ?? settings.version,
    });

  // The service's headers may echo what they were sent: neither goes on unchecked.
  const requestIdOf = (response: Response) => {
    const value = response.headers.get('x-service-request-id');
    return value !== null && UUID_SHAPE.test(value) && !value.includes(settings.apiSecret) ? value : null;
  };
  const versionOf = (response: Response) => scrub(response.headers.get('service-version') ?? settings.version);
  const basePath = new URL(settings.baseUrl).pathname.replace(/\/+$/, '');
  /** The path a hook is told: below `baseUrl`, as documented; a redirect out of the base path gives the whole path. */
  const hookPath = (url: string) => {
    const { pathname } = new URL(url);
    return basePath !== '' && pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : pathname;
  };

  const runHook = <T>(name: string, hook: ((info: T) => unknown) | undefined, info: T) => {
    if (!hook) return;
    const contain = (error: unknown) => log.warn(`payroll client: the ${name} hook threw; ignored (${describeError(error)})`);
    try {
      const result = hook(info);
      // An async hook's rejection would otherwise be an unhandled rejection, which ends a Node process.
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function')
        (result as PromiseLike<unknown>).then(undefined, contain);
    } catch (error) {
      contain(error);
    }
  };

  /** Waits for the limiter's slot; a signal that aborts meanwhile rejects with its reason. */
  async function acquire(signal: AbortSignal | undefined, label: string): Promise<void> {
    if (!settings.limiter) {
      if (signal?.aborted) throw signal.reason;
      return;
    }
    try {
      await settings.limiter.acquire(signal);
    } catch (error) {
      if (signal?.aborted && error === signal.reason) throw error;
      log.error(`payroll client ${label}: the rate limiter failed (${describeError(error)})`);
      throw fail({ kind: 'connection', message: `${label}: the rate limiter failed (${describeError(error)}); the request was not sent` });
    }
  }

  /** An answer that is not what the spec says: final, never retried. */
  const invalid = (head: AnswerHead, label: string, message: string): Failure => ({
    effect: 'final',
    error: fail({ kind: 'invalid_response', ...head, message: `${label}: ${message}` }),
  });

  /** Sends the request; settles with the answer's head. Redirects are the caller's (see {@link followRedirect}). */
  function sendRequest(call: TransportCall, url: string, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-api-secret': settings.apiSecret,
      'Service-Version': settings.version,
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    return untilAborted(
      settings.fetch(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        // Followed by hand, and only to the same origin: a redirect elsewhere would carry the secret there.
        redirect: 'manual',
        signal,
      }),
      signal,
    );
  }

  /** A 3xx: the same-origin 307 or 308 to follow, or an answer that breaks the spec (its body is dropped either way). */
  async function followRedirect(response: Response, url: string, head: AnswerHead, label: string): Promise<AttemptEnd> {
    const { status } = head;
    await response.body?.cancel().catch(() => {});
    const location = response.headers.get('location');
    const target = location === null ? null : URL.canParse(location, url) ? new URL(location, url) : null;
    if ((status === 307 || status === 308) && target && target.origin === new URL(settings.baseUrl).origin)
      return { redirect: target.href, ...head };
    return invalid(
      head,
      label,
      `HTTP ${status} redirect ${target ? `to another origin (${target.origin})` : 'without a usable Location'}; not followed, since it would carry the API secret: check baseUrl`,
    );
  }

  /** The answer's body, capped at {@link MAX_SERVICE_ANSWER_BYTES} (none for a 204), within the attempt's time. */
  async function readBody(response: Response, signal: AbortSignal): Promise<Uint8Array | 'too-large' | 'unreadable'> {
    const bytes = response.status === 204 ? new Uint8Array() : await untilAborted(readCapped(response, MAX_SERVICE_ANSWER_BYTES), signal);
    if (bytes === 'too-large') await response.body?.cancel().catch(() => {});
    return bytes;
  }

  /** Classes an answer read whole: a 2xx's JSON, or the error its status and error body say. */
  function classifyAnswer(response: Response, head: AnswerHead, bytes: Uint8Array | 'too-large' | 'unreadable', label: string): AttemptEnd {
    const { status, requestId, version } = head;
    const ok = status >= 200 && status < 300;
    // Thrown, so that it is classed as a connection lost once the headers came (see classifyThrown).
    if (ok && bytes === 'unreadable') throw new Error('the answer was cut off');
    if (ok && bytes === 'too-large')
      return invalid(head, label, `HTTP ${status}, answer larger than ${MAX_SERVICE_ANSWER_BYTES} bytes; not read`);
    // An error answer is classed by its status: a 503 whose body broke off is still a 503, to retry as one.
    const text = typeof bytes === 'string' ? '' : new TextDecoder().decode(bytes);

    if (ok) {
      if (status === 204 || text === '') return { answer: { json: undefined, ...head } };
      try {
        return { answer: { json: JSON.parse(text), ...head } };
      } catch {
        return invalid(head, label, `HTTP ${status} but the body is not JSON`);
      }
    }

    const body = (() => {
      try {
        return ErrorBodySchema.safeParse(JSON.parse(text));
      } catch {
        return null;
      }
    })();
    const detail = body?.success ? body.data.error : null;
    const codes = detail ? toErrorCodes(detail.error_codes) : [];
    const summary = detail
      ? `${detail.type} ${codes.map((entry) => `${entry.errorCode}: ${entry.message}`).join('; ')}`
      : typeof bytes === 'string'
        ? `error body ${bytes === 'too-large' ? `over ${MAX_SERVICE_ANSWER_BYTES} bytes` : 'cut off'}, not read`
        : 'no error body';
    return {
      effect: effectOfStatus(status),
      error: fail({
        kind: kindOfStatus(status),
        status,
        type: detail?.type ?? null,
        errorCodes: codes,
        requestId,
        version,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
        message: `${label}: HTTP ${status} (${summary})`,
      }),
    };
  }

  /** Classes what an attempt threw (the caller's abort aside): its time ran out, its answer broke off, or the service was not reached. */
  function classifyThrown(error: unknown, head: AnswerHead | null, timedOut: boolean, label: string, timeoutMs: number): Failure {
    const status = head?.status ?? null;
    const requestId = head?.requestId ?? null;
    // A POST that timed out may have been done all the same.
    if (timedOut)
      return {
        effect: 'maybe-done',
        error: fail({ kind: 'timeout', status, requestId, message: `${label}: no answer within ${timeoutMs} ms` }),
      };
    if (status !== null) {
      // Headers came, the body broke off: the request was received.
      return {
        effect: 'maybe-done',
        error: fail({ kind: 'invalid_response', status, requestId, message: `${label}: HTTP ${status} but the answer was cut off` }),
      };
    }
    const code = (error as { cause?: { code?: unknown } })?.cause?.code;
    const notSent = typeof code === 'string' && NOT_SENT_CODES.has(code);
    return {
      effect: notSent ? 'not-done' : 'maybe-done',
      error: fail({ kind: 'connection', message: `${label}: could not reach the service (${describeError(error)})` }),
    };
  }

  /** One attempt, its steps named: send, follow a redirect or read the body, class the answer or the failure. */
  async function attempt(call: TransportCall, url: string, label: string, n: number, timeoutMs: number): Promise<AttemptEnd> {
    const [signal, timedOut, dispose] = timeLimit(timeoutMs, call.signal, () => new DOMException('attempt timeout', 'TimeoutError'));
    const path = hookPath(url);
    runHook('onRequest', settings.onRequest, { method: call.method, path, attempt: n });
    const started = Date.now();
    let head: AnswerHead | null = null;
    try {
      const response = await sendRequest(call, url, signal);
      head = { status: response.status, requestId: requestIdOf(response), version: versionOf(response) };
      const { status, requestId } = head;
      runHook('onResponse', settings.onResponse, { method: call.method, path, status, requestId, attempt: n, ms: Date.now() - started });
      if (status >= 300 && status < 400) return await followRedirect(response, url, head, label);
      return classifyAnswer(response, head, await readBody(response, signal), label);
    } catch (error) {
      if (call.signal?.aborted && !timedOut()) throw call.signal.reason;
      return classifyThrown(error, head, timedOut(), label, timeoutMs);
    } finally {
      dispose();
    }
  }

  /** Sends `call`, retrying what may be retried; resolves with a 2xx answer, rejects with a {@link PayrollApiError} (or the signal's reason). */
  async function send(call: TransportCall): Promise<TransportAnswer> {
    const label = `${call.method} ${call.path}`;
    const timeoutMs = call.timeoutMs ?? settings.timeoutMs;
    const maxRetries = call.maxRetries ?? settings.maxRetries;
    const query = call.query && [...call.query].length > 0 ? `?${call.query}` : '';
    let url = `${settings.baseUrl}${call.path}${query}`;
    let redirects = 0;
    // `retries` numbers the attempts the hooks are told of; following a redirect is the same attempt going on.
    for (let retries = 0; ;) {
      await acquire(call.signal, label);
      const end = await attempt(call, url, label, retries + 1, timeoutMs);
      if ('answer' in end) return end.answer;
      if ('redirect' in end) {
        if (++redirects > MAX_REDIRECTS) {
          const { status, requestId, version } = end;
          throw fail({ kind: 'invalid_response', status, requestId, version, message: `${label}: more than ${MAX_REDIRECTS} redirects` });
        }
        url = end.redirect;
        continue;
      }
      const { error } = end;
      if (!shouldRetry(end, call, retries, maxRetries, settings)) throw error;
      retries++;
      // A longer Retry-After is waited out to the cap, then tried again: the next answer says whether to wait more.
      const asked = error.retryAfterMs === null ? null : Math.min(error.retryAfterMs, MAX_RETRY_WAIT_MS);
      const delayMs = asked ?? backoffDelay(retries, settings.backoff.baseMs, settings.backoff.maxMs);
      log.warn(
        `payroll client ${label}: ${error.status === null ? error.kind : `HTTP ${error.status}`}; retry ${retries} of ${maxRetries} in ${Math.round(delayMs)} ms`,
        {
          requestId: error.requestId,
          delayMs: Math.round(delayMs),
          reason: asked === null ? 'backoff' : 'Retry-After',
        },
      );
      await wait(delayMs, call.signal ?? new AbortController().signal);
    }
  }

  return { send, fail };
}

/** The transport {@link createTransport} builds. */
export type Transport = ReturnType<typeof createTransport>;
