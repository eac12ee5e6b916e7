// docs/edge.md's Cloudflare Workers snippet, as written, in workerd (wrangler dev, pinned in workerd/, no
// nodejs_compat flag, configuration read from env bindings), from the packed package, against the real sandbox:
// - the token handler mints a token;
// - the webhook handler on d1EventStore (a local D1, its table created on first use): the sandbox's own
//   account.added runs the callback; simultaneous copies of one event run it once, each answered 200 or 503
//   EVENT_IN_PROGRESS; a copy after a restart of the Worker is a duplicate;
// - one client shared across requests (also the token handler's): an over-limit burst meets no 429 at the
//   sandbox, and requests that end while their calls still wait for their turn leave every later call working,
//   with no "different request context" warning and no hung request in workerd's log. Both failed on the
//   limiter of 0.1.0, which kept one timer for all callers: workerd cancels a timer with the request that set it.
// - createLinkLaunches (#42, #47) on the same D1 (its launch table, payroll_link_launches, made on first use): a
//   launch completed (a `success` the service confirmed, onResult once); two reports of the same success at once,
//   onResult once (counted in a D1 table of the test's), each answered 200 or 503 RESULT_IN_PROGRESS that a retry
//   answers 200, then connected; the token cap counted in D1 across a restart of the Worker (the sixth token 429).
// The sandbox sits behind a counting proxy (test/node/client-fake-outside.ts: it only passes requests on) so that
// the test sees each 429 the sandbox answers. Only `saveAccount`, which the docs leave to you, comes from the test.
// Needs install-toolchains.ts and install-packed.ts first: `npm run test:packaging` runs both.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.js';
import { startFakeOutside, type FakeOutside } from '../node/client-fake-outside.js';
import { freePort } from '../free-port.js';
import { docsSnippet } from './docs-snippet.js';
import { connectAccount as connectWithLinkToken } from '../node/sandbox-test-client.js';

const workerdDir = fileURLToPath(new URL('./workerd/', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const WEBHOOK_SECRET = 'whsec_packaging_workerd_test_0123';
/** Bounds every request of the test: a Worker that hangs fails the test, it does not stall it. */
const REQUEST_BOUND_MS = 30_000;

/** Stands in for the integrator's own data layer. */
const SAVE_ACCOUNT = `const saveAccount = async (endUserId: string, accountId: string): Promise<void> => {
  console.log('SAVED ' + JSON.stringify({ endUserId, accountId }));
};
`;

/**
 * The test's entry, around the docs' Worker: with ?give-up-after-ms=N it answers 504 after N ms whether or not
 * the docs' route has answered, as a framework's timeout would. The request then ends with its reads still
 * waiting for their turn (wrangler dev does not pass a caller's disconnect on, so the test gives up inside).
 * It also mounts createLinkLaunches on the same D1 under /link/ (#42), and creates launches at POST /test/launches
 * (an app's own authenticated route, in a real Worker).
 */
const TEST_ENTRY = `import worker from './index';
import { createPayrollClient } from 'payroll-link/server';
import { createLinkLaunches } from 'payroll-link/server/launches';
import { d1EventStore } from 'payroll-link/server/d1';

interface Env {
  DB: D1Database;
  PAYROLL_API_SECRET: string;
  PAYROLL_BASE_URL: string;
  PAYROLL_LINK_URL: string;
  PAYROLL_LAUNCH_SECRET: string;
}
let launches: ReturnType<typeof createLinkLaunches> | undefined;
function launchesFor(env: Env, origin: string) {
  launches ??= createLinkLaunches({
    client: createPayrollClient({ apiSecret: env.PAYROLL_API_SECRET, baseUrl: env.PAYROLL_BASE_URL, version: '2025-07-08', mode: 'sandbox' }),
    orgName: 'Acme Lending',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    linkUrl: env.PAYROLL_LINK_URL,
    publicUrl: origin + '/link',
    secret: env.PAYROLL_LAUNCH_SECRET,
    store: d1EventStore(env.DB),
    // Each run recorded in D1 (the integrator's own table): the test counts the runs exactly, not log lines.
    onResult: async (result) => {
      await env.DB.prepare('CREATE TABLE IF NOT EXISTS launch_results (launch_id TEXT, status TEXT)').run();
      await env.DB.prepare('INSERT INTO launch_results VALUES (?1, ?2)').bind(result.launchId, result.status).run();
    },
  });
  return launches;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { origin, pathname } = new URL(request.url);
    if (pathname === '/test/launches') return Response.json(await launchesFor(env, origin).create(await request.json()));
    if (pathname === '/test/launch-results') {
      const { results } = await env.DB.prepare('SELECT status FROM launch_results WHERE launch_id = ?1')
        .bind(new URL(request.url).searchParams.get('id'))
        .all();
      return Response.json(results.map((row) => row.status));
    }
    if (pathname.startsWith('/link/')) return launchesFor(env, origin).handle(request);
    const giveUpAfter = new URL(request.url).searchParams.get('give-up-after-ms');
    if (giveUpAfter === null) return worker.fetch(request, env as never);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gaveUp = new Promise<Response>((resolve) => {
      timer = setTimeout(() => resolve(new Response('gave up', { status: 504 })), Number(giveUpAfter));
    });
    try {
      return await Promise.race([worker.fetch(request, env as never), gaveUp]);
    } finally {
      clearTimeout(timer);
    }
  },
};
`;

const WRANGLER_TOML = `name = "payroll-link-workerd-test"
main = "test-entry.ts"
compatibility_date = "2025-01-01"

[[d1_databases]]
binding = "DB"
database_name = "payroll-link-workerd-test"
database_id = "00000000-0000-0000-0000-000000000000"
`;

let sandbox: Sandbox;
let outside: FakeOutside;
let appDir: string;
let port: number;
let worker: { child: ChildProcess; output: () => string } | undefined;
/** Connected before the Worker starts: the sandbox counts the test's own call in the secret's limit too, and the burst must meet a window the Worker's calls alone fill. */
let burstAccountId: string;
let laterAccountId: string;
const logs: string[] = [];

/** Starts `wrangler dev` on the app, with the sandbox's settings as bindings; resolves once it is ready. */
async function startWorker(): Promise<void> {
  const wrangler = fileURLToPath(new URL('./workerd/node_modules/wrangler/bin/wrangler.js', import.meta.url));
  const vars = {
    PAYROLL_API_SECRET: sandbox.secret,
    PAYROLL_BASE_URL: outside.url,
    PAYROLL_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PAYROLL_LINK_URL: `${sandbox.url}/link`,
    PAYROLL_LAUNCH_SECRET: 'launch-secret-for-the-workerd-test-0123456789',
  };
  const child = spawn(
    process.execPath,
    [
      wrangler,
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--persist-to',
      `${appDir}/state`,
      '--show-interactive-dev-session=false',
      ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
    ],
    {
      cwd: appDir,
      // Loopback only: no request.cf lookup, no update check (the banner's), no metrics.
      env: {
        PATH: process.env.PATH,
        HOME: appDir,
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        WRANGLER_HIDE_BANNER: 'true',
        WRANGLER_SEND_METRICS: 'false',
        CI: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: string) => {
      output += chunk;
      if (/Ready on http:\/\/127\.0\.0\.1/.test(output)) resolve();
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.stderr!.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => reject(new Error(`wrangler dev exited (${code}): ${output}`)));
  });
  worker = { child, output: () => output };
  await ready;
}

/** Stops wrangler dev and its workerd, keeping what they logged. */
async function stopWorker(): Promise<void> {
  if (!worker) return;
  const { child, output } = worker;
  worker = undefined;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
  await exited;
  logs.push(output());
}

/** Everything workerd and wrangler printed so far. */
const allLogs = () => [...logs, worker?.output() ?? ''].join('\n');

const call = (path: string, init: RequestInit = {}) =>
  fetch(`http://127.0.0.1:${port}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_BOUND_MS) });

/** A launch for `endUserId`, created through the test's route: its id and its URL's path. */
async function createLaunch(endUserId: string): Promise<{ id: string; path: string }> {
  const created = await call('/test/launches', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ endUserId }),
  });
  assert.equal(created.status, 200, await created.clone().text());
  const { id, url } = (await created.json()) as { id: string; url: string };
  return { id, path: new URL(url).pathname };
}

const postJson = (path: string, body: unknown) =>
  call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** onResult's runs for a launch, as the Worker's onResult wrote them to D1: their statuses. */
const launchResults = async (id: string) => (await (await call(`/test/launch-results?id=${id}`)).json()) as string[];

const mintToken = () => call('/api/link-token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

const deliver = (event: unknown) =>
  call(`/api/webhooks?secret=${WEBHOOK_SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(event),
  });

/** A connected account in the sandbox, for an end user (the sandbox sends its account.added to the Worker). */
async function connectAccount(endUserId: string): Promise<string> {
  const response = await fetch(`${sandbox.url}/sandbox/accounts`, {
    method: 'POST',
    headers: { 'x-api-secret': sandbox.secret, 'service-version': '2025-07-08', 'content-type': 'application/json' },
    body: JSON.stringify({ end_user_id: endUserId }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  return ((await response.json()) as { data: { account: { id: string } } }).data.account.id;
}

/** Resolves once workerd has printed the callback's line for `accountId`; the Worker's console goes to wrangler's output. */
async function savedLines(accountId: string): Promise<number> {
  return allLogs()
    .split('\n')
    .filter((line) => line.includes('SAVED ') && line.includes(accountId)).length;
}

/** What workerd says when one request touched another's I/O, or a request hung. */
const CROSS_REQUEST = /different request context|canceled this request because it detected that your Worker's code had hung/i;

before(async () => {
  port = await freePort();
  sandbox = await startSandbox({ webhookUrl: `http://127.0.0.1:${port}/api/webhooks?secret=${WEBHOOK_SECRET}` });
  outside = await startFakeOutside(sandbox.url);
  await mkdir(workerdDir, { recursive: true });
  appDir = await mkdtemp(`${workerdDir}scratch-`);
  const snippet = await docsSnippet('docs/edge.md', 'Cloudflare Workers', 'ts');
  await writeFile(`${appDir}/index.ts`, `${SAVE_ACCOUNT}${snippet}`);
  await writeFile(`${appDir}/test-entry.ts`, TEST_ENTRY);
  await writeFile(`${appDir}/wrangler.toml`, WRANGLER_TOML);
  burstAccountId = await connectAccount(`user-${crypto.randomUUID()}`);
  laterAccountId = await connectAccount(`user-${crypto.randomUUID()}`);
  await startWorker();
});

after(async () => {
  await stopWorker();
  await outside?.close();
  await sandbox?.close();
  if (appDir) await rm(appDir, { recursive: true, force: true });
});

describe('Cloudflare Workers (workerd), docs/edge.md as written', { timeout: 240_000 }, () => {
  test("the snippet type-checks under strict against Cloudflare's own types (env.DB is a D1Database)", async () => {
    await writeFile(
      `${appDir}/tsconfig.json`,
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2023'],
          types: ['@cloudflare/workers-types'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        files: ['index.ts'],
      }),
    );
    execFileSync(`${root}node_modules/.bin/tsc`, ['-p', `${appDir}/tsconfig.json`], { encoding: 'utf8', stdio: 'pipe' });
  });

  test('the token handler mints a token, with its configuration from env bindings', async () => {
    const response = await mintToken();
    assert.equal(response.status, 200, await response.clone().text());
    const { data } = (await response.json()) as { data: { token: string; mode: string } };
    assert.match(data.token, /^link-sandbox-/);
    assert.equal(data.mode, 'sandbox');
  });

  test("webhooks on D1: the sandbox's account.added runs the callback once, its table made on first use", async () => {
    const endUserId = `user-${crypto.randomUUID()}`;
    const accountId = await connectAccount(endUserId);
    // The sandbox delivers it on its own: wait for the callback's line (the test's bound ends a miss).
    while ((await savedLines(accountId)) === 0) await new Promise((resolve) => worker!.child.stdout!.once('data', resolve));
    assert.match(allLogs(), new RegExp(`SAVED \\{"endUserId":"${endUserId}","accountId":"${accountId}"\\}`));
  });

  test('simultaneous copies of one event run the callback once; each is answered 200, or 503 EVENT_IN_PROGRESS', async () => {
    const accountId = crypto.randomUUID();
    const event = {
      event: 'account.added',
      event_id: crypto.randomUUID(),
      payload: { account_id: accountId, platform_name: 'Gusto Sandbox', end_user_id: 'user-copies' },
    };
    const answers = await Promise.all(Array.from({ length: 6 }, () => deliver(event)));
    const bodies = await Promise.all(answers.map(async (answer) => ({ status: answer.status, text: await answer.text() })));
    for (const { status, text } of bodies) {
      assert.ok(status === 200 || (status === 503 && text.includes('EVENT_IN_PROGRESS')), `${status} ${text}`);
    }
    // A copy that ran the callback answers 200 without `duplicate`: exactly one did.
    assert.equal(bodies.filter(({ status, text }) => status === 200 && !text.includes('"duplicate":true')).length, 1);

    // A copy after a restart: a new isolate, the same D1; the claim in the table makes it a duplicate.
    await stopWorker();
    await startWorker();
    const again = await deliver(event);
    assert.equal(again.status, 200);
    assert.deepEqual(await again.json(), { received: true, duplicate: true });
    assert.equal(await savedLines(accountId), 1);
  });

  test('one client shared across requests and given to the token handler: an over-limit burst, no 429 at the sandbox', async () => {
    const accountId = burstAccountId;
    const before429s = outside.sandbox429s();
    // 12 × 3 reads and 4 tokens: 40 calls against 10 per second, from 16 requests at once.
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, () => call(`/api/accounts/${accountId}/data`)),
      ...Array.from({ length: 4 }, () => mintToken()),
    ]);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      answers.map(() => 200),
    );
    const data = (await answers[0]!.json()) as { employment: { account_id: string }; paystubs: unknown[] };
    assert.equal(data.employment.account_id, accountId);
    assert.ok(Array.isArray(data.paystubs));
    assert.equal(outside.sandbox429s() - before429s, 0, 'no 429 at the sandbox');
    assert.doesNotMatch(allLogs(), CROSS_REQUEST);
  });

  test('requests that end while their calls wait for their turn leave every later call working', async () => {
    const accountId = laterAccountId;
    // 12 requests give up after 300 ms: most of their 36 reads still wait for their turn when their request ends.
    const gaveUp = await Promise.all(Array.from({ length: 12 }, () => call(`/api/accounts/${accountId}/data?give-up-after-ms=300`)));
    assert.ok(
      gaveUp.some((answer) => answer.status === 504),
      'some requests ended before their reads',
    );
    await Promise.all(gaveUp.map((answer) => answer.body?.cancel()));
    // Later calls, reads and a token, are served: none waits on a request that has ended.
    const later = await Promise.all([...Array.from({ length: 3 }, () => call(`/api/accounts/${accountId}/data`)), mintToken()]);
    assert.deepEqual(
      await Promise.all(later.map(async (answer) => `${answer.status} ${answer.status === 200 ? '' : await answer.text()}`)),
      later.map(() => '200 '),
    );
    assert.doesNotMatch(allLogs(), CROSS_REQUEST);
  });

  test('a launch (#42) created, opened and completed on D1: the page, a token with its receipt, the result once, then connected', async () => {
    const { id, path } = await createLaunch('user-launch');
    const page = await call(path);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<payroll-link /);
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    const minted = await postJson(`${path}/token`, {});
    assert.equal(minted.status, 200, await minted.clone().text());
    const { data, receipt } = (await minted.json()) as { data: { id: string; token: string }; receipt: string };
    const { accountId, jobId } = await connectWithLinkToken(sandbox, { token: data });
    const report = { status: 'success', linkTokenId: data.id, accountId, jobId, receipt };
    const first = await postJson(`${path}/result`, report);
    assert.equal(first.status, 200, await first.clone().text());
    assert.deepEqual(await first.json(), { data: { status: 'success', redirect: null } });
    assert.equal((await postJson(`${path}/result`, report)).status, 200, 'sent again: answered as before');
    // Both answered: onResult ran (and wrote its row) before the first answer; a second run would have before the second.
    assert.deepEqual(await launchResults(id), ['success'], 'a success the service confirmed');
    assert.match(await (await call(path)).text(), /already connected/);
    assert.doesNotMatch(allLogs(), CROSS_REQUEST);
  });

  test('the D1 launch store across two requests racing a success: onResult once; 200, or 503 RESULT_IN_PROGRESS that a retry answers 200; then connected', async () => {
    const { id, path } = await createLaunch('user-race');
    const minted = await postJson(`${path}/token`, {});
    assert.equal(minted.status, 200, await minted.clone().text());
    const { data, receipt } = (await minted.json()) as { data: { id: string; token: string }; receipt: string };
    const { accountId, jobId } = await connectWithLinkToken(sandbox, { token: data });
    const report = { status: 'success', linkTokenId: data.id, accountId, jobId, receipt };
    const answers = await Promise.all([postJson(`${path}/result`, report), postJson(`${path}/result`, report)]);
    const bodies = await Promise.all(answers.map(async (answer) => ({ status: answer.status, text: await answer.text() })));
    for (const { status, text } of bodies) {
      assert.ok(status === 200 || (status === 503 && text.includes('RESULT_IN_PROGRESS')), `${status} ${text}`);
      if (status === 200) assert.deepEqual(JSON.parse(text), { data: { status: 'success', redirect: null } });
    }
    assert.ok(
      bodies.some(({ status }) => status === 200),
      'the request that ran onResult answers 200',
    );
    // Both answered: the run is done and marked in D1, so a retry of a 503 is answered from it.
    for (const { status } of bodies.filter((body) => body.status === 503)) {
      const retry = await postJson(`${path}/result`, report);
      assert.equal(retry.status, 200, `a retry of the ${status}: ${await retry.clone().text()}`);
      assert.deepEqual(await retry.json(), { data: { status: 'success', redirect: null } });
    }
    assert.deepEqual(await launchResults(id), ['success'], 'onResult ran once');
    assert.match(await (await call(path)).text(), /already connected/);
    const again = await postJson(`${path}/token`, {});
    assert.equal(again.status, 409);
    assert.match(await again.text(), /LAUNCH_COMPLETED/);
    assert.doesNotMatch(allLogs(), CROSS_REQUEST);
  });

  test('the token cap counted in D1: three tokens at once, a restart of the Worker, three more at once: the sixth is 429', async () => {
    const { path } = await createLaunch('user-cap');
    const mintThree = async () =>
      Promise.all(
        (await Promise.all(Array.from({ length: 3 }, () => postJson(`${path}/token`, {})))).map(async (answer) => ({
          status: answer.status,
          text: await answer.text(),
        })),
      );
    assert.deepEqual(
      (await mintThree()).map(({ status }) => status),
      [200, 200, 200],
    );
    // A new isolate: nothing in memory; the count is the launch table's.
    await stopWorker();
    await startWorker();
    const afterRestart = await mintThree();
    assert.deepEqual(afterRestart.map(({ status }) => status).sort(), [200, 200, 429], JSON.stringify(afterRestart));
    assert.match(afterRestart.find(({ status }) => status === 429)!.text, /LAUNCH_TOKEN_LIMIT/);
    assert.doesNotMatch(allLogs(), CROSS_REQUEST);
  });
});
