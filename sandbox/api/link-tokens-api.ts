/**
 * `POST /link_tokens` (and `/v1/link_tokens`): creates a single-use Link token.
 *
 * The request fields depend on the Service-Version: up to 2021-07-28 the jobs
 * come in `required_jobs`; later versions take `features` and `solution`.
 * Sending the other version's fields is a 400 that says which to use.
 */
import { z } from 'zod';
import { PAYROLL_API_ENDPOINTS, type ErrorCode } from 'payroll-link/server';
import { addEndpointRoute } from '../http/endpoint-route.js';
import { apiError, fromZodError, invalidParams, invalidRequest } from '../http/errors.js';
import { jsonResponse } from '../http/http-types.js';
import { requireAllocationSupport } from '../state/job-rules.js';
import { AllocationSchema, JobNameSchema } from '../state/resources.js';
import type { RouteContext, Router } from '../http/router.js';
import type { ApiExtra, SandboxDeps } from '../sandbox-deps.js';
import { readJsonObject } from '../http/validate.js';
import { LAST_REQUIRED_JOBS_VERSION, isAtOrBefore } from '../http/versions.js';

/** Jobs a Link token can ask for (the spec observes only direct_deposit_switch). */
const LinkJobSchema = JobNameSchema.extract(['direct_deposit_switch']);

const commonFields = {
  org_name: z.string().trim().min(1).max(200),
  end_user_id: z.string().min(1).max(255).nullable().optional(),
  employer_id: z.uuid().nullable().optional(),
  platform_id: z.uuid().nullable().optional(),
  account_id: z.uuid().nullable().optional(),
  language: z
    .string()
    .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'must be a language tag such as en or es-US')
    .nullable()
    .optional(),
  skip_intro_screen: z.boolean().optional(),
  allocation: z.nullable(AllocationSchema).optional(),
};

/** The body for versions up to 2021-07-28. */
export const LegacyLinkTokenRequestSchema = z.strictObject({
  ...commonFields,
  required_jobs: z.array(LinkJobSchema).min(1).max(5),
});

/** The body for versions after 2021-07-28. */
export const LinkTokenRequestSchema = z.strictObject({
  ...commonFields,
  features: z.array(LinkJobSchema).min(1).max(5),
  solution: z.string().min(1).max(100),
});

/** Each version's body is one the row takes (`org_name` and other fields): the sandbox accepts no body the client would refuse. */
const BODIES = { legacy: LegacyLinkTokenRequestSchema, current: LinkTokenRequestSchema } satisfies Record<
  string,
  z.ZodType<z.output<typeof PAYROLL_API_ENDPOINTS.linkTokens.create.body>>
>;

const LEGACY_ONLY = ['required_jobs'] as const;
const CURRENT_ONLY = ['features', 'solution'] as const;

/** The platform a token names directly or through its employer (the two agree, checked before). */
const platformIdOf = (platform: { id: string } | undefined, employer: { platform_id: string } | undefined) =>
  platform?.id ?? employer?.platform_id;

/** Adds the Link token routes to the API router. */
export const addLinkTokenRoutes = (router: Router<ApiExtra>, deps: SandboxDeps): void => {
  // The body's fields depend on the version: read here, against the two schemas above, each a narrowing of the row's.
  addEndpointRoute(router, PAYROLL_API_ENDPOINTS.linkTokens.create, { alsoAt: ['/v1/link_tokens'], body: 'read' }, (_, context) =>
    create(context),
  );
  function create({ request, extra }: RouteContext<ApiExtra>) {
    const body = readJsonObject(request, false)!;
    const legacy = isAtOrBefore(extra.version, LAST_REQUIRED_JOBS_VERSION);
    // The other version's fields get their own message: "unknown field" would not say what to send instead.
    const wrongFields = (legacy ? CURRENT_ONLY : LEGACY_ONLY).filter((field) => field in body);
    const wrongCodes: ErrorCode[] = wrongFields.map((field) => ({
      error_code: 'INVALID_PARAMS',
      message: legacy
        ? `${field} is not accepted by Service-Version ${extra.version}; versions up to ${LAST_REQUIRED_JOBS_VERSION} take required_jobs`
        : `${field} is accepted only up to Service-Version ${LAST_REQUIRED_JOBS_VERSION}; Service-Version ${extra.version} takes features and solution`,
    }));
    const rest = Object.fromEntries(Object.entries(body).filter(([key]) => !(wrongFields as readonly string[]).includes(key)));
    const parsed = legacy ? BODIES.legacy.safeParse(rest) : BODIES.current.safeParse(rest);
    const schemaCodes = parsed.success ? [] : fromZodError(parsed.error, rest, 'request body').codes;
    const codes = [...wrongCodes, ...schemaCodes];
    if (!parsed.success || codes.length > 0) throw invalidRequest(codes, 'request body');
    const input = parsed.data;
    const jobs = 'required_jobs' in input ? input.required_jobs : input.features;
    const { catalogue } = deps.store;
    const employer = input.employer_id ? catalogue.employerById.get(input.employer_id) : undefined;
    if (input.employer_id && !employer) throw invalidParams('employer_id: no such employer');
    const platform = input.platform_id ? catalogue.platformById.get(input.platform_id) : undefined;
    if (input.platform_id && !platform) throw invalidParams('platform_id: no such platform');
    if (employer && platform && employer.platform_id !== platform.id) {
      throw invalidParams('employer_id: this employer is not on the given platform_id');
    }
    const account = input.account_id ? deps.store.account(input.account_id)?.account : undefined;
    if (input.account_id && !account) throw invalidParams('account_id: no such account');
    // An account names its platform and employer: a token that also names others contradicts itself.
    if (account && (platformIdOf(platform, employer) ?? account.platform_id) !== account.platform_id) {
      throw invalidParams('account_id: this account is on another platform than the given platform_id or employer_id');
    }
    // An account connected through its platform alone has no employer on record: naming one is no contradiction.
    if (account?.employer_id && employer && account.employer_id !== employer.id) {
      throw invalidParams('account_id: this account is with another employer than the given employer_id');
    }
    // The platform (and employer) the token pins, however it names them; null when the user will pick in Link.
    const platformId = platformIdOf(platform, employer) ?? account?.platform_id ?? null;
    const platformType = platformId === null ? undefined : catalogue.platformById.get(platformId)?.type;
    if (platformType === 'time_and_attendance' && jobs.includes('direct_deposit_switch')) {
      throw apiError(
        400,
        'INVALID_REQUEST_PARAMETERS',
        'PRODUCT_NOT_SUPPORTED',
        'direct_deposit_switch is not supported on time_and_attendance platforms',
      );
    }
    if (platformId !== null) {
      requireAllocationSupport(
        catalogue,
        { platform_id: platformId, employer_id: employer?.id ?? account?.employer_id ?? null },
        input.allocation,
      );
    }
    const record = deps.store.addLinkToken(
      {
        version: extra.version,
        orgName: input.org_name,
        jobs: [...new Set(jobs)],
        solution: 'solution' in input ? input.solution : null,
        endUserId: input.end_user_id ?? null,
        employerId: input.employer_id ?? null,
        platformId: input.platform_id ?? null,
        accountId: input.account_id ?? null,
        language: input.language ?? null,
        skipIntroScreen: input.skip_intro_screen ?? false,
        allocation: input.allocation ?? null,
      },
      deps.tokenTtlSeconds,
    );
    return jsonResponse(200, { data: { id: record.id, token: record.token, expires: record.expires, mode: 'sandbox' } });
  }
};
