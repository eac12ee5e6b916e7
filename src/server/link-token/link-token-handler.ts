import * as z from 'zod';
import { invalidParamsAnswer, jsonResponse } from '../error-response.js';
import { functionSchema } from '../handler/function-schema.js';
import { HttpError } from '../handler/http-error.js';
import { parseOptions, postHandler } from '../handler/post-handler.js';
import type { JsonBody } from '../json-request.js';
import { redactingLogger } from '../logger.js';
import { plainJsonCopy } from '../handler/plain-json.js';
import { describeError } from '../describe-error.js';
import { handlerCallPolicy, ServiceConnectionSchema } from '../client/service-connection.js';
import { createPayrollClientWith, type PayrollClient } from '../client/payroll-client.js';
import { ClientOptionsSchema } from '../client/client-options.js';
import { isPayrollApiError } from '../client/payroll-api-error.js';
import { attemptAbortedInTurn } from '../client/aborted-in-turn.js';
import { LINK_TOKEN_ANSWERS, unavailableAnswer, upstreamFailure } from './link-token-answers.js';
import { usesRequiredJobs, type ServiceVersion } from '../client/service-version.js';
import { withinTime } from '../handler/time-bound.js';
import { timeLimit } from '../../shared/time-limit.js';

/**
 * Decides whose token this is, from the integrator's own session (a cookie, a
 * header), not from what the browser claims. Gets the browser's `end_user_id`
 * (if any) as a hint. Returns the id, or null/undefined for none.
 */
export type EndUserResolver = (
  request: Request,
  requestedEndUserId: string | undefined,
) => string | null | undefined | Promise<string | null | undefined>;

/**
 * Decides whether the user behind `request` may reconnect the account
 * `accountId` (the browser asked for a token for that account). Look it up in
 * your own data: a user must never get a token for someone else's account.
 */
export type AccountAuthorizer = (request: Request, accountId: string) => boolean | Promise<boolean>;

/**
 * Further `POST /link_tokens` fields from your own data (an employer or
 * platform to preselect, the user's language...). The fields the handler sets
 * itself (`org_name`, `features`, `solution`, `required_jobs`, `end_user_id`,
 * `account_id`) cannot be overridden. Plain JSON data only (strings, finite
 * numbers, booleans, null, arrays, plain objects): an object with a `toJSON`,
 * a getter, a class instance or a Date is refused with a 500, because what it
 * would serialise to is not what the handler checked.
 */
export type LinkTokenFieldsProvider = (request: Request) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** The fields the handler sets itself, which {@link LinkTokenFieldsProvider} may not touch. */
const RESERVED_FIELDS = new Set(['org_name', 'features', 'solution', 'required_jobs', 'end_user_id', 'account_id']);

/** An end user's id, as the integrator chose it (`end_user_id`). */
export const EndUserIdSchema = z.string().min(1).max(255);

/** Configuration of {@link createLinkTokenHandler}; parsed with zod when the handler is created. */
export const LinkTokenHandlerConfigSchema = ServiceConnectionSchema.partial({ apiSecret: true, baseUrl: true })
  .extend({
    /**
     * The app's own client ({@link createPayrollClient}), so that the handler and
     * the app's reads share one rate limiter. Without it the handler makes its
     * own from `apiSecret`, `baseUrl`, `fetch`, `mode` and `rateLimit`, which are
     * then not to be given. `version` must be the client's.
     */
    client: z
      .custom<PayrollClient>((value) => typeof value === 'object' && value !== null && 'linkTokens' in value, {
        message: 'must be a client made by createPayrollClient',
      })
      .optional(),
    /** The mode of `apiSecret`, for the rate limit of the handler's own client (see `createPayrollClient`). */
    mode: ClientOptionsSchema.shape.mode,
    /** Pacing of the handler's own client (see `createPayrollClient`); by default the mode's limit. */
    rateLimit: ClientOptionsSchema.shape.rateLimit,
    /** Your organisation's name, shown to the end user in Link (`org_name`). */
    orgName: z.string().min(1, 'is required').max(255),
    /** The product the token is for (`solution`); required from version 2022-03-02 on, unused before. */
    solution: z.string().min(1).max(255).optional(),
    /** What Link should do, e.g. `["direct_deposit_switch"]`: sent as `features`, or as `required_jobs` up to 2021-07-28. */
    features: z.array(z.string().min(1).max(100)).min(1, 'needs at least one feature, e.g. direct_deposit_switch'),
    /** See {@link EndUserResolver}. Without it, the browser's `end_user_id` is passed on as given. */
    resolveEndUserId: functionSchema<EndUserResolver>().optional(),
    /**
     * See {@link AccountAuthorizer}. Without it, a browser request naming an
     * `account_id` is refused (400); with it, the id goes to the service only
     * when the hook says yes (else 403).
     */
    authorizeAccount: functionSchema<AccountAuthorizer>().optional(),
    /** See {@link LinkTokenFieldsProvider}. */
    linkTokenFields: functionSchema<LinkTokenFieldsProvider>().optional(),
    /** Cap on the browser's request body, in bytes. */
    maxBodyBytes: z.int().min(64).max(1_048_576).default(4_096),
    /**
     * Time bound of each hook (`resolveEndUserId`, `authorizeAccount`,
     * `linkTokenFields`), in milliseconds. A hook that has not settled by then
     * gets the browser a 503 with `Retry-After: 1`, logged once; the service is
     * not called.
     */
    hookTimeoutMs: z.int().min(1).max(60_000).default(5_000),
  })
  .superRefine((config, context) => {
    const own = {
      apiSecret: config.apiSecret,
      baseUrl: config.baseUrl,
      fetch: config.fetch,
      mode: config.mode,
      rateLimit: config.rateLimit,
    };
    if (config.client) {
      for (const [field, value] of Object.entries(own)) {
        if (value !== undefined)
          context.addIssue({ code: 'custom', path: [field], message: "is the client's: leave it out when client is given" });
      }
      if (config.client.version !== config.version) {
        context.addIssue({ code: 'custom', path: ['version'], message: `must be the client's version (${config.client.version})` });
      }
    } else {
      if (config.apiSecret === undefined)
        context.addIssue({ code: 'custom', path: ['apiSecret'], message: 'is required: the API secret of the mode that baseUrl serves' });
      if (config.baseUrl === undefined)
        context.addIssue({ code: 'custom', path: ['baseUrl'], message: "is required: the service's base URL, e.g. http://127.0.0.1:4010" });
    }
    if (!usesRequiredJobs(config.version) && config.solution === undefined) {
      context.addIssue({ code: 'custom', path: ['solution'], message: `is required for version ${config.version}` });
    }
  });

/** What {@link createLinkTokenHandler} accepts; fields with defaults may be left out. */
export type LinkTokenHandlerConfig = z.input<typeof LinkTokenHandlerConfigSchema>;

/**
 * What the browser may send: nothing, the end user's id, and the id of an
 * account to reconnect. Anything else is refused, not ignored.
 */
export const LinkTokenRequestSchema = z.strictObject({ end_user_id: EndUserIdSchema.optional(), account_id: z.uuid().optional() });

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
  accountId?: string,
  extraFields: Record<string, unknown> = {},
): Record<string, unknown> {
  const jobs = usesRequiredJobs(version)
    ? { required_jobs: [...product.features] }
    : { features: [...product.features], solution: product.solution };
  return {
    ...extraFields,
    org_name: product.orgName,
    ...jobs,
    ...(endUserId === undefined ? {} : { end_user_id: endUserId }),
    ...(accountId === undefined ? {} : { account_id: accountId }),
  };
}

/**
 * Creates the integrator's token endpoint: a Web-standard handler that takes
 * the browser's `POST {"end_user_id"?, "account_id"?}`, calls the service's `POST /link_tokens`
 * with the API secret and the body for the configured version, and answers
 * `200 { data: { id, token, expires, mode } }` after checking it against the
 * wire contract. Mount it in any runtime that speaks `Request`/`Response`.
 *
 * Throws a `ConfigError` naming the field when the configuration is wrong.
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
  const settings = parseOptions(LinkTokenHandlerConfigSchema, config, 'link-token handler config');
  const log = redactingLogger(settings.log ?? console, settings.apiSecret === undefined ? [] : [settings.apiSecret]);
  const policy = handlerCallPolicy(settings);
  const client =
    settings.client ??
    createPayrollClientWith(
      {
        apiSecret: settings.apiSecret!,
        baseUrl: settings.baseUrl!,
        version: settings.version,
        fetch: settings.fetch,
        log,
        mode: settings.mode,
        rateLimit: settings.rateLimit,
      },
      policy.retry,
    );
  const callBounds = policy.call;

  async function handle(request: Request, body: JsonBody): Promise<Response> {
    const input = LinkTokenRequestSchema.safeParse(body.value);
    if (!input.success) throw new HttpError(invalidParamsAnswer(input.error));

    const endUserId = await resolveEndUserId(request, input.data.end_user_id);
    await authorizeAccount(request, input.data.account_id);
    const extraFields = await linkTokenFields(request);

    const serviceBody = linkTokenRequestBody(settings.version, settings, endUserId, input.data.account_id, extraFields);
    // The overall budget: every attempt, retry and wait for the rate limiter within it.
    const [overall, , disposeOverall] = timeLimit(
      settings.timeouts.totalMs,
      undefined,
      () => new DOMException('totalMs passed', 'TimeoutError'),
    );
    try {
      const token = await client.linkTokens.create(serviceBody as { org_name: string }, { ...callBounds, signal: overall });
      // The id identifies the token in the service's events; the token itself stays out of the log.
      log.info('link token created', { linkTokenId: token.id, mode: token.mode, requestId: token.response.requestId });
      return jsonResponse(200, { data: { id: token.id, token: token.token, expires: token.expires, mode: token.mode } });
    } catch (error) {
      if (isPayrollApiError(error)) throw upstreamFailure(error, settings.baseUrl);
      if (!overall.aborted) throw error;
      const waited = attemptAbortedInTurn(overall);
      if (waited !== null) {
        // The service was not slow: the calls sharing this rate limit were many.
        const bound = `${settings.timeouts.totalMs} ms (timeouts.totalMs)`;
        throw new HttpError(LINK_TOKEN_ANSWERS.rateLimitWait, {
          level: 'error',
          message:
            waited === 1
              ? `payroll service POST /link_tokens: not sent within ${bound}: still waiting for its turn under the rate limit`
              : `payroll service POST /link_tokens: no token within ${bound}: try ${waited} still waited for its turn under the rate limit`,
        });
      }
      throw new HttpError(unavailableAnswer(1), {
        level: 'error',
        message: `payroll service POST /link_tokens: no answer within ${settings.timeouts.totalMs} ms (timeouts.totalMs)`,
      });
    } finally {
      disposeOverall();
    }
  }

  /** A hook of the integrator's that failed: the browser gets a generic 500, the log the reason. */
  function hookFailed(hook: string, problem: string): HttpError {
    return new HttpError(LINK_TOKEN_ANSWERS.internal, { level: 'error', message: `link token: ${hook} ${problem}` });
  }

  /** Runs one of the integrator's hooks: what it returned; it throws the 500 for a hook that threw, the 503 for one that took too long. */
  async function runHook(hook: string, call: () => unknown): Promise<unknown> {
    let result;
    try {
      result = await withinTime(call, settings.hookTimeoutMs);
    } catch (error) {
      throw hookFailed(hook, `threw: ${describeError(error)}`);
    }
    if (result.settled) return result.value;
    throw new HttpError(LINK_TOKEN_ANSWERS.hookTimeout, {
      level: 'error',
      message: `link token: ${hook} did not settle within ${settings.hookTimeoutMs} ms (hookTimeoutMs); answering 503`,
    });
  }

  async function resolveEndUserId(request: Request, requested: string | undefined): Promise<string | undefined> {
    const hook = settings.resolveEndUserId;
    if (!hook) return requested;
    const resolved = await runHook('resolveEndUserId', () => hook(request, requested));
    if (resolved === null || resolved === undefined) return undefined;
    const checked = EndUserIdSchema.safeParse(resolved);
    if (!checked.success) throw hookFailed('resolveEndUserId', 'returned something other than a 1–255 character string');
    return checked.data;
  }

  /** Returns when the request may go on: no account asked for, or the integrator's hook allowed it. */
  async function authorizeAccount(request: Request, accountId: string | undefined): Promise<void> {
    if (accountId === undefined) return;
    const hook = settings.authorizeAccount;
    if (!hook) throw new HttpError(LINK_TOKEN_ANSWERS.accountIdNotAccepted);
    if ((await runHook('authorizeAccount', () => hook(request, accountId))) === true) return;
    throw new HttpError(LINK_TOKEN_ANSWERS.accountNotAuthorized, {
      level: 'warn',
      message: 'link token: authorizeAccount refused an account',
      fields: { accountId },
    });
  }

  async function linkTokenFields(request: Request): Promise<Record<string, unknown>> {
    const hook = settings.linkTokenFields;
    if (!hook) return {};
    const value = await runHook('linkTokenFields', () => hook(request));
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw hookFailed('linkTokenFields', 'returned something other than an object');
    // A copy of plain data: what goes upstream is exactly what the reserved-field check below saw.
    const copy = plainJsonCopy(value);
    if (!copy.ok) throw hookFailed('linkTokenFields', `returned something other than plain JSON data: ${copy.problem}`);
    const fields = copy.value as Record<string, unknown>;
    const reserved = Object.keys(fields).filter((key) => RESERVED_FIELDS.has(key));
    if (reserved.length > 0) throw hookFailed('linkTokenFields', `returned fields the handler sets itself: ${reserved.join(', ')}`);
    return fields;
  }

  const { maxBodyBytes } = settings;
  return postHandler({
    subject: 'link token',
    log,
    postOnly: 'Use POST.',
    maxBodyBytes,
    internalError: LINK_TOKEN_ANSWERS.internal,
    handle,
  });
}
