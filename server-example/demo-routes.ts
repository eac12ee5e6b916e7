/**
 * The demo page's routes, which a real backend does not have: `GET /api/accounts`
 * (every account of the integration), any account's or end user's data and the
 * demo's sandbox controls (`/api/accounts/{id}/…`, `/api/end-users/{id}/…`);
 * `GET /api/webhooks` (every event received) is webhook-log.ts. They answer anyone
 * who reaches them, so the example serves them on loopback only, and there only
 * to requests addressed to loopback by name.
 */
import {
  invalidParamsResponse,
  isLoopbackHost,
  isPayrollApiError,
  jsonResponse,
  simpleErrorResponse,
  type Logger,
  type PayrollClient,
  type RateLimiter,
} from 'payroll-link/server';
import { z } from 'zod';
import { createAccountSummaryRoute, createVerificationReportsRoute, readFailure } from './read-routes.js';

/**
 * Whether a request's `Host` header names loopback. A page elsewhere in the
 * developer's browser can reach a loopback server under a name of its own
 * (DNS rebinding), but the browser then sends that name as `Host`.
 */
export function isAddressedToLoopback(request: Request): boolean {
  const host = request.headers.get('host');
  if (host === null || !URL.canParse(`http://${host}`)) return false;
  return isLoopbackHost(new URL(`http://${host}`).hostname);
}

/**
 * The filters and paging of List Accounts that the browser may pass on, and
 * nothing else: what is not checked here would reach the service with the
 * secret. Values and the 1–100 range are the sandbox's.
 */
const AccountQuerySchema = z.strictObject({
  connected: z.enum(['true', 'false']).optional(),
  monitoring_status: z.enum(['active', 'disconnected']).optional(),
  end_user_id: z.string().min(1).max(255).optional(),
  limit: z
    .string()
    .regex(/^(?:[1-9]\d?|100)$/, 'must be a whole number from 1 to 100')
    .optional(),
  cursor: z.string().min(1).max(1_000).optional(),
});

/** The query string as an object; a repeated key keeps all its values, so the schema refuses it. */
const queryObject = (params: URLSearchParams) =>
  Object.fromEntries(
    [...new Set(params.keys())].map((key) => [key, params.getAll(key).length === 1 ? params.get(key)! : params.getAll(key)]),
  );

/** `GET /api/accounts`: the first page of the service's `GET /v1/accounts`, read with the client; its refusals become a 502 without detail. */
export function createAccountsRoute(client: PayrollClient, log: Logger): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET') return simpleErrorResponse(405, 'INVALID_REQUEST', 'METHOD_NOT_ALLOWED', 'Use GET.', { allow: 'GET' });
    const query = AccountQuerySchema.safeParse(queryObject(new URL(request.url).searchParams), {
      error: (issue) => (issue.code === 'invalid_type' && Array.isArray(issue.input) ? 'must be given once' : undefined),
    });
    if (!query.success) return invalidParamsResponse(query.error, 'query string');
    const { connected, limit, ...rest } = query.data;
    const params = { ...(connected && { connected: connected === 'true' }), ...rest, ...(limit && { limit: Number(limit) }) };
    try {
      // One page, as the service's own list answers: the browser passes `cursor` on for the next.
      const { value: page } = await client.accounts.list(params).pages().next();
      return jsonResponse(200, { data: page?.data ?? [], meta: { count: page?.data.length ?? 0, next_cursor: page?.nextCursor ?? null } });
    } catch (error) {
      if (!isPayrollApiError(error)) throw error;
      log.error(`payroll service: GET /v1/accounts: ${error.message}`, {
        kind: error.kind,
        status: error.status,
        requestId: error.requestId,
      });
      return simpleErrorResponse(502, 'UPSTREAM_ERROR', 'UPSTREAM_ERROR', 'The service could not list the accounts.');
    }
  };
}

/** The demo's signed-in user: a cookie the demo page sets (no password: the demo has no real users). */
export const DEMO_USER_COOKIE = 'demo_user';

/** The demo user named by the request's cookie, or undefined. */
export function demoUser(request: Request): string | undefined {
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, value] = pair.trim().split('=');
    if (name === DEMO_USER_COOKIE && value) return decodeURIComponent(value);
  }
  return undefined;
}

/**
 * The demo's `authorizeAccount` (a DEMO RULE, not a pattern for production): the demo's user is who the
 * `demo_user` cookie says, and owns the accounts the service lists with that `end_user_id`. A real backend
 * looks the account up in its own records of who connected what, against its real session.
 */
export function createDemoAccountAuthorizer(client: PayrollClient): (request: Request, accountId: string) => Promise<boolean> {
  return async (request, accountId) => {
    const user = demoUser(request);
    if (!user || !z.uuid().safeParse(accountId).success) return false;
    const account = await client.accounts.get(accountId).catch(() => null);
    return account?.['end_user_id'] === user;
  };
}

/** Where the sandbox is, for the calls the client has no method for (the sandbox-only triggers), and the client's limiter. */
export interface SandboxAccess {
  baseUrl: string;
  apiSecret: string;
  version: string;
  limiter: RateLimiter | null;
  fetch: typeof fetch;
}

/**
 * A sandbox trigger (`POST /sandbox/…`), which exists in the sandbox only and so not in the client,
 * in its turn in the client's limiter (the sandbox counts it against the same limit): the answer as the
 * sandbox gave it, or a 502. Redirects are refused: they would carry the secret elsewhere.
 */
async function sandboxTrigger(sandbox: SandboxAccess, path: string, body: Record<string, string> = {}): Promise<Response> {
  try {
    await sandbox.limiter?.acquire();
    const upstream = await sandbox.fetch(`${sandbox.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'x-api-secret': sandbox.apiSecret, 'service-version': sandbox.version, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    return jsonResponse(upstream.status, await upstream.json().catch(() => null));
  } catch {
    return simpleErrorResponse(502, 'UPSTREAM_ERROR', 'UPSTREAM_ERROR', 'The sandbox could not be reached.');
  }
}

/** Why a demo control's POST is refused (a wrong method, not JSON), or undefined when it may go on. */
export function refuseControl(request: Request): Response | undefined {
  if (request.method !== 'POST') return simpleErrorResponse(405, 'INVALID_REQUEST', 'METHOD_NOT_ALLOWED', 'Use POST.', { allow: 'POST' });
  if (!(request.headers.get('content-type') ?? '').startsWith('application/json')) {
    return simpleErrorResponse(415, 'INVALID_REQUEST', 'UNSUPPORTED_MEDIA_TYPE', 'Send Content-Type: application/json.');
  }
  return undefined;
}

/** The id and the action of `/api/{collection}/{id}/{action}`; empty strings when the path is not one. */
function idAndAction(request: Request, collection: string): [id: string, action: string] {
  const match = new RegExp(`^/api/${collection}/([^/]+)/([a-z_-]+)$`).exec(new URL(request.url).pathname);
  return [match?.[1] ?? '', match?.[2] ?? ''];
}

const NO_SUCH_ROUTE = () => simpleErrorResponse(404, 'INVALID_REQUEST', 'NOT_FOUND', 'No such route.');

/**
 * The routes under `/api/accounts/{id}/`: `GET …/summary` (read-routes.ts), and the demo's "Disconnect"
 * and "Simulate password change" controls, `POST …/disconnect` (the client's `accounts.disconnect`) and
 * `POST …/require_reauth` (the sandbox's trigger); the service's refusals (their error codes) come back
 * as they are. The POSTs take JSON only, so a cross-site form cannot press them.
 */
export function createAccountRoutes(client: PayrollClient, sandbox: SandboxAccess, log: Logger): (request: Request) => Promise<Response> {
  const summary = createAccountSummaryRoute(client, log);
  return async (request) => {
    const [rawId, action] = idAndAction(request, 'accounts');
    if (action === 'summary') return summary(request, rawId);
    if (action !== 'disconnect' && action !== 'require_reauth') return NO_SUCH_ROUTE();
    const refused = refuseControl(request);
    if (refused) return refused;
    const id = z.uuid().safeParse(rawId);
    if (!id.success) return simpleErrorResponse(400, 'INVALID_REQUEST', 'INVALID_PARAMS', 'The account id must be a UUID.');
    if (action === 'require_reauth') return sandboxTrigger(sandbox, `/sandbox/accounts/${id.data}/require_reauth`);
    try {
      return jsonResponse(200, { data: await client.accounts.disconnect(id.data) });
    } catch (error) {
      return readFailure(error, `account ${id.data}`, log);
    }
  };
}

/**
 * The routes under `/api/end-users/{id}/`: `GET …/verification-reports` (read-routes.ts), and the demo's
 * "Refresh reports" control, `POST …/refresh_reports`: the sandbox's trigger of `verification_reports.refreshed`
 * for that end user (what `payroll-link-sandbox trigger verification_reports.refreshed --end-user <id>` does).
 */
export function createEndUserRoutes(client: PayrollClient, sandbox: SandboxAccess, log: Logger): (request: Request) => Promise<Response> {
  const reports = createVerificationReportsRoute(client, log);
  return async (request) => {
    const [rawId, action] = idAndAction(request, 'end-users');
    if (action !== 'verification-reports' && action !== 'refresh_reports') return NO_SUCH_ROUTE();
    const refused = action === 'refresh_reports' ? refuseControl(request) : undefined;
    if (refused) return refused;
    const endUserId = decodedSegment(rawId);
    if (endUserId === undefined)
      return simpleErrorResponse(400, 'INVALID_REQUEST_PARAMETERS', 'INVALID_PARAMS', 'The end user id is not valid percent-encoding.');
    if (action === 'verification-reports') return reports(request, endUserId);
    return sandboxTrigger(sandbox, '/sandbox/events', { event: 'verification_reports.refreshed', end_user_id: endUserId });
  };
}

/** A path segment decoded, or undefined when it is not valid percent-encoding. */
function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
