/**
 * The Link page's own JSON API (`/link/api/*`), as zod/mini schemas: the
 * sandbox server validates requests with them and types its answers by them;
 * the Link page may import them to check what it receives (zod/mini keeps the
 * browser bundle small). One contract, written once; see
 * `docs/sandbox.md` ("The hosted Link page and its API") for the endpoints.
 */
import * as z from 'zod/mini';

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
const nullableUuid = () => z.nullable(z.uuid());

/** How much of the pay a deposit switch moves: amount in minor units (cents), percentage 1..100, or the remainder. */
export const AllocationSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('amount'), value: z.int().check(z.minimum(1), z.maximum(100_000_000)) }),
  z.strictObject({ type: z.literal('percentage'), value: z.int().check(z.minimum(1), z.maximum(100)) }),
  z.strictObject({ type: z.literal('remainder') }),
]);

/** `POST /link/api/sessions` body. */
/** As long as the frame protocol allows (`InitMessageSchema`): a longer token is an invalid token, not a bad request. */
export const CreateSessionRequestSchema = z.strictObject({ token: text(2000) });

/**
 * `POST /link/api/sessions` → 201 `{ data }`: the Link page's session with the sandbox and what the token asked for.
 * "LinkPage" in its name: the package's `LinkSession` (src/core) is the widget's session, another thing.
 */
export const LinkPageSessionSchema = z.object({
  /** Send it as the `x-link-session` header on every later call. */
  session_id: text(200),
  link_token_id: z.uuid(),
  org_name: z.string(),
  mode: z.literal('sandbox'),
  jobs: z.array(z.string()),
  end_user_id: z.nullable(z.string()),
  employer_id: nullableUuid(),
  /** The token's platform, or its employer's when the token named only an employer: the page skips the search. */
  platform_id: nullableUuid(),
  /**
   * The account the token reconnects (its `account_id`), or null for a new connection. A reconnect goes
   * straight to the login for that account's platform, and only that account's credentials are accepted.
   */
  account_id: nullableUuid(),
  skip_intro_screen: z.boolean(),
  language: z.nullable(z.string()),
  /** The token's preset allocation: the page runs the deposit switch with it instead of asking. */
  allocation: z.nullable(AllocationSchema),
});

/** One hit of `GET /link/api/search`. For a platform, `platform_id` is its own id. */
export const SearchResultSchema = z.object({
  kind: z.enum(['employer', 'platform']),
  id: z.uuid(),
  name: z.string(),
  platform_id: z.uuid(),
  platform_type: z.enum(['payroll', 'time_and_attendance']),
});

/** `POST /link/api/login` body. */
export const LoginRequestSchema = z.strictObject({
  platform_id: z.uuid(),
  employer_id: z.optional(nullableUuid()),
  username: text(200),
  password: text(200),
  mfa_code: z.optional(text(50)),
});

/** The job a Link login starts: a deposit switch, or a shifts sync on time_and_attendance platforms. */
export const LinkJobNameSchema = z.enum(['direct_deposit_switch', 'shifts']);

/** `POST /link/api/login` → 200 `{ data }`: connected, or a one-time code is needed. */
export const LoginResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('connected'),
    account_id: z.uuid(),
    platform_id: z.uuid(),
    job_id: z.uuid(),
    job: LinkJobNameSchema,
    /** Whether this employer (or platform) takes a `percentage` allocation; the page offers it only then. */
    supports_percentage_allocation: z.boolean(),
  }),
  z.object({ status: z.literal('mfa_required') }),
]);

/** `POST /link/api/jobs/{job_id}/run` body. `allocation` is required for a deposit switch, ignored for a shifts sync. */
export const RunJobRequestSchema = z.strictObject({ allocation: z.optional(AllocationSchema) });

/** `POST /link/api/jobs/{job_id}/run` → 202 `{ data }`. */
export const RunJobResultSchema = z.object({ job_id: z.uuid(), status: z.literal('pending') });

/** `GET /link/api/jobs/{job_id}` → `{ data }`. `params` is flat (e.g. allocation_type, allocation_value). */
export const LinkJobSchema = z.object({
  job_id: z.uuid(),
  status: z.enum(['pending', 'success', 'error']),
  job: LinkJobNameSchema,
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  error: z.nullable(z.object({ code: z.string(), message: z.string() })),
});

/** `POST /link/api/oauth` body: the OAuth-style platform (and employer) to log in to in a new window. */
export const OAuthStartRequestSchema = z.strictObject({ platform_id: z.uuid(), employer_id: z.optional(nullableUuid()) });

/**
 * `POST /link/api/oauth` → 201 `{ data }`: the login page to open in a new window. `state` ties that page to
 * this Link session: a random id, never the Link token nor the session id, since it travels in a URL.
 */
export const OAuthStartSchema = z.object({ state: z.uuid(), url: z.url() });

/** `GET /link/api/oauth/{state}` → `{ data }`: the login's result once the user logged in there, else `pending`. */
export const OAuthResultSchema = z.union([LoginResultSchema, z.object({ status: z.literal('pending') })]);

export type Allocation = z.infer<typeof AllocationSchema>;
export type CreateSessionRequest = z.infer<typeof CreateSessionRequestSchema>;
export type LinkPageSession = z.infer<typeof LinkPageSessionSchema>;
export type SearchResult = z.infer<typeof SearchResultSchema>;
export type LoginRequest = z.infer<typeof LoginRequestSchema>;
export type LinkJobName = z.infer<typeof LinkJobNameSchema>;
export type LoginResult = z.infer<typeof LoginResultSchema>;
export type RunJobRequest = z.infer<typeof RunJobRequestSchema>;
export type RunJobResult = z.infer<typeof RunJobResultSchema>;
export type LinkJob = z.infer<typeof LinkJobSchema>;
export type OAuthStart = z.infer<typeof OAuthStartSchema>;
export type OAuthResult = z.infer<typeof OAuthResultSchema>;
