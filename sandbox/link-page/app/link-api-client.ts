/**
 * The Link page's client for its own JSON API under `/link/api`. The calls are
 * authorised by the Link session (header `x-link-session`), never by the API
 * secret, and the Link token travels once, in the body of `POST /sessions`.
 *
 * Every answer is checked before the page trusts it, with the zod/mini schemas
 * the server validates by (`sandbox/api/link-api-schemas.ts`: one contract); every
 * failure becomes a {@link LinkApiError} with a stable code.
 */
import * as z from 'zod/mini';
import {
  LinkJobSchema,
  LinkPageSessionSchema,
  LoginResultSchema,
  OAuthResultSchema,
  OAuthStartSchema,
  RunJobResultSchema,
  SearchResultSchema,
  type Allocation,
  type LinkJob,
  type LinkPageSession,
  type LoginRequest,
  type LoginResult,
  type OAuthResult,
  type OAuthStart,
} from '../../api/link-api-schemas.js';

/** Where the API lives, relative to the page's own origin. */
const DEFAULT_BASE = '/link/api';
/** A call that takes longer than this is treated as a network failure, so the page never hangs. */
const REQUEST_TIMEOUT_MS = 15_000;

/** One page of search hits, in the spec's collection envelope. */
const SearchPageSchema = z.object({
  data: z.array(SearchResultSchema),
  meta: z.object({ count: z.number(), next_cursor: z.nullable(z.string()) }),
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

/** One page of search hits. */
export type SearchPage = z.infer<typeof SearchPageSchema>;

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
  static async start(token: string, base = DEFAULT_BASE): Promise<{ api: LinkApi; session: LinkPageSession }> {
    const { data: session } = await call(base, null, '/sessions', envelope(LinkPageSessionSchema), {
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

  /** The OAuth-style platform's login page, to open in a new window (see sandbox/api/oauth-login.ts). */
  async startOAuth(platformId: string, employerId: string | null): Promise<OAuthStart> {
    const body = { platform_id: platformId, employer_id: employerId };
    const { data } = await this.#call('/oauth', envelope(OAuthStartSchema), { method: 'POST', body: JSON.stringify(body) });
    return data;
  }

  /** That login's result: a long poll, answered when the user logged in there, or `pending` after a while. */
  async oauthResult(state: string): Promise<OAuthResult> {
    const { data } = await this.#call(`/oauth/${encodeURIComponent(state)}`, envelope(OAuthResultSchema), { method: 'GET' });
    return data;
  }

  /** Starts the job created at login; a deposit switch carries the user's allocation. */
  async runJob(jobId: string, allocation: Allocation | null): Promise<void> {
    const body = allocation === null ? {} : { allocation };
    await this.#call(`/jobs/${encodeURIComponent(jobId)}/run`, envelope(RunJobResultSchema), {
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
  // Every body is JSON, and the API refuses a POST not labelled so (415): the label is what a cross-site form cannot send.
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
