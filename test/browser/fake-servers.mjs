// Fakes of what lies outside the widget, for the browser and packaging tests:
// - the hosted Link page, served by its own HTTP server on 127.0.0.1 (a second
//   origin: the tests run on localhost), so origin checks are real;
// - the integrator's token endpoint, scripted per test through the query string:
//   web-test-runner middleware on the test page's own origin, or a plain Node
//   handler for the packaging tests' servers.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Starts the fake Link page's server on a free loopback port: `${origin}/fake-link.html?scenario=...`. */
export async function startFakeLinkServer() {
  const bundle = await build({
    entryPoints: [`${here}fake-link/fake-link.ts`],
    bundle: true,
    format: 'esm',
    write: false,
    target: 'es2022',
  });
  const js = bundle.outputFiles[0].text;
  const html = await readFile(`${here}fake-link/fake-link.html`, 'utf8');
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/fake-link.html') res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    else if (path === '/fake-link.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    else res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A web-test-runner plugin that runs the fake Link page's server and tells the tests its URL. */
export function fakeLinkPlugin() {
  let server;
  return {
    name: 'fake-link',
    async serverStart() {
      server = await startFakeLinkServer();
    },
    async serverStop() {
      await server?.close();
    },
    executeCommand({ command }) {
      if (command === 'fake-link-origin') return server?.origin;
      if (command === 'closed-port') return closedPort();
      return undefined;
    },
  };
}

/** A loopback port nothing listens on (bound, then closed): connecting to it is refused. */
async function closedPort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Calls seen per test key, so tests can check what the widget sent and when:
 * the request body, its cookies, the time it arrived (ms since the epoch), and
 * for `hang`, whether the client gave up on it (`aborted`).
 */
const calls = new Map();

/**
 * Changes per test key (a call arriving, a `hang` given up on), and who waits for the next one:
 * `GET /fake-token/changes?key=K&after=N` answers `{ changes, calls }` once more than N changes
 * were seen, so a test waits for the widget's background fetches without polling on a timer.
 */
const changes = new Map();
const watchers = new Map();

function changed(key) {
  changes.set(key, (changes.get(key) ?? 0) + 1);
  const waiting = watchers.get(key) ?? [];
  watchers.delete(key);
  for (const wake of waiting) wake();
}

/** Resolves once the key has seen more than `after` changes. */
function changeAfter(key, after) {
  if ((changes.get(key) ?? 0) > after) return Promise.resolve();
  return new Promise((resolve) => watchers.set(key, [...(watchers.get(key) ?? []), resolve]));
}

/**
 * `POST /fake-token?key=K&plan=503,503,ok`: answers call n with step n of the
 * plan (the last step repeats). Steps: ok, short (expires in 1 s), expired,
 * slow (ok after 300 ms), hang (answers 504 after 5 s), malformed, invalid,
 * 429 (Retry-After: 0), 429-retry-after-1 (Retry-After: 1), or any HTTP
 * status. `GET /fake-token/calls?key=K` lists the calls seen; `GET /fake-token/changes?key=K&after=N`
 * lists them once they have changed more than N times.
 * Returns null for any other path.
 */
async function answerFakeToken(req) {
  const url = new URL(req.url, 'http://x');
  const key = url.searchParams.get('key') ?? '';
  if (url.pathname === '/fake-token/calls') return json(200, calls.get(key) ?? []);
  if (url.pathname === '/fake-token/changes') {
    await changeAfter(key, Number(url.searchParams.get('after') ?? -1));
    return json(200, { changes: changes.get(key) ?? 0, calls: calls.get(key) ?? [] });
  }
  if (url.pathname !== '/fake-token') return null;
  const plan = (url.searchParams.get('plan') ?? 'ok').split(',');
  const seen = calls.get(key) ?? [];
  calls.set(key, seen);
  const call = { method: req.method, contentType: req.headers['content-type'] ?? '', cookie: req.headers.cookie ?? '', at: Date.now() };
  call.body = await readBody(req);
  seen.push(call);
  changed(key);
  const step = plan[Math.min(seen.length - 1, plan.length - 1)];
  const mint = (lifetimeMs) => {
    const id = randomUUID();
    return json(200, {
      data: { id, token: `tok.${id}.${seen.length}`, expires: new Date(Date.now() + lifetimeMs).toISOString(), mode: 'sandbox' },
    });
  };
  switch (step) {
    case 'ok':
      return mint(3_600_000);
    case 'short':
      return mint(1_000);
    case 'expired':
      return mint(-60_000);
    case 'slow':
      await new Promise((resolve) => setTimeout(resolve, 300));
      return mint(3_600_000);
    case 'hang': {
      // A fetch given up on (aborted) closes its connection: noted, so tests can tell it was stopped.
      const aborted = () => {
        call.aborted = true;
        changed(key);
      };
      req.socket.once('close', aborted);
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      req.socket.off('close', aborted);
      return { status: 504, headers: {}, body: '' };
    }
    case 'malformed':
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"data": {' };
    case 'invalid':
      return json(200, { data: { id: 'nope', token: '' } });
    case '429':
      return { ...json(429, { error: 'slow down' }), headers: { 'content-type': 'application/json', 'retry-after': '0' } };
    case '429-retry-after-1':
      return { ...json(429, { error: 'slow down' }), headers: { 'content-type': 'application/json', 'retry-after': '1' } };
    default:
      return json(Number(step) || 500, { error: 'scripted failure' });
  }
}

/** The fake token endpoint as web-test-runner (Koa) middleware. */
export async function fakeTokenMiddleware(ctx, next) {
  const answer = await answerFakeToken(ctx.req);
  if (!answer) return next();
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.body = answer.body;
}

/** The fake token endpoint as a plain Node request handler: answers and returns true, or returns false for other paths. */
export async function handleFakeTokenRequest(req, res) {
  const answer = await answerFakeToken(req);
  if (!answer) return false;
  res.writeHead(answer.status, answer.headers).end(answer.body);
  return true;
}

function json(status, value) {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

function readBody(req) {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(text));
  });
}
