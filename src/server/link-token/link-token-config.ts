/** What the token handler and the launches' token route share: the options, the hooks' types, the `POST /link_tokens` body. */
import * as z from 'zod';
import { functionSchema } from '../handler/function-schema.js';
import { BodyTimeoutMsSchema } from '../json-request.js';
import { ServiceConnectionSchema } from '../client/service-connection.js';
import type { PayrollClient } from '../client/payroll-client.js';
import { ClientOptionsSchema } from '../client/client-options.js';
import { SERVICE_VERSIONS, usesRequiredJobs, type ServiceVersion } from '../client/service-version.js';

/**
 * Decides whose token this is, from the integrator's own session (a cookie, a header), not from what the browser
 * claims. Gets the browser's `end_user_id` (if any) as a hint. Returns the id, or null/undefined for none.
 */
export type EndUserResolver = (
  request: Request,
  requestedEndUserId: string | undefined,
) => string | null | undefined | Promise<string | null | undefined>;

/**
 * Decides whether the user behind `request` may reconnect the account `accountId` (the browser asked for a token for
 * that account). Look it up in your own data: a user must never get a token for someone else's account.
 */
export type AccountAuthorizer = (request: Request, accountId: string) => boolean | Promise<boolean>;

/**
 * Further `POST /link_tokens` fields from your own data (an employer or platform to preselect, the user's language...).
 * The fields the handler sets itself (`org_name`, `features`, `solution`, `required_jobs`, `end_user_id`, `account_id`)
 * cannot be overridden. Plain JSON data only (strings, finite numbers, booleans, null, arrays, plain objects): an
 * object with a `toJSON`, a getter, a class instance or a Date is refused with a 500, because what it would serialise
 * to is not what the handler checked.
 */
export type LinkTokenFieldsProvider = (request: Request) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** The fields the handler sets itself, which {@link LinkTokenFieldsProvider} may not touch. */
export const RESERVED_FIELDS = new Set(['org_name', 'features', 'solution', 'required_jobs', 'end_user_id', 'account_id']);

/** An end user's id, as the integrator chose it (`end_user_id`). */
export const EndUserIdSchema = z.string().min(1).max(255);

/** Configuration of {@link createLinkTokenHandler}; parsed with zod when the handler is created. */
export const LinkTokenHandlerConfigSchema = ServiceConnectionSchema.partial({ apiSecret: true, baseUrl: true, version: true })
  .extend({
    /**
     * The app's own client ({@link createPayrollClient}), so that the handler and the app's reads share one rate
     * limiter. Without it the handler makes its own from `apiSecret`, `baseUrl`, `version`, `fetch`, `mode` and
     * `rateLimit`. With it those are the client's: leave them out (a `version` may be given only if it is the
     * client's). The handler scrubs the client's secret from its log lines: give the client itself (or a shallow copy);
     * a look-alike of your own has a secret the handler does not know.
     */
    client: z
      .custom<PayrollClient>((value) => typeof value === 'object' && value !== null && 'linkTokens' in value, {
        message: 'must be a client made by createPayrollClient',
      })
      .optional(),
    /** {@link ClientOptions}' `mode`, for the handler's own client. */
    mode: ClientOptionsSchema.shape.mode,
    /** {@link ClientOptions}' `rateLimit`, for the handler's own client. */
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
     * See {@link AccountAuthorizer}. Without it, a browser request naming an `account_id` is refused (400); with it,
     * the id goes to the service only when the hook says yes (else 403).
     */
    authorizeAccount: functionSchema<AccountAuthorizer>().optional(),
    /** See {@link LinkTokenFieldsProvider}. */
    linkTokenFields: functionSchema<LinkTokenFieldsProvider>().optional(),
    /** Cap on the browser's request body, in bytes. */
    maxBodyBytes: z.int().min(64).max(1_048_576).default(4_096),
    /** {@link BodyTimeoutMsSchema}, for the browser's request body. */
    bodyTimeoutMs: BodyTimeoutMsSchema,
    /**
     * Time bound of each hook (`resolveEndUserId`, `authorizeAccount`, `linkTokenFields`), in milliseconds. A hook that
     * has not settled by then gets the browser a 503 with `Retry-After: 1`, logged once; the service is not called.
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
      if (config.version !== undefined && config.version !== config.client.version) {
        context.addIssue({
          code: 'custom',
          path: ['version'],
          message: `must be the client's version (${config.client.version}), or left out: the handler takes the client's`,
        });
      }
    } else {
      if (config.apiSecret === undefined)
        context.addIssue({ code: 'custom', path: ['apiSecret'], message: 'is required: the API secret of the mode that baseUrl serves' });
      if (config.baseUrl === undefined)
        context.addIssue({ code: 'custom', path: ['baseUrl'], message: "is required: the service's base URL, e.g. http://127.0.0.1:4010" });
      if (config.version === undefined)
        context.addIssue({
          code: 'custom',
          path: ['version'],
          message: `is required: the Service-Version to send, one of ${SERVICE_VERSIONS.join(', ')} (or give client)`,
        });
    }
    const version = serviceVersionOf(config);
    if (version !== undefined && !usesRequiredJobs(version) && config.solution === undefined) {
      context.addIssue({ code: 'custom', path: ['solution'], message: `is required for version ${version}` });
    }
  });

/** The version the handler sends: its client's, or its own `version` (the schema requires one of them). */
export function serviceVersionOf(config: {
  client?: PayrollClient | undefined;
  version?: ServiceVersion | undefined;
}): ServiceVersion | undefined {
  return config.client?.version ?? config.version;
}

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
 * The `POST /link_tokens` body for a version: up to 2021-07-28 the features go out as `required_jobs` and there is no
 * `solution`; later versions take `features` and `solution`.
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
