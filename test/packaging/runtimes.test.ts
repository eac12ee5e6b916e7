// docs/edge.md as written, from the packed package, in the runtimes it names (test/packaging/runtimes/:
// Deno and Bun from their npm packages, Vercel's `edge-runtime`), each against the real sandbox on
// loopback with its rate limit on (10 per second). In Deno and Bun the page's app serves its three
// routes: the token handler mints a token, the sandbox's real webhook (sent to the app's URL with its
// secret) runs the callback once, and a burst of 12 page loads, each reading employment, income and
// paystubs through the app's one client, meets no 429 at the sandbox. Deno runs with the page's own
// `--allow-env` list and `--allow-net` for the listen address and the sandbox only, no `--allow-read`;
// with the sandbox's address left out of `--allow-net`, a token request fails (the flags are in force).
// The Vercel route is bundled by esbuild into one script, with the edge conditions, as Vercel bundles
// it, and run by `edge-runtime`: a token, the sandbox's webhook, and reads. The Netlify edge function is type-checked only
// (`deno check`, with a declaration of the `Netlify` global), and must fail on a misspelt call. Only
// `saveAccount`, which the page leaves to you, is the test's (it prints what it saved). Needs
// install-toolchains.ts and install-packed.ts first: `npm run test:packaging` runs both.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.js';
import { connectWithToken } from '../node/sandbox-test-client.js';
import { freePort } from '../free-port.js';
import { listening, runCommand } from './app-process.js';
import { codeBlocks, docsSnippet } from './docs-snippet.js';
import { runtimesPackageDir } from './install-packed.js';

const runtimesDir = fileURLToPath(new URL('./runtimes/', import.meta.url));
/** The app's files, as the page names them (ignored by runtimes/.gitignore). */
const appDir = `${runtimesDir}app/`;
const bin = (name: string) => `${runtimesDir}node_modules/.bin/${name}`;
const WEBHOOK_SECRET = 'whsec_packaging_runtimes_test_0123';
const PAGE = 'docs/edge.md';
/** Each test's bound: a runtime that hangs fails the test instead of the run. */
const BOUND = { timeout: 120_000 };

/** Stands in for the integrator's own data layer (prepended to payroll-app.ts). */
const SAVE_ACCOUNT = `const saveAccount = async (endUserId: string, accountId: string): Promise<void> => {
  console.log('SAVED ' + JSON.stringify({ endUserId, accountId }));
};
`;
/** Netlify's global, as its edge functions have it (only what the page uses). */
const NETLIFY_GLOBAL = `declare const Netlify: { env: { get(name: string): string | undefined } };\n`;

/**
 * For Deno and Bun: the runtime's own configuration directory in the app's folder, and npm's registry
 * pointed at a closed port, so that the package can only come from node_modules (the packed tarball).
 */
const RUNTIME_ENV = {
  DENO_DIR: `${appDir}.deno`,
  DENO_NO_UPDATE_CHECK: '1',
  NPM_CONFIG_REGISTRY: 'http://127.0.0.1:9/',
  BUN_INSTALL_CACHE_DIR: `${appDir}.bun`,
};

const cleanup: (() => unknown)[] = [];
after(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** The page's snippet under `## heading`: the first ts block, or the n-th. */
async function snippet(heading: string, block = 0): Promise<string> {
  if (block === 0) return docsSnippet(PAGE, heading, 'ts');
  const code = (await codeBlocks(PAGE)).get(heading)?.filter((candidate) => candidate.language === 'ts')[block]?.code;
  assert.ok(code !== undefined, `${PAGE} has ts block ${block} of "${heading}"`);
  return code;
}

/** Writes `code` to the app's file named on the snippet's first line (`// path` or `// path: comment`). */
async function writeSnippet(code: string, prefix = ''): Promise<string> {
  const name = /^\/\/ ([^\s:]+)/.exec(code)?.[1];
  assert.ok(name, `a snippet names its file on its first line: ${code.split('\n')[0]}`);
  const file = `${appDir}${name}`;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, prefix + code);
  return file;
}

/** A sandbox with its rate limit on, delivering webhooks to the app on `port`, and its log of answers. */
async function sandboxFor(port: number): Promise<{ sandbox: Sandbox; log: string[] }> {
  const log: string[] = [];
  const sandbox = await startSandbox({
    port: 0,
    webhookUrl: `http://127.0.0.1:${port}/api/webhooks?secret=${WEBHOOK_SECRET}`,
    webhookRetryBaseMs: 20,
    log: (line) => log.push(line),
  });
  cleanup.push(() => sandbox.close());
  return { sandbox, log };
}

/** The configuration the page's app reads, by the names the page uses. */
const appConfig = (sandbox: Sandbox) => ({
  PAYROLL_API_SECRET: sandbox.secret,
  PAYROLL_BASE_URL: sandbox.url,
  PAYROLL_WEBHOOK_SECRET: WEBHOOK_SECRET,
});

/** The app's token route: a browser's POST. */
async function mintToken(base: string, body = '{"end_user_id":"user-7"}'): Promise<Response> {
  return fetch(`${base}/api/link-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

/**
 * A user connects through the app: a token from its route (minted by the sandbox), the Link API's login with it,
 * and the sandbox's account.added sent to the app's webhook URL with its secret, answered 2xx; the same event
 * again is acknowledged as a duplicate. Returns the account id.
 */
async function connectThroughApp(base: string, sandbox: Sandbox, output: () => string): Promise<string> {
  const tokenAnswer = await mintToken(base);
  const tokenText = await tokenAnswer.text();
  assert.equal(tokenAnswer.status, 200, `${tokenText}\n${output()}`);
  const { data: token } = JSON.parse(tokenText) as { data: { id: string; token: string } };
  assert.ok(
    sandbox.store.linkTokens().some((record) => record.id === token.id),
    'the sandbox minted it',
  );
  const accountId = await connectWithToken(sandbox, token.token);
  const delivery = sandbox.webhooks.deliveries.find((item) => item.event.event === 'account.added');
  assert.ok(delivery, 'the sandbox sent account.added');
  // Settled: answered 2xx, or given up after its retries (a broken handler fails here, not as a wait that hangs).
  const settled = await sandbox.webhooks.whenSettled(delivery);
  assert.equal(settled.status, 'delivered', `${String(settled.lastError)}\n${output()}`);
  const again = await fetch(`${base}/api/webhooks?secret=${WEBHOOK_SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(delivery.event),
  });
  assert.deepEqual(await again.json(), { received: true, duplicate: true });
  return accountId;
}

/**
 * `count` page loads at once, each reading employment, income and paystubs through the app's one
 * client; every one answers 200 with the account's data, and the sandbox answered no 429.
 */
async function burstOfReads(base: string, accountId: string, log: string[], count: number, output: () => string): Promise<void> {
  const answers = await Promise.all(Array.from({ length: count }, () => fetch(`${base}/api/accounts/${accountId}/data`)));
  for (const answer of answers) {
    const text = await answer.text();
    assert.equal(answer.status, 200, `${text}\n${output()}`);
    const data = JSON.parse(text) as { employment: { account_id: string }; income: { account_id: string }; paystubs: unknown[] };
    assert.equal(data.employment.account_id, accountId);
    assert.equal(data.income.account_id, accountId);
    assert.equal(data.paystubs.length, 3);
  }
  for (const read of ['employment', 'income', 'paystubs']) {
    const path = `GET /v1/accounts/${accountId}/${read} 200 `;
    assert.equal(log.filter((line) => line.startsWith(path)).length, count, `the sandbox answered each ${read} read`);
  }
  assert.deepEqual(
    log.filter((line) => / 429 /.test(line)),
    [],
    'no 429 at the sandbox',
  );
}

/** A runtime serving the page's app (Deno, Bun): started on `port`, with the sandbox's configuration. */
type StartApp = (port: number, sandbox: Sandbox) => Promise<ReturnType<typeof runCommand>>;

/** The page's app in a runtime: a token, the sandbox's real webhook handled once, 12 page loads with no 429. */
async function servesThePage(start: StartApp): Promise<void> {
  const port = await freePort();
  const { sandbox, log } = await sandboxFor(port);
  const app = await start(port, sandbox);
  cleanup.push(() => app.stop());
  await listening(port, app.child, app.output);
  const base = `http://127.0.0.1:${port}`;

  const saved = app.line(/^SAVED /);
  const accountId = await connectThroughApp(base, sandbox, app.output);
  assert.deepEqual(JSON.parse((await saved).slice('SAVED '.length)), { endUserId: 'user-7', accountId });
  assert.equal(app.output().match(/^SAVED /gm)?.length, 1, app.output());

  await burstOfReads(base, accountId, log, 12, app.output);
  assert.equal(app.child.exitCode, null, 'the app is still running');
  assert.ok(!app.output().includes(sandbox.secret), 'the API secret is never printed');
}

/** The page's `deno run` line: its `--allow-net` entries and its `--allow-env` list. */
async function denoFlags(): Promise<{ net: string[]; env: string }> {
  const line = (await codeBlocks(PAGE)).get('Deno')?.find((block) => block.language === 'sh')?.code ?? '';
  const net = /--allow-net=(\S+)/.exec(line)?.[1];
  const env = /--allow-env=(\S+)/.exec(line)?.[1];
  assert.ok(net && env, `${PAGE}'s Deno section has a deno run line with --allow-net and --allow-env: ${line}`);
  assert.doesNotMatch(line, /--allow-read|--allow-all|\s-A\s/, 'no read permission, no blanket one');
  return { net: net.split(','), env };
}

/** Deno with the page's flags, its two `--allow-net` entries (listen address, service) moved to the test's ports. */
async function startDeno(port: number, sandbox: Sandbox, { withService = true } = {}) {
  const { net, env } = await denoFlags();
  assert.deepEqual(net, ['0.0.0.0:8000', '127.0.0.1:4010'], 'the listen address and the local sandbox');
  const allowNet = [`0.0.0.0:${port}`, ...(withService ? [new URL(sandbox.url).host] : [])].join(',');
  return runCommand(bin('deno'), ['run', `--allow-net=${allowNet}`, `--allow-env=${env}`, 'main.ts'], appDir, {
    ...RUNTIME_ENV,
    ...appConfig(sandbox),
    PORT: String(port),
  });
}

before(async () => {
  assert.ok(existsSync(`${runtimesPackageDir}/dist/server/index.js`), 'run `npm run test:packaging` (install-packed.ts)');
  assert.ok(existsSync(bin('deno')) && existsSync(bin('bun')), 'run `npm run test:packaging` (install-toolchains.ts)');
  await rm(appDir, { recursive: true, force: true });
  await writeSnippet(await snippet('One app module for every runtime'), SAVE_ACCOUNT);
});

describe(`${PAGE}, Deno`, () => {
  test(
    "main.ts with the page's permissions: a token, the sandbox's webhook handled once, 12 page loads through one client with no 429",
    BOUND,
    async () => {
      await writeSnippet(await snippet('Deno'));
      await servesThePage((port, sandbox) => startDeno(port, sandbox));
    },
  );

  test('the permissions are in force: without the service in --allow-net, the token route cannot reach it', BOUND, async () => {
    const port = await freePort();
    const { sandbox } = await sandboxFor(port);
    const app = await startDeno(port, sandbox, { withService: false });
    cleanup.push(() => app.stop());
    await listening(port, app.child, app.output);
    const answer = await mintToken(`http://127.0.0.1:${port}`);
    assert.equal(answer.status, 503, await answer.text());
    assert.equal(sandbox.store.linkTokens().length, 0);
    assert.match(app.output(), /NotCapable|--allow-net/, 'Deno refused the connection');
  });
});

describe(`${PAGE}, Bun`, () => {
  test("server.ts: a token, the sandbox's webhook handled once, 12 page loads through one client with no 429", BOUND, async () => {
    const file = await writeSnippet(await snippet('Bun'));
    await servesThePage(async (port, sandbox) =>
      runCommand(bin('bun'), ['run', file], appDir, {
        ...RUNTIME_ENV,
        ...appConfig(sandbox),
        PORT: String(port),
      }),
    );
  });
});

/** What `edge-runtime` exports, as far as this test uses it (it is installed in runtimes/, not beside this file). */
interface EdgeRuntimeModule {
  EdgeRuntime: new (options: { initialCode: string; extend: (context: Record<string, unknown>) => Record<string, unknown> }) => unknown;
  runServer(options: { runtime: unknown; port: number; host: string }): Promise<{ url: string; close(): Promise<void> }>;
}

describe(`${PAGE}, Vercel edge functions`, () => {
  test(
    "the route, bundled into one script as Vercel does, runs in edge-runtime: a token, the sandbox's webhook, reads through its one client with no 429",
    BOUND,
    async () => {
      const route = await writeSnippet(await snippet('Vercel edge functions'));
      // What Vercel's build adds around a route: its methods answer the fetch event.
      const entry = `${appDir}vercel-entry.js`;
      await writeFile(
        entry,
        `import * as route from ${JSON.stringify(route)};\n` +
          `if (route.runtime !== 'edge') throw new Error('the route does not ask for the edge runtime');\n` +
          `addEventListener('fetch', (event) => {\n` +
          `  const handler = route[event.request.method];\n` +
          `  event.respondWith(handler ? handler(event.request) : new Response(null, { status: 405 }));\n` +
          `});\n`,
      );
      const bundle = await build({
        entryPoints: [entry],
        bundle: true,
        write: false,
        format: 'iife',
        platform: 'browser',
        conditions: ['edge-light', 'worker'],
        target: 'es2022',
        logLevel: 'silent',
      });
      const code = bundle.outputFiles[0]!.text;
      assert.doesNotMatch(code, /from "node:|require\("node:/, 'no Node built-in in the bundle');

      const port = await freePort();
      const { sandbox, log } = await sandboxFor(port);
      const { EdgeRuntime, runServer } = (await import(
        pathToFileURL(`${runtimesDir}node_modules/edge-runtime/dist/index.js`).href
      )) as EdgeRuntimeModule;
      const env = appConfig(sandbox);
      // Vercel's edge runtime gives the function process.env, and nothing else of process.
      const runtime = new EdgeRuntime({ initialCode: code, extend: (context) => Object.assign(context, { process: { env } }) });
      const server = await runServer({ runtime, port, host: '127.0.0.1' });
      cleanup.push(() => server.close());

      const base = server.url.replace(/\/$/, '');
      const accountId = await connectThroughApp(base, sandbox, () => '');
      await burstOfReads(base, accountId, log, 6, () => '');
    },
  );
});

describe(`${PAGE}, Netlify edge functions`, () => {
  test(
    "the edge function type-checks (deno check, Netlify global declared; with the Deno section's main.ts), and a misspelt call does not",
    BOUND,
    async () => {
      const file = await writeSnippet(await snippet('Netlify edge functions'));
      const main = await writeSnippet(await snippet('Deno'));
      await writeFile(`${appDir}netlify-global.d.ts`, NETLIFY_GLOBAL);
      const check = (...targets: string[]) =>
        promisify(execFile)(bin('deno'), ['check', 'netlify-global.d.ts', ...targets], {
          cwd: appDir,
          env: { PATH: process.env.PATH, ...RUNTIME_ENV },
        });
      await check(file, main);
      const wrong = `${appDir}netlify/edge-functions/wrong.ts`;
      await writeFile(
        wrong,
        (await snippet('Netlify edge functions')).replace("Netlify.env.get('PAYROLL_BASE_URL')", "Netlify.env.gett('PAYROLL_BASE_URL')"),
      );
      await assert.rejects(check(wrong), (error: { stdout: string; stderr: string }) => /gett/.test(error.stderr + error.stdout));
    },
  );
});
