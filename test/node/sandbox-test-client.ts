/**
 * Helpers for the sandbox's Node tests: a real sandbox on a free loopback port,
 * and small HTTP clients for its service API and its Link API. Nothing here is
 * faked: every call goes over HTTP to the real server.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/start-sandbox.js';
import { LATEST_VERSION } from '../../sandbox/http/versions.js';

/** A response, body parsed as JSON when it is JSON. */
export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  // Tests look into bodies freely; shapes are asserted by schemas where it matters.
  readonly body: any;
  readonly text: string;
}

/** Starts a sandbox for tests: free port, no rate limit, quick jobs (override as needed). */
export const startTestSandbox = (options: SandboxOptions = {}): Promise<Sandbox> =>
  startSandbox({ port: 0, rateLimitPerSecond: 0, jobDelayMs: 20, pendingJobDelayMs: 200, ...options });

const toResponse = async (response: Response): Promise<TestResponse> => {
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
};

/** Options of {@link api}. */
export interface ApiCall {
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON). */
  raw?: string;
  /** `null` leaves the header out. */
  secret?: string | null;
  /** `null` leaves the header out. */
  version?: string | null;
  headers?: Record<string, string>;
}

/** Calls the service API with the sandbox's secret and the latest version unless told otherwise. */
export const api = async (sandbox: Sandbox, method: string, path: string, call: ApiCall = {}): Promise<TestResponse> => {
  const headers: Record<string, string> = { ...call.headers };
  const secret = call.secret === undefined ? sandbox.secret : call.secret;
  const version = call.version === undefined ? LATEST_VERSION : call.version;
  if (secret !== null) headers['x-api-secret'] = secret;
  if (version !== null) headers['service-version'] = version;
  let body: string | undefined = call.raw;
  if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers['content-type'] = 'application/json';
  }
  return toResponse(await fetch(`${sandbox.url}${path}`, { method, headers, body }));
};

/** Calls the Link API, with the Link session when given. */
export const linkApi = async (
  sandbox: Sandbox,
  method: string,
  path: string,
  session: string | null,
  body?: unknown,
): Promise<TestResponse> => {
  const headers: Record<string, string> = {};
  if (session !== null) headers['x-link-session'] = session;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return toResponse(await fetch(`${sandbox.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
};

/** A raw HTTP request (for what `fetch` will not send: GET bodies, streamed large bodies). */
export const rawRequest = (
  sandbox: Sandbox,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<TestResponse> =>
  new Promise((resolve, reject) => {
    const url = new URL(sandbox.url);
    // Node sends a GET body without framing unless told its length.
    const length = options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) };
    const headers = { ...length, ...options.headers };
    const req = httpRequest({ host: url.hostname, port: url.port, method: options.method, path: options.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers, body, text });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });

/** The spec's error body, with this status and (first) error code. */
export const assertError = (response: TestResponse, status: number, errorCode: string): void => {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  const error = response.body?.error;
  assert.ok(error, `no error body: ${response.text}`);
  assert.deepEqual(Object.keys(error).sort(), ['error_codes', 'message', 'status_code', 'type']);
  assert.equal(error.status_code, status);
  assert.equal(typeof error.message, 'string');
  assert.ok(error.message.length > 0);
  assert.equal(typeof error.type, 'string');
  assert.ok(Array.isArray(error.error_codes) && error.error_codes.length > 0);
  for (const entry of error.error_codes) {
    assert.deepEqual(Object.keys(entry).sort(), ['error_code', 'message']);
    assert.equal(typeof entry.message, 'string');
  }
  assert.ok(
    error.error_codes.some((entry: { error_code: string }) => entry.error_code === errorCode),
    `expected error code ${errorCode} in ${JSON.stringify(error.error_codes)}`,
  );
};

/** A valid link-token body for the latest version. */
export const linkTokenBody = (extra: Record<string, unknown> = {}) => ({
  org_name: 'Acme Lending',
  features: ['direct_deposit_switch'],
  solution: 'deposit_switch',
  ...extra,
});

/** Creates a Link token; returns `data`. */
export const createLinkToken = async (
  sandbox: Sandbox,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; token: string; expires: string }> => {
  const response = await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody(extra) });
  assert.equal(response.status, 200, response.text);
  return response.body.data;
};

/** Creates a token and opens a Link session with it; returns the session id and token id. */
export const openSession = async (
  sandbox: Sandbox,
  extra: Record<string, unknown> = {},
): Promise<{ session: string; linkTokenId: string }> => {
  const token = await createLinkToken(sandbox, extra);
  return { session: await sessionOf(sandbox, token.token), linkTokenId: token.id };
};

/** Opens a Link session with a token, as the hosted Link page does; returns its id. */
export const sessionOf = async (sandbox: Sandbox, token: string): Promise<string> => {
  const response = await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token });
  assert.equal(response.status, 201, response.text);
  return response.body.data.session_id;
};

/** The first catalogue platform of this type. */
export const platformOfType = (sandbox: Sandbox, type: 'payroll' | 'time_and_attendance') => {
  const entry = sandbox.store.catalogue.platforms.find(({ item }) => item.type === type);
  assert.ok(entry, `no ${type} platform in the catalogue`);
  return entry.item;
};

/** Logs in through the Link API with a Link token, as the hosted Link page would (`user_good`, a payroll platform); returns the account id. */
export const connectWithToken = async (sandbox: Sandbox, token: string): Promise<string> => {
  const login = await linkApi(sandbox, 'POST', '/link/api/login', await sessionOf(sandbox, token), {
    platform_id: platformOfType(sandbox, 'payroll').id,
    username: 'user_good',
    password: 'pass_good',
  });
  assert.equal(login.status, 200, login.text);
  return login.body.data.account_id as string;
};

/**
 * Waits for a Link job to leave `pending` (the store says when: no polling), then reads it
 * through the Link API as the page would.
 */
export const waitForLinkJob = async (sandbox: Sandbox, session: string, jobId: string): Promise<TestResponse> => {
  await sandbox.store.whenJobFinished(jobId);
  return linkApi(sandbox, 'GET', `/link/api/jobs/${jobId}`, session);
};

/**
 * Connects an account through the Link API as `username` and runs its job to
 * the end; returns the ids. For a deposit switch it allocates $50.00.
 */
export const connectAccount = async (
  sandbox: Sandbox,
  options: {
    username?: string;
    platformType?: 'payroll' | 'time_and_attendance';
    endUserId?: string;
    /** A Link token minted elsewhere (a launch's page), instead of one made here. */
    token?: { token: string; id: string };
  } = {},
): Promise<{ accountId: string; jobId: string; linkTokenId: string; session: string; platformId: string }> => {
  const { session, linkTokenId } = options.token
    ? { session: await sessionOf(sandbox, options.token.token), linkTokenId: options.token.id }
    : await openSession(sandbox, options.endUserId ? { end_user_id: options.endUserId } : {});
  const platform = platformOfType(sandbox, options.platformType ?? 'payroll');
  const username = options.username ?? 'user_good';
  const login = await linkApi(sandbox, 'POST', '/link/api/login', session, {
    platform_id: platform.id,
    username,
    password: 'pass_good',
    ...(username === 'user_mfa' && { mfa_code: 'mfa_code' }),
  });
  assert.equal(login.status, 200, login.text);
  const { account_id: accountId, job_id: jobId } = login.body.data;
  const run = await linkApi(sandbox, 'POST', `/link/api/jobs/${jobId}/run`, session, {
    allocation: { type: 'amount', value: 5000 },
  });
  assert.equal(run.status, 202, run.text);
  await waitForLinkJob(sandbox, session, jobId);
  return { accountId, jobId, linkTokenId, session, platformId: platform.id };
};
