/** How to reach the service: the connection options the token handler and the client share. */
import * as z from 'zod';
import { functionSchema } from '../handler/function-schema.js';
import { LoggerSchema } from '../logger.js';
import { isLoopbackHost } from '../handler/loopback.js';
import { ServiceVersionSchema } from './service-version.js';

/**
 * The most of one service answer that is read. A Link token envelope is well under a kilobyte; without a cap a broken
 * or hostile upstream could make the handler hold hundreds of megabytes per request.
 */
export const MAX_SERVICE_ANSWER_BYTES = 1_048_576;

/** The fields that say how to reach the service, which the client's options take as they are. */
export const CONNECTION_FIELDS = {
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
  fetch: functionSchema<typeof fetch>('must be a fetch function').optional(),
  /** Defaults to `console`. */
  log: LoggerSchema.optional(),
};

/**
 * How to reach the service: shared by every handler that calls it. Parsed with zod at creation, so mistakes surface at
 * start-up. Built by a call marked pure: a bundler keeps a top-level call even when nothing reads its result, and the
 * client's options take only {@link CONNECTION_FIELDS}, so a bundle of the client alone leaves the handler's bounds
 * out.
 */
export const ServiceConnectionSchema = /* @__PURE__ */ withHandlerBounds();

function withHandlerBounds() {
  return z.object({
    ...CONNECTION_FIELDS,
    /**
     * Bounds in milliseconds. The whole budget stays under the widget's own 15 s per-try timeout, so the browser hears
     * our 503 rather than giving up first.
     *
     * A `POST` whose try timed out is not tried again: the service may have done it all the same (for
     * `POST /link_tokens`, minted a token, which is billable), and a second try would do it twice. So `attemptMs` is
     * most of the budget (8 s of 10 s): a slow service gets time to answer the one try, and only quick failures (a
     * refused connection, 429, 5xx) are retried.
     */
    timeouts: z
      .object({
        attemptMs: z.int().min(1).max(60_000).default(8_000),
        totalMs: z.int().min(1).max(120_000).default(10_000),
      })
      .prefault({}),
    /**
     * At most 3 tries: the spec asks clients to back off, not to hammer an overloaded service.
     * With the token handler's `client` option, `maxAttempts` still bounds its call, while the waits
     * between tries are that client's backoff (`baseDelayMs` and `maxDelayMs` then go unused).
     */
    retry: z
      .object({
        maxAttempts: z.int().min(1).max(3).default(3),
        baseDelayMs: z.int().min(0).max(60_000).default(250),
        maxDelayMs: z.int().min(0).max(60_000).default(2_000),
      })
      .prefault({}),
  });
}

/** What callers pass: every field with a default may be left out. */
export type ServiceConnectionConfig = z.input<typeof ServiceConnectionSchema>;
/** The connection after parsing, defaults filled in. */
export type ServiceConnection = z.output<typeof ServiceConnectionSchema>;

/**
 * The one place where the token handler's documented bounds (`timeouts`, `retry`) become the client's
 * (`timeoutMs`, `maxRetries`, its backoff): `retry` is the client's retry policy (the waits between tries, and a
 * `Retry-After` over the cap ends the call at once: the handler has a browser to answer within `timeouts.totalMs`,
 * so it passes the wait on as a 503 with `Retry-After`), `call` the bounds of each call, given per call so that
 * they hold with the app's own client too.
 */
export function handlerCallPolicy(connection: Pick<ServiceConnection, 'timeouts' | 'retry'>): {
  retry: { backoff: { baseMs: number; maxMs: number }; longRetryAfter: 'fail' };
  call: { timeoutMs: number; maxRetries: number };
} {
  return {
    retry: { backoff: { baseMs: connection.retry.baseDelayMs, maxMs: connection.retry.maxDelayMs }, longRetryAfter: 'fail' },
    call: { timeoutMs: connection.timeouts.attemptMs, maxRetries: connection.retry.maxAttempts - 1 },
  };
}
