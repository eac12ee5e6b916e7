import { z } from 'zod';
import { LinkTokenEnvelopeSchema } from '../src/protocol.js';
import { ConfigError } from './config-error.js';
import { invalidParamsResponse, jsonResponse, simpleErrorResponse } from './error-body.js';
import { readJsonBody } from './json-request.js';
import { redactingLogger } from './logger.js';
import { createServiceClient, describeError, failureResponse, ServiceConnectionSchema } from './service-client.js';
import { usesRequiredJobs, type ServiceVersion } from './service-version.js';

/**
 * Decides whose token this is, from the integrator's own session (a cookie, a
 * header), not from what the browser claims. Gets the browser's `end_user_id`
 * (if any) as a hint. Returns the id, or null/undefined for none.
 */
export type EndUserResolver = (
  request: Request,
  requestedEndUserId: string | undefined,
) => string | null | undefined | Promise<string | null | undefined>;

/** An end user's id, as the integrator chose it (`end_user_id`). */
export const EndUserIdSchema = z.string().min(1).max(255);

/** Configuration of {@link createLinkTokenHandler}; parsed with zod when the handler is created. */
export const LinkTokenHandlerConfigSchema = ServiceConnectionSchema.extend({
  /** Your organisation's name, shown to the end user in Link (`org_name`). */
  orgName: z.string().min(1, 'is required').max(255),
  /** The product the token is for (`solution`); required from version 2022-03-02 on, unused before. */
  solution: z.string().min(1).max(255).optional(),
  /** What Link should do, e.g. `["direct_deposit_switch"]`: sent as `features`, or as `required_jobs` up to 2021-07-28. */
  features: z.array(z.string().min(1).max(100)).min(1, 'needs at least one feature, e.g. direct_deposit_switch'),
  /** See {@link EndUserResolver}. Without it, the browser's `end_user_id` is passed on as given. */
  resolveEndUserId: z
    .custom<EndUserResolver>((value) => typeof value === 'function', { message: 'must be a function' })
    .optional(),
  /** Cap on the browser's request body, in bytes. */
  maxBodyBytes: z.int().min(64).max(1_048_576).default(4_096),
}).superRefine((config, context) => {
  if (!usesRequiredJobs(config.version) && config.solution === undefined) {
    context.addIssue({ code: 'custom', path: ['solution'], message: `is required for version ${config.version}` });
  }
});

/** What {@link createLinkTokenHandler} accepts; fields with defaults may be left out. */
export type LinkTokenHandlerConfig = z.input<typeof LinkTokenHandlerConfigSchema>;

/** What the browser may send: nothing, or the end user's id. Anything else is refused, not ignored. */
export const LinkTokenRequestSchema = z.strictObject({ end_user_id: EndUserIdSchema.optional() });

/** The product part of the configuration: what the token is for. */
export interface LinkTokenProduct {
  orgName: string;
  solution?: string | undefined;
  features: readonly string[];
}

/**
 * The `POST /link_tokens` body for a version: up to 2021-07-28 the features go
 * out as `required_jobs` and there is no `solution`; later versions take
 * `features` and `solution`.
 */
export function linkTokenRequestBody(
  version: ServiceVersion,
  product: LinkTokenProduct,
  endUserId?: string,
): Record<string, unknown> {
  const jobs = usesRequiredJobs(version)
    ? { required_jobs: [...product.features] }
    : { features: [...product.features], solution: product.solution };
  return {
    org_name: product.orgName,
    ...jobs,
    ...(endUserId === undefined ? {} : { end_user_id: endUserId }),
  };
}

/**
 * Creates the integrator's token endpoint: a Web-standard handler that takes
 * the browser's `POST {"end_user_id"?}`, calls the service's `POST /link_tokens`
 * with the API secret and the body for the configured version, and answers
 * `200 { data: { id, token, expires, mode } }` after checking it against the
 * wire contract. Mount it in any runtime that speaks `Request`/`Response`.
 *
 * Throws a {@link ConfigError} naming the field when the configuration is wrong.
 * The handler itself never throws; every failure is an answer in the spec's
 * error shape: 405/413/415/400 for bad browser input, 502 when the service
 * refused or answered nonsense, 503 with `Retry-After` when it stayed
 * unavailable through the retries.
 *
 * @example
 * const handleLinkToken = createLinkTokenHandler({
 *   apiSecret: process.env.PAYROLL_API_SECRET!,
 *   baseUrl: 'http://127.0.0.1:4010',
 *   version: '2025-07-08',
 *   orgName: 'Acme Payroll',
 *   solution: 'Deposit Switch',
 *   features: ['direct_deposit_switch'],
 * });
 */
export function createLinkTokenHandler(config: LinkTokenHandlerConfig): (request: Request) => Promise<Response> {
  const parsed = LinkTokenHandlerConfigSchema.safeParse(config);
  if (!parsed.success) throw ConfigError.fromZod('link-token handler config', parsed.error);
  const settings = parsed.data;
  const log = redactingLogger(settings.log ?? console, [settings.apiSecret]);
  const service = createServiceClient(settings, log);

  async function handle(request: Request): Promise<Response> {
    if (request.method !== 'POST') {
      return simpleErrorResponse(405, 'INVALID_REQUEST', 'METHOD_NOT_ALLOWED', 'Use POST.', { allow: 'POST' });
    }
    const body = await readJsonBody(request, settings.maxBodyBytes);
    if (!body.ok) return body.response;
    const input = LinkTokenRequestSchema.safeParse(body.value);
    if (!input.success) return invalidParamsResponse(input.error);

    const endUserId = await resolveEndUserId(request, input.data.end_user_id);
    if (endUserId instanceof Response) return endUserId;

    const result = await service.call({
      method: 'POST',
      path: '/link_tokens',
      body: linkTokenRequestBody(settings.version, settings, endUserId),
      schema: LinkTokenEnvelopeSchema,
    });
    if (result.kind !== 'ok') return failureResponse(result);
    // The id identifies the token in the service's events; the token itself stays out of the log.
    log.info('link token created', { linkTokenId: result.data.data.id, mode: result.data.data.mode, requestId: result.requestId });
    return jsonResponse(200, { data: result.data.data });
  }

  async function resolveEndUserId(request: Request, requested: string | undefined): Promise<string | undefined | Response> {
    if (!settings.resolveEndUserId) return requested;
    const internalError = (problem: string) => {
      log.error(`link token: resolveEndUserId ${problem}`);
      return simpleErrorResponse(500, 'INTERNAL_ERROR', 'INTERNAL_ERROR', 'The server could not create a Link token.');
    };
    let resolved: unknown;
    try {
      resolved = await settings.resolveEndUserId(request, requested);
    } catch (error) {
      return internalError(`threw: ${describeError(error)}`);
    }
    if (resolved === null || resolved === undefined) return undefined;
    const checked = EndUserIdSchema.safeParse(resolved);
    return checked.success ? checked.data : internalError('returned something other than a 1–255 character string');
  }

  return async function handleLinkTokenRequest(request: Request): Promise<Response> {
    try {
      return await handle(request);
    } catch (error) {
      // Nothing above should throw; if it does, the browser still gets an answer and the log the reason.
      log.error(`link token: unexpected failure: ${describeError(error)}`);
      return simpleErrorResponse(500, 'INTERNAL_ERROR', 'INTERNAL_ERROR', 'The server could not create a Link token.');
    }
  };
}
