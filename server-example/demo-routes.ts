/**
 * The demo page's routes, which a real backend does not have: `GET /api/accounts`
 * (every account of the integration) and `GET /api/webhooks` (every event
 * received). They answer anyone who reaches them, so the example serves them on
 * loopback only, and there only to requests addressed to loopback by name.
 */
import { invalidParamsResponse, isLoopbackHost, simpleErrorResponse } from 'payroll-link/server';
import { z } from 'zod';

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

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * The filters and paging of List Accounts that the browser may pass on, and
 * nothing else: what is not checked here would reach the service with the
 * secret. Values and the 1–100 range are the sandbox's.
 */
const AccountQuerySchema = z.strictObject({
  connected: z.enum(['true', 'false']).optional(),
  monitoring_status: z.enum(['active', 'disconnected']).optional(),
  end_user_id: z.string().min(1).max(255).optional(),
  limit: z.string().regex(/^(?:[1-9]\d?|100)$/, 'must be a whole number from 1 to 100').optional(),
  cursor: z.string().min(1).max(1_000).optional(),
});

/** The query string as an object; a repeated key keeps all its values, so the schema refuses it. */
const queryObject = (params: URLSearchParams) =>
  Object.fromEntries([...new Set(params.keys())].map((key) => [key, params.getAll(key).length === 1 ? params.get(key)! : params.getAll(key)]));

/** Where the service is and how to call it. */
export interface ServiceAccess {
  baseUrl: string;
  apiSecret: string;
  version: string;
}

/** `GET /api/accounts`: the service's `GET /v1/accounts`, with the secret; its refusals become a 502 without detail. */
export function createAccountsRoute(service: ServiceAccess): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET') return simpleErrorResponse(405, 'INVALID_REQUEST', 'METHOD_NOT_ALLOWED', 'Use GET.', { allow: 'GET' });
    const query = AccountQuerySchema.safeParse(queryObject(new URL(request.url).searchParams), {
      error: (issue) => (issue.code === 'invalid_type' && Array.isArray(issue.input) ? 'must be given once' : undefined),
    });
    if (!query.success) return invalidParamsResponse(query.error, 'query string');
    const upstream = await callService(service, 'GET', `/v1/accounts?${new URLSearchParams(query.data)}`);
    if (!upstream) return simpleErrorResponse(502, 'UPSTREAM_ERROR', 'UPSTREAM_ERROR', 'The service could not be reached.');
    if (!upstream.ok) return simpleErrorResponse(502, 'UPSTREAM_ERROR', 'UPSTREAM_ERROR', 'The service refused to list the accounts.');
    try {
      return Response.json(await upstream.json(), { headers: NO_STORE });
    } catch {
      return simpleErrorResponse(502, 'UPSTREAM_ERROR', 'UPSTREAM_ERROR', 'The service answered something other than JSON.');
    }
  };
}

/** The demo's signed-in user: a cookie the demo page sets (no password: the demo has no real users). */
export const DEMO_USER_COOKIE = 'demo_user';

/** The demo user named by the request's cookie, or undefined. */
function demoUser(request: Request): string | undefined {
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, value] = pair.trim().split('=');
    if (name === DEMO_USER_COOKIE && value) return decodeURIComponent(value);
  }
  return undefined;
}

/** Calls the service with the secret; undefined when it could not be reached. */
async function callService(service: ServiceAccess, method: string, path: string): Promise<Response | undefined> {
  try {
    return await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { 'x-api-secret': service.apiSecret, 'service-version': service.version },
      redirect: 'manual', // a redirect would carry the secret elsewhere
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    return undefined;
  }
}

/**
 * The demo's `authorizeAccount` (a DEMO RULE, not a pattern for production): the demo's user is who the
 * `demo_user` cookie says, and owns the accounts the service lists with that `end_user_id`. A real backend
 * looks the account up in its own records of who connected what, against its real session.
 */
export function createDemoAccountAuthorizer(service: ServiceAccess): (request: Request, accountId: string) => Promise<boolean> {
  return async (request, accountId) => {
    const user = demoUser(request);
    if (!user || !z.uuid().safeParse(accountId).success) return false;
    const upstream = await callService(service, 'GET', `/v1/accounts/${accountId}`);
    if (!upstream?.ok) return false;
    const body = (await upstream.json()) as { data?: { end_user_id?: unknown } };
    return body.data?.end_user_id === user;
  };
}

/** What the demo's account controls ask the sandbox for: the service's disconnect, and the re-authentication trigger. */
const ACCOUNT_ACTIONS: Record<string, (id: string) => string> = {
  disconnect: (id) => `/v1/accounts/${id}/disconnect`,
  require_reauth: (id) => `/sandbox/accounts/${id}/require_reauth`,
};

/**
 * `POST /api/accounts/{id}/disconnect` and `POST /api/accounts/{id}/require_reauth`: the demo's "Disconnect"
 * and "Simulate password change" controls, passed to the sandbox with the secret; the service's answer
 * (its error body included) comes back as it is. JSON only, so a cross-site form cannot press them.
 */
export function createAccountActionRoute(service: ServiceAccess): (request: Request) => Promise<Response> {
  return async (request) => {
    const match = /^\/api\/accounts\/([^/]+)\/([a-z_]+)$/.exec(new URL(request.url).pathname);
    const action = match ? ACCOUNT_ACTIONS[match[2]!] : undefined;
    if (!match || !action) return simpleErrorResponse(404, 'INVALID_REQUEST', 'NOT_FOUND', 'No such route.');
    if (request.method !== 'POST') return simpleErrorResponse(405, 'INVALID_REQUEST', 'METHOD_NOT_ALLOWED', 'Use POST.', { allow: 'POST' });
    if (!(request.headers.get('content-type') ?? '').startsWith('application/json')) {
      return simpleErrorResponse(415, 'INVALID_REQUEST', 'UNSUPPORTED_MEDIA_TYPE', 'Send Content-Type: application/json.');
    }
    const id = z.uuid().safeParse(match[1]);
    if (!id.success) return simpleErrorResponse(400, 'INVALID_REQUEST', 'INVALID_PARAMS', 'The account id must be a UUID.');
    const upstream = await callService(service, 'POST', action(id.data));
    if (!upstream) return simpleErrorResponse(502, 'UPSTREAM_ERROR', 'UPSTREAM_ERROR', 'The service could not be reached.');
    return Response.json(await upstream.json().catch(() => null), { status: upstream.status, headers: NO_STORE });
  };
}
