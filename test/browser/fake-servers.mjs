// Fakes of what lies outside the widget, for the browser tests:
// - the hosted Link page, served by its own HTTP server on 127.0.0.1 (a second
//   origin: the tests run on localhost), so origin checks are real;
// - the integrator's token endpoint, as web-test-runner middleware on the test
//   page's own origin, scripted per test through the query string.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));

/** A web-test-runner plugin that runs the fake Link page's server and tells the tests its URL. */
export function fakeLinkPlugin() {
  let server;
  let origin;
  return {
    name: 'fake-link',
    async serverStart() {
      const bundle = await build({
        entryPoints: [`${here}fake-link/fake-link.ts`],
        bundle: true,
        format: 'esm',
        write: false,
        target: 'es2022',
      });
      const js = bundle.outputFiles[0].text;
      const html = await readFile(`${here}fake-link/fake-link.html`, 'utf8');
      server = createServer((req, res) => {
        const path = new URL(req.url, 'http://x').pathname;
        if (path === '/fake-link.html') res.writeHead(200, { 'content-type': 'text/html' }).end(html);
        else if (path === '/fake-link.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
        else res.writeHead(404).end();
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${server.address().port}`;
    },
    async serverStop() {
      await new Promise((resolve) => server?.close(resolve));
    },
    executeCommand({ command }) {
      if (command === 'fake-link-origin') return origin;
      return undefined;
    },
  };
}

/** Calls seen per test key: the request bodies, so tests can check what the widget sent. */
const calls = new Map();

/**
 * `POST /fake-token?key=K&plan=503,503,ok`: answers call n with step n of the
 * plan (the last step repeats). Steps: ok, short (expires in 1 s), expired,
 * slow (ok after 300 ms), hang (never answers), malformed, invalid, 429, or any
 * HTTP status. `GET /fake-token/calls?key=K` lists the calls seen.
 */
export async function fakeTokenMiddleware(ctx, next) {
  if (ctx.path === '/fake-token/calls') {
    ctx.body = calls.get(ctx.query.key) ?? [];
    return;
  }
  if (ctx.path !== '/fake-token') return next();
  const key = String(ctx.query.key ?? '');
  const plan = String(ctx.query.plan ?? 'ok').split(',');
  const seen = calls.get(key) ?? [];
  calls.set(key, seen);
  const body = await readBody(ctx.req);
  seen.push({ method: ctx.method, contentType: ctx.get('content-type'), body });
  const step = plan[Math.min(seen.length - 1, plan.length - 1)];
  const mint = (lifetimeMs) => {
    const id = randomUUID();
    return { data: { id, token: `tok.${id}.${seen.length}`, expires: new Date(Date.now() + lifetimeMs).toISOString(), mode: 'sandbox' } };
  };
  switch (step) {
    case 'ok':
      ctx.body = mint(3_600_000);
      return;
    case 'short':
      ctx.body = mint(1_000);
      return;
    case 'expired':
      ctx.body = mint(-60_000);
      return;
    case 'slow':
      await new Promise((resolve) => setTimeout(resolve, 300));
      ctx.body = mint(3_600_000);
      return;
    case 'hang':
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      ctx.status = 504;
      return;
    case 'malformed':
      ctx.type = 'application/json';
      ctx.body = '{"data": {';
      return;
    case 'invalid':
      ctx.body = { data: { id: 'nope', token: '' } };
      return;
    case '429':
      ctx.status = 429;
      ctx.set('retry-after', '0');
      ctx.body = { error: 'slow down' };
      return;
    default:
      ctx.status = Number(step) || 500;
      ctx.body = { error: 'scripted failure' };
  }
}

function readBody(req) {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(text));
  });
}
