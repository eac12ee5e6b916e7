/**
 * The Link page's client for its own JSON API under `/link/api`. The calls are
 * authorised by the Link session (header `x-link-session`), never by the API
 * secret, and the Link token travels once, in the body of `POST /sessions`.
 *
 * Every answer is checked with a zod/mini schema before the page trusts it;
 * every failure becomes a {@link LinkApiError} with a stable code.
 */
import * as z from 'zod/mini';
import { LinkModeSchema } from '../../src/protocol.js';

/** Where the API lives, relative to the page's own origin. */
const DEFAULT_BASE = '/link/api';
/** A call that takes longer than this is treated as a network failure, so the page never hangs. */
const REQUEST_TIMEOUT_MS = 15_000;

/** An answer of `POST /link/api/sessions`: what the page knows about its Link session. */
export const LinkSessionSchema = z.object({
  session_id: z.string().check(z.minLength(1), z.maxLength(200)),
  link_token_id: z.uuid(),
  org_name: z.string(),
  mode: LinkModeSchema,
  jobs: z.array(z.string()),
  end_user_id: z.nullable(z.string()),
  employer_id: z.nullable(z.uuid()),
  platform_id: z.nullable(z.uuid()),
  skip_intro_screen: z.boolean(),
  language: z.nullable(z.string()),
});

/** One hit of the employer and platform search. */
export const SearchItemSchema = z.object({
  kind: z.enum(['employer', 'platform']),
  id: z.uuid(),
  name: z.string(),
  platform_id: z.uuid(),
  platform_type: z.enum(['payroll', 'time_and_attendance']),
});

/** One page of search hits, in the spec's collection envelope. */
export const SearchPageSchema = z.object({
  data: z.array(SearchItemSchema),
  meta: z.object({ count: z.number(), next_cursor: z.nullable(z.string()) }),
});

/** The answer of `POST /link/api/login`: connected, or a one-time code is needed first. */
export const LoginResultSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('connected'),
    account_id: z.uuid(),
    platform_id: z.uuid(),
    job_id: z.uuid(),
    job: z.string().check(z.minLength(1)),
  }),
  z.object({ status: z.literal('mfa_required') }),
]);

/** How much of each paycheck goes to the new account. `amount` is in minor units. */
export const AllocationSchema = z.object({
  type: z.enum(['amount', 'percentage', 'remainder']),
  value: z.optional(z.number().check(z.int(), z.positive())),
});

/** A job as the Link page sees it while it waits for the outcome. */
export const LinkJobSchema = z.object({
  job_id: z.uuid(),
  status: z.enum(['pending', 'success', 'error']),
  job: z.string(),
  params: z.record(z.string(), z.unknown()),
  error: z.nullable(z.object({ code: z.string(), message: z.string() })),
});

/** The spec's error body. */
const ErrorBodySchema = z.object({
  error: z.object({
    status_code: z.number(),
    message: z.string(),
    type: z.string(),
    error_codes: z.array(z.object({ error_code: z.string(), message: z.string() })),
  }),
});

const envelope = <S extends z.ZodMiniType>(data: S) => z.object({ data });

export type LinkSession = z.infer<typeof LinkSessionSchema>;
export type SearchItem = z.infer<typeof SearchItemSchema>;
export type SearchPage = z.infer<typeof SearchPageSchema>;
export type LoginResult = z.infer<typeof LoginResultSchema>;
export type Allocation = z.infer<typeof AllocationSchema>;
export type LinkJob = z.infer<typeof LinkJobSchema>;

/** What the user typed on the login (and one-time code) screens. */
export interface LoginRequest {
  platform_id: string;
  employer_id: string | null;
  username: string;
  password: string;
  mfa_code?: string;
}

/**
 * A failed API call, as data. `code` is the server's first `error_code`
 * (e.g. `INVALID_CREDENTIALS`), or `NETWORK_ERROR` when the server could not be
 * reached, or `BAD_RESPONSE` when it answered in a shape the page does not know.
 */
export class LinkApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'LinkApiError';
  }
}

/**
 * One Link session's view of `/link/api`. Get one with {@link LinkApi.start},
 * which spends the Link token.
 *
 * @example
 * ```ts
 * const { api, session } = await LinkApi.start(token);
 * const page = await api.search('acme');
 * ```
 */
export class LinkApi {
  readonly #base: string;
  readonly #sessionId: string;

  private constructor(base: string, sessionId: string) {
    this.#base = base;
    this.#sessionId = sessionId;
  }

  /** Trades the Link token (single use) for a session. An unknown, used or expired token fails with `INVALID_LINK_TOKEN`. */
  static async start(token: string, base = DEFAULT_BASE): Promise<{ api: LinkApi; session: LinkSession }> {
    const { data: session } = await call(base, null, '/sessions', envelope(LinkSessionSchema), {
      method: 'POST',
      body: JSON.stringify({ token }),
    });
    return { api: new LinkApi(base, session.session_id), session };
  }

  /** Employers and platforms whose name matches `query`; pass the previous page's `next_cursor` for more. */
  search(query: string, cursor: string | null, limit: number): Promise<SearchPage> {
    const params = new URLSearchParams({ q: query, limit: String(limit) });
    if (cursor !== null) params.set('cursor', cursor);
    return this.#call(`/search?${params}`, SearchPageSchema, { method: 'GET' });
  }

  /** Logs in to the platform with the user's (test) credentials. */
  async login(request: LoginRequest): Promise<LoginResult> {
    const { data } = await this.#call('/login', envelope(LoginResultSchema), { method: 'POST', body: JSON.stringify(request) });
    return data;
  }

  /** Starts the job created at login; a deposit switch carries the user's allocation. */
  async runJob(jobId: string, allocation: Allocation | null): Promise<void> {
    const body = allocation === null ? {} : { allocation };
    await this.#call(`/jobs/${encodeURIComponent(jobId)}/run`, z.object({ data: z.object({ job_id: z.string() }) }), {
      method: 'POST',
      body: JSON.stringify(body),
    });
  }

  /** The job's current status. */
  async getJob(jobId: string): Promise<LinkJob> {
    const { data } = await this.#call(`/jobs/${encodeURIComponent(jobId)}`, envelope(LinkJobSchema), { method: 'GET' });
    return data;
  }

  #call<S extends z.ZodMiniType>(path: string, schema: S, init: RequestInit): Promise<z.infer<S>> {
    return call(this.#base, this.#sessionId, path, schema, init);
  }
}

async function call<S extends z.ZodMiniType>(
  base: string,
  sessionId: string | null,
  path: string,
  schema: S,
  init: RequestInit,
): Promise<z.infer<S>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (sessionId !== null) headers['x-link-session'] = sessionId;
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      ...init,
      headers,
      cache: 'no-store',
      credentials: 'same-origin',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch {
    throw new LinkApiError(0, 'NETWORK_ERROR', 'The sandbox could not be reached.');
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = z.safeParse(ErrorBodySchema, body);
    if (!parsed.success) throw new LinkApiError(response.status, 'HTTP_ERROR', `The sandbox answered HTTP ${response.status}.`);
    const { error } = parsed.data;
    throw new LinkApiError(response.status, error.error_codes[0]?.error_code ?? error.type, error.message);
  }
  const parsed = z.safeParse(schema, body);
  if (!parsed.success) throw new LinkApiError(response.status, 'BAD_RESPONSE', 'The sandbox answered in an unexpected shape.');
  return parsed.data;
}
