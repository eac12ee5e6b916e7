import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { invalidParamsResponse, jsonResponse, simpleErrorResponse } from './error-body.js';
import { EndUserIdSchema } from './link-tokens.js';
import { redactingLogger } from './logger.js';
import { createServiceClient, describeError, failureResponse, ServiceConnectionSchema, type ServiceConnectionConfig } from './service-client.js';

/**
 * The part of `GET /v1/accounts` the example relies on: the spec shows only the
 * items' `id`, so other fields pass through unchecked.
 */
export const AccountListSchema = z.object({
  data: z.array(z.looseObject({ id: z.uuid() })),
  meta: z.looseObject({ count: z.int().min(0), next_cursor: z.string().nullable().optional() }),
});

/**
 * The filters and paging of List Accounts that the browser may pass on, and
 * nothing else: what is not checked here would reach the service with our
 * secret, and come back as an opaque 502 instead of a 400 the page can read.
 * The spec names `connected` and `monitoring_status` but not their values, nor
 * `limit`'s range; the values and the 1–100 range are the sandbox's, as is
 * `end_user_id` (the filter a real backend uses to list one user's accounts).
 */
const AccountQuerySchema = z.strictObject({
  connected: z.enum(['true', 'false']).optional(),
  monitoring_status: z.enum(['active', 'disconnected']).optional(),
  end_user_id: EndUserIdSchema.optional(),
  limit: z.string().regex(/^(?:[1-9]\d?|100)$/, 'must be a whole number from 1 to 100').optional(),
  cursor: z.string().min(1).max(1_000).optional(),
});

/**
 * The query string as an object. A repeated key keeps all its values, so the
 * schema refuses `?limit=1&limit=2` instead of picking one of them.
 */
function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  return Object.fromEntries(
    [...new Set(params.keys())].map((key) => {
      const values = params.getAll(key);
      return [key, values.length === 1 ? values[0]! : values];
    }),
  );
}

/** Says what is wrong with a repeated key, where zod alone would speak of an array. */
const repeatedKeyMessage = (issue: z.core.$ZodRawIssue) =>
  issue.code === 'invalid_type' && Array.isArray(issue.input) ? 'must be given once' : undefined;

/**
 * Creates `GET /api/accounts` for the demo: lists the accounts of the whole
 * integration through the service's `GET /v1/accounts`, with the API secret.
 *
 * Demo only: a real backend must list only the signed-in user's accounts
 * (by the ids it stored from `account.added`), never everyone's.
 *
 * Throws a {@link ConfigError} when the configuration is wrong; the handler never throws.
 */
export function createAccountsHandler(config: ServiceConnectionConfig): (request: Request) => Promise<Response> {
  const parsed = ServiceConnectionSchema.safeParse(config);
  if (!parsed.success) throw ConfigError.fromZod('accounts handler config', parsed.error);
  const log = redactingLogger(parsed.data.log ?? console, [parsed.data.apiSecret]);
  const service = createServiceClient(parsed.data, log);

  return async function handleAccountsRequest(request: Request): Promise<Response> {
    if (request.method !== 'GET') {
      return simpleErrorResponse(405, 'INVALID_REQUEST', 'METHOD_NOT_ALLOWED', 'Use GET.', { allow: 'GET' });
    }
    const query = AccountQuerySchema.safeParse(queryObject(new URL(request.url).searchParams), { error: repeatedKeyMessage });
    if (!query.success) return invalidParamsResponse(query.error, 'query string');
    try {
      const result = await service.call({
        method: 'GET',
        path: '/v1/accounts',
        query: new URLSearchParams(query.data as Record<string, string>),
        schema: AccountListSchema,
      });
      if (result.kind !== 'ok') return failureResponse(result);
      return jsonResponse(200, result.data);
    } catch (error) {
      log.error(`accounts: unexpected failure: ${describeError(error)}`);
      return simpleErrorResponse(500, 'INTERNAL_ERROR', 'INTERNAL_ERROR', 'The server could not list the accounts.');
    }
  };
}
