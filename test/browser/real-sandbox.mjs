// The real sandbox (sandbox/start-sandbox.ts) behind web-test-runner's own server, for the accessibility tests that
// drive the real Link page inside the real <payroll-link>: its Link page and the page's API (`/link`, `/link/*`) are
// proxied through the test page's origin, so the Link frame is same-origin with the test and a test can reach into
// it (axe-core in the frame, the focused element through the frame) in every engine: WebKitGTK and Firefox ESR
// have no protocol here that evaluates inside a cross-origin frame. `POST /a11y/link-token` mints a real Link
// token with the sandbox's secret, server-side, as the integrator's backend does: the secret never reaches a page.
import { tsImport } from 'tsx/esm/api';

/** The sandbox, started on the first request that needs it (a run without these tests starts none). */
let starting;

/** Headers of the sandbox's answer not passed on: the proxy re-encodes the body whole, and Koa frames it itself. */
const HOP_HEADERS = new Set(['connection', 'content-length', 'content-encoding', 'transfer-encoding', 'keep-alive', 'date']);

/** The request headers the Link page's API reads (its JSON content type, its session), passed on. */
const FORWARDED = ['accept', 'content-type', 'x-link-session', 'accept-language'];

const isLinkPath = (path) => path === '/link' || path.startsWith('/link/');

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The sandbox's answer to `ctx`'s request, on `ctx`: status, headers (its CSP included) and body, byte for byte. */
async function proxy(ctx, sandbox) {
  const headers = {};
  for (const name of FORWARDED) if (ctx.get(name)) headers[name] = ctx.get(name);
  const body = ctx.method === 'GET' || ctx.method === 'HEAD' ? undefined : await readBody(ctx.req);
  const answer = await fetch(`${sandbox.url}${ctx.url}`, { method: ctx.method, headers, body, redirect: 'manual' });
  ctx.status = answer.status;
  for (const [name, value] of answer.headers) if (!HOP_HEADERS.has(name)) ctx.set(name, value);
  ctx.body = Buffer.from(await answer.arrayBuffer());
}

/** The Link token fields a test may ask for in the query string (e.g. `?language=es-US`); the rest are fixed. */
const TOKEN_FIELDS = ['language', 'end_user_id'];

/**
 * `POST /a11y/link-token`: a fresh Link token from the sandbox's `POST /v1/link_tokens`, answered as the sandbox
 * answers it (`{ data: LinkToken }`), for the element's `token-url`.
 */
async function mintToken(ctx, sandbox) {
  await readBody(ctx.req);
  const extra = {};
  for (const name of TOKEN_FIELDS) if (ctx.query[name]) extra[name] = ctx.query[name];
  const answer = await fetch(`${sandbox.url}/v1/link_tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-secret': sandbox.secret, 'Service-Version': '2025-07-08' },
    body: JSON.stringify({ org_name: 'Acme Lending', features: ['direct_deposit_switch'], solution: 'deposit_switch', ...extra }),
  });
  ctx.status = answer.status;
  ctx.set('content-type', answer.headers.get('content-type') ?? 'application/json');
  ctx.set('cache-control', 'no-store');
  ctx.body = await answer.text();
}

/**
 * Koa middleware for web-test-runner's `middleware` (it runs before every plugin, and answers without calling on,
 * so no plugin rewrites these answers: the Link page's script reaches the frame as the sandbox built it).
 */
export async function realSandboxMiddleware(ctx, next) {
  if (isLinkPath(ctx.path)) return proxy(ctx, await sandbox());
  if (ctx.path === '/a11y/link-token' && ctx.method === 'POST') return mintToken(ctx, await sandbox());
  return next();
}

/**
 * The sandbox on a free loopback port. `user_pending`'s job stays pending for 10 minutes, longer than any test:
 * the running screen and its leave confirmation hold still while a test checks them.
 */
function sandbox() {
  starting ??= tsImport('../../sandbox/start-sandbox.ts', import.meta.url).then(({ startSandbox }) =>
    startSandbox({ port: 0, host: '127.0.0.1', rateLimitPerSecond: 0, pendingJobDelayMs: 600_000 }),
  );
  return starting;
}

/** A web-test-runner plugin that stops the sandbox, if a test started it, when the dev server stops. */
export function realSandboxPlugin() {
  return {
    name: 'real-sandbox',
    async serverStop() {
      const running = starting;
      starting = undefined;
      await (await running)?.close();
    },
  };
}
