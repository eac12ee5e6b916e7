// The real sandbox (sandbox/start-sandbox.ts) behind web-test-runner's own server, for the accessibility tests that
// drive the real Link page inside the real <payroll-link>: its Link page and the page's API (`/link`, `/link/*`) are
// proxied through the test page's origin, so the Link frame is same-origin with the test and a test can reach into
// it (axe-core in the frame, the focused element through the frame) in every engine: WebKitGTK and Firefox ESR
// have no protocol here that evaluates inside a cross-origin frame. `POST /a11y/link-token` mints a real Link
// token with the sandbox's secret, server-side, as the integrator's backend does: the secret never reaches a page.
// The launch page too (`payroll-link/server/launches`, with its real built script) on the same origin, below
// `/a11y/<kind>/`, so a test page frames it and reaches into it and into the Link frame its modal opens: see
// `launchMiddleware` below.
import { randomUUID } from 'node:crypto';
import { register, tsImport } from 'tsx/esm/api';

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
  if (ctx.path === '/a11y/launch-create' && ctx.method === 'POST') return createLaunch(ctx);
  const kind = launchKindOf(ctx.path);
  if (kind) return serveLaunch(ctx, kind);
  return next();
}

/**
 * The launch pages a test may ask for, each at its own `publicUrl` (`/a11y/<kind>`: a launch's URL is sealed to
 * it). `language`: the `Accept-Language` every request below it carries, in place of the browser's own, since no
 * engine here lets a test set a frame's request headers (Playwright could, for Chromium only): the launch page takes
 * its language from it, as from a Spanish browser's, and its element tells the Link page (every route below gets it).
 * `ttlSeconds`: a link that runs out while a test watches (the page's own timers, on the real clock: the warning
 * at once, the expiry seconds later).
 */
const LAUNCH_KINDS = {
  launch: {},
  'launch-es': { language: 'es-US,es;q=0.9' },
  'launch-short': { ttlSeconds: 8 },
  'launch-short-es': { ttlSeconds: 8, language: 'es-US,es;q=0.9' },
};

/** The launch kind whose `publicUrl` `path` lies below, if any. */
function launchKindOf(path) {
  const [, a11y, kind] = path.split('/');
  return a11y === 'a11y' && Object.hasOwn(LAUNCH_KINDS, kind) ? kind : null;
}

/** The launches of each kind, per test origin (made on first use: `publicUrl` and `frameAncestors` name it). */
const launchesByOrigin = new Map();

/** The launch page's real script, built once from the sources as `npm run build:package` builds it. */
let pageScript;

/** The launches of `kind` on `origin`: the real `createLinkLaunches`, minting from the sandbox. */
async function launchesOf(origin, kind) {
  let kinds = launchesByOrigin.get(origin);
  if (!kinds) {
    kinds = makeLaunches(origin);
    launchesByOrigin.set(origin, kinds);
  }
  return (await kinds)[kind];
}

async function makeLaunches(origin) {
  const running = await sandbox();
  // One namespace for both: the launches know a client of their own module instance (to redact its secret).
  const server = register({ namespace: 'a11y-launches' });
  const [{ createLinkLaunches }, { createPayrollClient }] = await Promise.all([
    server.import('../../src/server/launches.ts', import.meta.url),
    server.import('../../src/server/index.ts', import.meta.url),
  ]);
  const client = createPayrollClient({ apiSecret: running.secret, baseUrl: running.url, version: '2025-07-08', mode: 'sandbox' });
  const secret = `${randomUUID()}${randomUUID()}`;
  const quiet = { info() {}, warn() {}, error() {} };
  return Object.fromEntries(
    Object.entries(LAUNCH_KINDS).map(([kind, { ttlSeconds }]) => [
      kind,
      createLinkLaunches({
        client,
        orgName: 'Acme Lending',
        solution: 'Deposit Switch',
        features: ['direct_deposit_switch'],
        // The proxied Link page: same-origin with the launch page, so a test reaches into the frame its modal opens.
        linkUrl: `${origin}/link`,
        publicUrl: `${origin}/a11y/${kind}`,
        // Shown as "Get a new link" once a link expires; not served (no test follows it).
        newLinkUrl: `${origin}/a11y/new-link`,
        // The test page frames the launch page.
        frameAncestors: [origin],
        secret,
        log: quiet,
        onResult: () => {},
        ...(ttlSeconds && { ttlSeconds }),
      }),
    ]),
  );
}

/** `POST /a11y/launch-create?kind=<kind>`: a launch for a fresh end user, answered as `{ url, expiresAt }`. */
async function createLaunch(ctx) {
  await readBody(ctx.req);
  const kind = String(ctx.query.kind ?? 'launch');
  if (!Object.hasOwn(LAUNCH_KINDS, kind)) ctx.throw(400, `unknown launch kind ${kind}`);
  const { url, expiresAt } = await (await launchesOf(ctx.origin, kind)).create({ endUserId: `a11y-${randomUUID()}` });
  ctx.set('cache-control', 'no-store');
  ctx.body = { url, expiresAt };
}

/**
 * A request below `/a11y/<kind>/` answered by that kind's `launches.handle()`: Koa's request as a Web `Request`
 * (at the test origin, so the token and result routes' same-origin rule sees the page's own origin), and the page's
 * stand-in script swapped for the built one, as server-example/launch-routes.ts does for the demo.
 */
async function serveLaunch(ctx, kind) {
  const launches = await launchesOf(ctx.origin, kind);
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) for (const item of [value ?? []].flat()) headers.append(name, item);
  const { language } = LAUNCH_KINDS[kind];
  if (language) headers.set('accept-language', language);
  const body = ctx.method === 'GET' || ctx.method === 'HEAD' ? undefined : await readBody(ctx.req);
  const answer = await launches.handle(new Request(`${ctx.origin}${ctx.url}`, { method: ctx.method, headers, body }));
  ctx.status = answer.status;
  for (const [name, value] of answer.headers) if (!HOP_HEADERS.has(name)) ctx.set(name, value);
  let text = await answer.text();
  if ((answer.headers.get('content-type') ?? '').startsWith('text/html')) {
    pageScript ??= tsImport('../../scripts/build-package.ts', import.meta.url).then(({ launchPageScript }) => launchPageScript());
    const script = await pageScript;
    // A function, so that `$` in the script is not read as a replacement pattern.
    text = text.replace(/(<script nonce="[^"]+">)document\.documentElement\.dataset\.launchPage = "unbuilt";/, (_, tag) => tag + script);
  }
  ctx.body = text;
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
      launchesByOrigin.clear();
      await (await running)?.close();
    },
  };
}
