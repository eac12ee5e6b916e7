/**
 * The hosted Link page's JSON API under `/link/api/*` (its calls and answers:
 * `docs/sandbox.md`, "The hosted Link page and its API"). Called by the Link
 * page from its own origin; authorised by the Link session (header
 * `x-link-session`), never by the API secret. No token ever travels in a URL.
 * Every POST must say `Content-Type: application/json`, so a cross-site form
 * cannot drive it (a form can post JSON-looking text, but not with that type).
 */
import { z } from 'zod';
import { connectAccount } from '../state/connect-account.js';
import { apiError, invalidParams, notFound } from '../http/errors.js';
import { allocationParams } from '../state/job-params.js';
import { requireAllocationSupport, requireConnected, supportsPercentage } from '../state/job-rules.js';
import { changeMonitoringStatus } from '../state/monitoring.js';
import { OAUTH_PLATFORM } from '../state/oauth-platform.js';
import { addOAuthLoginRoutes } from './oauth-login.js';
import { jsonResponse, type SandboxRequest } from '../http/http-types.js';
import {
  CreateSessionRequestSchema,
  LoginRequestSchema,
  RunJobRequestSchema,
  type LinkJob,
  type LinkPageSession,
  type LoginRequest,
  type LoginResult,
  type RunJobResult,
  type SearchResult,
} from './link-api-schemas.js';
import { CursorSchema, LimitSchema } from '../http/pagination.js';
import type { RouteHandler, Router } from '../http/router.js';
import type { SandboxDeps } from '../sandbox-deps.js';
import type { JobName } from '../state/resources.js';
import { SANDBOX_MFA_CODE, SANDBOX_PASSWORD, SANDBOX_USERS, type SandboxUser } from '../state/sandbox-users.js';
import type { JobRecord, LinkSessionRecord, Scenario } from '../state/store.js';
import { parseBody, parseParam, parseQuery, requireJsonContentType } from '../http/validate.js';

const SearchQuerySchema = z.strictObject({
  q: z.string().max(100).optional(),
  limit: LimitSchema,
  cursor: CursorSchema,
});

/** Adds the `/link/api/*` routes. */
export const addLinkApiRoutes = (router: Router<null>, deps: SandboxDeps): void => {
  const { store, cursors } = deps;

  /** A POST route that takes JSON only: checked first, so a refused form post changes nothing. */
  const post = (pattern: string, handler: RouteHandler<null>): void => {
    router.on('POST', pattern, (context) => {
      requireJsonContentType(context.request);
      return handler(context);
    });
  };

  const requireSession = (request: SandboxRequest): LinkSessionRecord => {
    const id = request.headers.get('x-link-session');
    const session = id ? store.session(id) : undefined;
    if (!session) {
      throw apiError(
        401,
        'AUTHENTICATION_ERROR',
        'INVALID_LINK_SESSION',
        id ? 'Unknown Link session; start again with a new Link token' : 'The x-link-session header is required',
      );
    }
    return session;
  };

  const sessionJob = (session: LinkSessionRecord, jobId: string): JobRecord => {
    const id = parseParam('job_id', jobId, z.uuid());
    const record = store.job(id);
    // A job of another session does not exist for this one: 404, not 403, so ids cannot be probed.
    if (!record || record.job.link_token_id !== session.linkToken.id) throw notFound('JOB_NOT_FOUND', `No job ${id} in this Link session`);
    return record;
  };

  const linkJobView = (record: JobRecord): LinkJob => ({
    job_id: record.job.id,
    status: record.job.status,
    job: record.job.name === 'shifts' ? 'shifts' : 'direct_deposit_switch',
    params: record.job.params,
    error: record.job.error,
  });

  post('/link/api/sessions', ({ request }) => {
    const { token } = parseBody(request, CreateSessionRequestSchema);
    const session = store.openSession(token);
    if (typeof session === 'string') {
      const why = { unknown: 'is unknown', used: 'was already used (Link tokens are single use)', expired: 'has expired' }[session];
      throw apiError(401, 'AUTHENTICATION_ERROR', 'INVALID_LINK_TOKEN', `This Link token ${why}; create a new one`);
    }
    const token_ = session.linkToken;
    const employer = token_.employerId === null ? undefined : store.catalogue.employerById.get(token_.employerId);
    // A reconnect names the account, and the account names its platform and employer.
    const account = token_.accountId === null ? undefined : store.account(token_.accountId)?.account;
    const data: LinkPageSession = {
      session_id: session.id,
      link_token_id: token_.id,
      org_name: token_.orgName,
      mode: 'sandbox',
      jobs: [...token_.jobs],
      end_user_id: token_.endUserId,
      employer_id: token_.employerId ?? account?.employer_id ?? null,
      // An employer is reached through one platform: naming the employer names the platform too.
      platform_id: token_.platformId ?? employer?.platform_id ?? account?.platform_id ?? null,
      account_id: token_.accountId,
      skip_intro_screen: token_.skipIntroScreen,
      language: token_.language,
      allocation: token_.allocation,
    };
    return jsonResponse(201, { data });
  });

  router.on('GET', '/link/api/search', ({ request }) => {
    requireSession(request);
    const query = parseQuery(request, SearchQuerySchema);
    const needle = (query.q ?? '').trim().toLowerCase();
    const { catalogue } = store;
    const all = [
      ...catalogue.employers.map(({ item, popularity }) => {
        const platform = catalogue.platformById.get(item.platform_id)!;
        const hit: SearchResult = {
          kind: 'employer',
          id: item.id,
          name: item.name,
          platform_id: platform.id,
          platform_type: platform.type,
        };
        return { hit, popularity };
      }),
      ...catalogue.platforms.map(({ item, popularity }) => {
        const hit: SearchResult = { kind: 'platform', id: item.id, name: item.name, platform_id: item.id, platform_type: item.type };
        return { hit, popularity };
      }),
    ];
    // Rank: a name that starts with the text (or has a word that does) before one that only contains it; then by popularity.
    const rank = (name: string): number => {
      const lower = name.toLowerCase();
      if (lower.startsWith(needle)) return 0;
      if (lower.split(/\s+/).some((word) => word.startsWith(needle))) return 1;
      return lower.includes(needle) ? 2 : -1;
    };
    const matches = all
      .map((entry) => ({ ...entry, rank: needle === '' ? 0 : rank(entry.hit.name) }))
      .filter((entry) => entry.rank >= 0)
      .sort(
        (a, b) =>
          a.rank - b.rank || a.popularity - b.popularity || a.hit.kind.localeCompare(b.hit.kind) || a.hit.name.localeCompare(b.hit.name),
      )
      .map((entry, position) => ({ hit: entry.hit, position }));
    const page = cursors.page(matches, {
      scope: `link-search:${needle}`,
      limit: query.limit,
      cursor: query.cursor,
      position: (entry) => entry.position,
      view: (entry) => entry.hit,
    });
    return jsonResponse(200, page);
  });

  post('/link/api/login', ({ request }) => {
    const session = requireSession(request);
    const input = parseBody(request, LoginRequestSchema);
    // Its users log in on its own page, in a new window (oauth-login.ts), never with a password typed in the frame.
    if (input.platform_id === OAUTH_PLATFORM.id)
      throw invalidParams('platform_id: this platform logs in on its own page (POST /link/api/oauth)');
    return jsonResponse(200, { data: logIn(session, input) });
  });

  /** A login with test credentials, in the Link frame or on the OAuth-style platform's own page. */
  const logIn = (session: LinkSessionRecord, input: LoginRequest): LoginResult => {
    if (session.accountId !== null) {
      throw apiError(409, 'CONFLICT', 'ALREADY_CONNECTED', 'This Link session already connected an account');
    }
    const platform = store.catalogue.platformById.get(input.platform_id);
    if (!platform) throw invalidParams('platform_id: no such platform');
    const employer = input.employer_id ? store.catalogue.employerById.get(input.employer_id) : undefined;
    if (input.employer_id && !employer) throw invalidParams('employer_id: no such employer');
    if (employer && employer.platform_id !== platform.id) throw invalidParams('employer_id: this employer is not on the given platform_id');

    // Own keys only: a name every object inherits (`constructor`, `toString`) is no test user.
    const scenario: Scenario | undefined = Object.hasOwn(SANDBOX_USERS, input.username)
      ? SANDBOX_USERS[input.username as SandboxUser]
      : undefined;
    if (scenario === undefined || input.password !== SANDBOX_PASSWORD) {
      throw apiError(401, 'AUTHENTICATION_ERROR', 'INVALID_CREDENTIALS', 'The username or password is incorrect; try again');
    }
    if (scenario === 'mfa') {
      if (input.mfa_code === undefined) return { status: 'mfa_required' };
      if (input.mfa_code !== SANDBOX_MFA_CODE) {
        throw apiError(401, 'AUTHENTICATION_ERROR', 'INVALID_MFA_CODE', 'The one-time code is incorrect; try again');
      }
    }
    // A time-tracking platform cannot switch deposits: its Link job is a shifts sync (spec, "Platform").
    const jobName = platform.type === 'time_and_attendance' ? 'shifts' : 'direct_deposit_switch';
    const reconnecting = session.linkToken.accountId;
    const { account, job } =
      reconnecting === null
        ? connectAccount(deps, { token: session.linkToken, platform, employer, scenario, jobName })
        : reconnectAccount(reconnecting, platform.id, scenario, session, jobName);
    session.accountId = account.account.id;
    session.jobId = job.job.id;
    return {
      status: 'connected',
      account_id: account.account.id,
      platform_id: platform.id,
      job_id: job.job.id,
      job: jobName,
      supports_percentage_allocation: supportsPercentage(store.catalogue, account.account),
    };
  };

  addOAuthLoginRoutes(router, { post, requireSession, logIn, session: (id) => store.session(id) });

  /**
   * The login of a reconnect session: the same account comes back to `active` (connected, recurring
   * access, monitoring on; the webhook of the sandbox's version goes out) and gets the token's job.
   * Credentials of another test user are another account: refused, never connected as a new one.
   */
  const reconnectAccount = (accountId: string, platformId: string, scenario: Scenario, session: LinkSessionRecord, jobName: JobName) => {
    // The token was checked against the account when it was made; accounts are never deleted.
    const account = store.account(accountId)!;
    if (platformId !== account.account.platform_id) throw invalidParams('platform_id: a reconnect logs in to the account’s own platform');
    if (scenario !== account.scenario) {
      throw apiError(
        403,
        'FORBIDDEN',
        'ACCOUNT_MISMATCH',
        'These credentials belong to another account than the one this Link session reconnects',
      );
    }
    changeMonitoringStatus(deps, account, 'active');
    const job = store.addJob({ name: jobName, accountId, linkTokenId: session.linkToken.id }, false);
    return { account, job };
  };

  post('/link/api/jobs/:job_id/run', ({ request, params }) => {
    const session = requireSession(request);
    const record = sessionJob(session, params['job_id']!);
    const input = parseBody(request, RunJobRequestSchema, { optional: true });
    if (record.started) throw apiError(409, 'CONFLICT', 'JOB_ALREADY_STARTED', 'This job has already been started');
    // The login created the account, so it exists; it may have been disconnected since (its job then failed).
    const { account } = store.account(record.job.account_id)!;
    requireConnected(account);
    if (record.job.name === 'direct_deposit_switch') {
      const allocation = input.allocation;
      if (!allocation) {
        throw apiError(400, 'INVALID_REQUEST_PARAMETERS', 'MISSING_FIELDS', 'allocation is required for a direct_deposit_switch job');
      }
      requireAllocationSupport(store.catalogue, account, allocation);
      record.job = { ...record.job, params: allocationParams(allocation) };
    }
    deps.runner.start(record);
    const data: RunJobResult = { job_id: record.job.id, status: 'pending' };
    return jsonResponse(202, { data });
  });

  router.on('GET', '/link/api/jobs/:job_id', ({ request, params }) => {
    const session = requireSession(request);
    return jsonResponse(200, { data: linkJobView(sessionJob(session, params['job_id']!)) });
  });
};
