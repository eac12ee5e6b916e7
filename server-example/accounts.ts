import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { invalidParamsResponse, jsonResponse, simpleErrorResponse } from './error-body.js';
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

/** The filters and paging of List Accounts that the browser may pass on. */
const AccountQuerySchema = z.strictObject({
  connected: z.enum(['true', 'false']).optional(),
  monitoring_status: z.string().min(1).max(100).optional(),
  limit: z.string().regex(/^\d{1,4}$/, 'must be a whole number').optional(),
  cursor: z.string().min(1).max(1_000).optional(),
});

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
    const query = AccountQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) return invalidParamsResponse(query.error);
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
