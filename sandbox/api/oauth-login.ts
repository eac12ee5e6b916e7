/**
 * The OAuth-style platform's login (see state/oauth-platform.ts), in three steps:
 * 1. `POST /link/api/oauth` (the Link page, with its session): a login page's URL, tied to the session by a random
 *    `state` (never the Link token, never the session id: this id travels in a URL);
 * 2. `GET /link/oauth?state=…`, then `POST /link/oauth` (the new window, the platform's own page): the user logs in
 *    with the test credentials; the page answers "return to the app", nothing more: it never talks to the Link page,
 *    so the window works with `noopener`;
 * 3. `GET /link/api/oauth/{state}` (the Link page, with its session): a long poll that answers the login's result as
 *    soon as it is there, or `pending` after at most {@link LONG_POLL_MS}; the Link page asks again.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { escapeHtml } from '../../src/shared/escape-html.js';
import { ApiError, notFound } from '../http/errors.js';
import type { SandboxRequest, SandboxResponse } from '../http/http-types.js';
import { jsonResponse } from '../http/http-types.js';
import { OAuthStartRequestSchema, type LoginRequest, type LoginResult, type OAuthResult, type OAuthStart } from './link-api-schemas.js';
import { OAUTH_PLATFORM } from '../state/oauth-platform.js';
import { SANDBOX_MFA_CODE } from '../state/sandbox-users.js';
import type { RouteHandler, Router } from '../http/router.js';
import type { LinkSessionRecord } from '../state/store.js';
import { parseBody, parseParam } from '../http/validate.js';

/** The longest a `GET /link/api/oauth/{state}` waits before it answers `pending`. */
export const LONG_POLL_MS = 10_000;
/**
 * A login page not used within this time is forgotten (its state is refused after). The Link page's long poll
 * uses it; an hour, a Link token's longest life, so that a question the Link page leaves on screen past its
 * wait's limit (WCAG 2.2.1: no timer ends the wait) still finds its login when its user keeps waiting.
 */
const STATE_LIFETIME_MS = 60 * 60_000;
/** The OAuth page's headers: no script at all, its one form posts to itself, never framed (as a real OAuth page). */
const OAUTH_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** One login page handed out: whose session, which platform, and its result once the user logged in. */
interface OAuthLogin {
  readonly sessionId: string;
  readonly platformId: string;
  readonly employerId: string | null;
  /** When it was handed out or last asked about (a long poll). */
  used: number;
  result: LoginResult | null;
  /** Long polls waiting for the result. */
  readonly waiters: Set<() => void>;
}

/** What the Link API lends these routes: its JSON-only POST, its session check and its login. */
export interface OAuthLoginParts {
  post(pattern: string, handler: RouteHandler<null>): void;
  requireSession(request: SandboxRequest): LinkSessionRecord;
  logIn(session: LinkSessionRecord, input: LoginRequest): LoginResult;
  /** Looks a Link session up by id (the login page has no session header). */
  session(id: string): LinkSessionRecord | undefined;
}

/** Adds the OAuth-style platform's routes (see the module's comment). */
export const addOAuthLoginRoutes = (router: Router<null>, parts: OAuthLoginParts): void => {
  const logins = new Map<string, OAuthLogin>();

  const forget = (now: number) => {
    for (const [state, login] of logins) if (now - login.used > STATE_LIFETIME_MS) logins.delete(state);
  };

  parts.post('/link/api/oauth', ({ request }) => {
    const session = parts.requireSession(request);
    const input = parseBody(request, OAuthStartRequestSchema);
    if (input.platform_id !== OAUTH_PLATFORM.id)
      throw notFound('PLATFORM_NOT_OAUTH', 'This platform logs in with a password, in the Link page');
    const now = Date.now();
    forget(now);
    const state = randomUUID();
    logins.set(state, {
      sessionId: session.id,
      platformId: input.platform_id,
      employerId: input.employer_id ?? null,
      used: now,
      result: null,
      waiters: new Set(),
    });
    const data: OAuthStart = { state, url: new URL(`/link/oauth?state=${state}`, request.url).href };
    return jsonResponse(201, { data });
  });

  router.on('GET', '/link/api/oauth/:state', async ({ request, params }) => {
    const session = parts.requireSession(request);
    const state = parseParam('state', params['state']!, z.uuid());
    const login = logins.get(state);
    // Another session's login does not exist for this one.
    if (!login || login.sessionId !== session.id) throw notFound('OAUTH_STATE_NOT_FOUND', `No OAuth login ${state} in this Link session`);
    login.used = Date.now();
    if (!login.result) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          login.waiters.delete(done);
          resolve();
        };
        // Unref'd: a poll still waiting never keeps a sandbox that is closing alive.
        const timer = setTimeout(done, LONG_POLL_MS).unref();
        login.waiters.add(done);
      });
    }
    const data: OAuthResult = login.result ?? { status: 'pending' };
    return jsonResponse(200, { data });
  });

  router.on('GET', '/link/oauth', ({ request }) => {
    const { state } = pageLogin(request.url.searchParams.get('state'));
    return page(200, form(state));
  });

  router.on('POST', '/link/oauth', ({ request }) => {
    if (!request.headers.get('content-type')?.startsWith('application/x-www-form-urlencoded'))
      return page(415, '<p>This page takes its own form only.</p>');
    const fields = new URLSearchParams(new TextDecoder().decode(request.body));
    const { state, login } = pageLogin(fields.get('state'));
    if (login.result) return page(200, DONE);
    const session = parts.session(login.sessionId);
    if (!session) return page(410, '<p>This Link session has ended. Close this window and start again.</p>');
    const credentials = { username: fields.get('username') ?? '', password: fields.get('password') ?? '' };
    try {
      // The platform's own page does its own second factor: user_mfa logs in here without a code.
      const result = parts.logIn(session, {
        platform_id: login.platformId,
        employer_id: login.employerId,
        ...credentials,
        mfa_code: SANDBOX_MFA_CODE,
      });
      login.result = result;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return page(error.status, `<p role="alert">${escapeHtml(error.message)}</p>${form(state)}`);
    }
    for (const waiter of [...login.waiters]) waiter();
    return page(200, DONE);
  });

  /** The login behind a page's `state`, or a page that says it is unknown (an ApiError would answer JSON). */
  const pageLogin = (raw: string | null) => {
    const state = z.uuid().safeParse(raw);
    const login = state.success ? logins.get(state.data) : undefined;
    if (!state.success || !login)
      throw new PageError(page(404, '<p>This login link is unknown or has expired. Close this window and start again.</p>'));
    return { state: state.data, login };
  };
};

/** A finished HTML answer thrown from inside a route; the router's error handling turns it back into that answer. */
class PageError extends ApiError {
  constructor(readonly response: SandboxResponse) {
    super(response.status, 'NOT_FOUND', 'OAuth login page', []);
  }

  override toResponse(): SandboxResponse {
    return this.response;
  }
}

const DONE = `<p role="status">You are logged in to ${OAUTH_PLATFORM.name}. Return to the app to go on: you can close this window.</p>`;

function form(state: string): string {
  return `<form method="post" action="/link/oauth">
  <input type="hidden" name="state" value="${state}">
  <p><label for="username">Username</label><br><input id="username" name="username" autocomplete="username" required></p>
  <p><label for="password">Password</label><br><input id="password" name="password" type="password" autocomplete="current-password" required></p>
  <p><button type="submit">Log in</button></p>
  <p>Sandbox: <code>user_good</code> / <code>pass_good</code> (and the other test users).</p>
</form>`;
}

function page(status: number, body: string): SandboxResponse {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Log in to ${OAUTH_PLATFORM.name}</title></head>
<body><main><h1>Log in to ${OAUTH_PLATFORM.name}</h1>${body}</main></body></html>`;
  return { status, headers: { ...OAUTH_PAGE_HEADERS }, body: html };
}
