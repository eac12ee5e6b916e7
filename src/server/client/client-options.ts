import * as z from 'zod';
import { LinkModeSchema } from '../../protocol/link-token.js';
import { AbortSignalSchema, functionSchema, methodsSchema } from '../handler/function-schema.js';
import { CONNECTION_FIELDS } from './service-connection.js';
import { inProcessRateLimiter, type RateLimiter } from './rate-limiter.js';

/** What {@link ClientOptions.onRequest} is told before each attempt: never headers, never the secret. */
export interface RequestInfo {
  method: string;
  /** The path below `baseUrl` (its own path prefix, if any, left out), query string excluded (it may carry cursors and filters). */
  path: string;
  /** 1 for the first try, 2 for the first retry...; following a redirect is not a new attempt. */
  attempt: number;
}

/** What {@link ClientOptions.onResponse} is told after each answer. */
export interface ResponseInfo extends RequestInfo {
  status: number;
  requestId: string | null;
  /** From sending to the answer's headers. */
  ms: number;
}

/** The requests per second the spec allows each mode (spec, "Limits"). */
export const MODE_RATE_LIMITS = { sandbox: 10, development: 10, production: 50 } as const;

/** The limiter a client's `rateLimit` asks for; the app's limiter is used as it is, even with a `perSecond` of its own. */
export function limiterFor(rateLimit: ClientOptions['rateLimit'], mode: ClientOptions['mode']): RateLimiter | null {
  if (rateLimit === false) return null;
  if (rateLimit === undefined) return inProcessRateLimiter({ perSecond: MODE_RATE_LIMITS[mode ?? 'sandbox'] });
  return 'acquire' in rateLimit ? rateLimit : inProcessRateLimiter({ perSecond: rateLimit.perSecond });
}

/**
 * Options of {@link createPayrollClient}, parsed with zod at creation. The connection fields are the handlers' own, so
 * both check them alike. Strict, unlike the handlers' schema it is built from: a misspelt option (`timeoutMS`) is a
 * {@link ConfigError} naming it, not a default silently kept.
 */
export const ClientOptionsSchema = z.strictObject({
  ...CONNECTION_FIELDS,
  /** The mode `apiSecret` belongs to: sets the default rate limit ({@link MODE_RATE_LIMITS}; sandbox's when absent). */
  mode: z.optional(LinkModeSchema),
  /** Bound of one attempt, the answer's body included, in milliseconds. */
  timeoutMs: z.int().min(1).max(300_000).default(10_000),
  /** Retries after the first try, for what the spec says to retry. */
  maxRetries: z.int().min(0).max(10).default(3),
  /**
   * Pacing under the service's rate limit: `false` turns it off, `{ perSecond }` sets this client's own limit, a
   * {@link RateLimiter} is shared (with other clients, or with other processes through `redisRateLimiter`).
   */
  rateLimit: z
    .union([
      z.literal(false),
      z.strictObject({ perSecond: z.int().min(1).max(10_000) }),
      methodsSchema<RateLimiter>(['acquire'], 'must be false, { perSecond }, or a rate limiter with an acquire method'),
    ])
    .optional(),
  /** Called synchronously before each attempt; a throw (or a rejected promise it returns) is logged and ignored. */
  onRequest: functionSchema<(info: RequestInfo) => void>().optional(),
  /** Called synchronously after each answer; a throw (or a rejected promise it returns) is logged and ignored. */
  onResponse: functionSchema<(info: ResponseInfo) => void>().optional(),
});

/** What {@link createPayrollClient} accepts. */
export type ClientOptions = z.input<typeof ClientOptionsSchema>;

/** The last argument of every method: per-call bounds. */
export interface CallOptions {
  /** Cancels the call, a wait for the rate limiter included; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
}

/** {@link CallOptions}, checked. */
export const CallOptionsSchema = z
  .strictObject({
    signal: AbortSignalSchema.optional(),
    timeoutMs: z.int().min(1).max(300_000).optional(),
    maxRetries: z.int().min(0).max(10).optional(),
  })
  .optional();
