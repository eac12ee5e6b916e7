// docs/reading-data.md as written, from the packed package, against the real sandbox started from the
// installed package (its default rate limit of 10 per second on): the page's modules (the client,
// reading an account, a job and its wait, the three ways through a list, the errors, per-call bounds,
// the rate-limit set-ups, the token handler on the app's client), docs/backend.md's webhook handler that
// fetches the VOE/VOIE reports on `verification_reports.refreshed`, and the README's quick start. They
// run in an app of their own process (servers/reading-data/), whose driver (main.ts, this test's own)
// serves the token route and the webhooks and calls the docs' functions. Every call that carries the
// secret goes through the docs' one client (the account is connected through the Link API, which the
// rate limit does not count), so the sandbox must answer no 429 at all. Only `saveAccount` and
// `saveReport`, which the docs leave to you, are the test's (they print what they saved).
// Needs install-toolchains.ts and install-packed.ts first: `npm run test:packaging` runs both.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { listening, runApp } from './app-process.js';
import { codeBlocks, READING_DATA_SNIPPETS } from './docs-snippet.js';
import { freePort } from '../free-port.js';
import { installedPackageDir } from './install-packed.js';
import { startInstalledSandbox, type InstalledSandbox } from './installed-sandbox.js';

const appDir = fileURLToPath(new URL('./servers/reading-data/', import.meta.url));
const WEBHOOK_SECRET = 'whsec_packaging_reading_data_0123';

/**
 * Waits until every delivery of `name` so far has settled and asserts each reached the app's handler
 * with a 2xx (the sandbox retries a failure a few times, then gives up): a broken handler fails here
 * instead of leaving a wait for its output line hanging.
 */
async function delivered(name: string): Promise<void> {
  const deliveries = sandbox!.webhooks.deliveries.filter((delivery) => delivery.event.event === name);
  assert.ok(deliveries.length > 0, `the sandbox sent ${name}`);
  for (const delivery of deliveries) {
    const settled = await sandbox!.webhooks.whenSettled(delivery);
    assert.equal(settled.status, 'delivered', `${name}: ${String(settled.lastError)}\n${app!.output()}`);
  }
}

/** Stands in for the integrator's own data layer (prepended to webhooks.ts). */
const SAVERS = `const saveAccount = async (endUserId: string, accountId: string): Promise<void> => {
  console.log('SAVED ' + JSON.stringify({ endUserId, accountId }));
};
const saveReport = async (endUserId: string, report: object): Promise<void> => {
  console.log('REPORT ' + JSON.stringify({ endUserId, report }));
};
`;

/** The test's driver: the routes of the docs' handlers, and /run and /readme, which call the docs' functions. */
const MAIN = `import { createServer } from 'node:http';
import { toNodeHandler } from 'payroll-link/server/node';
import { handleLinkToken } from './link-token.js';
import { handleWebhook } from './webhooks.js';
import { readAccount } from './read-account.js';
import { refreshPaystubs, disconnectAccount } from './refresh-paystubs.js';
import { employerNames, connectedAccountsPage, latestPaystubs } from './pagination.js';
import { findAccount, startPaystubsSync } from './find-account.js';
import { employmentForPage } from './employment-for-page.js';
import { granted, reads, slowJobs, unpaced } from './rate-limits.js';
import { createSandboxAccount } from './sandbox-account.js';

async function scenario(accountId: string) {
  const account = await readAccount(accountId);
  // Six page loads at once, on one client: paced, none refused.
  const burst = await Promise.all(Array.from({ length: 6 }, () => readAccount(accountId)));
  const refreshed = await refreshPaystubs(accountId);
  const names = await employerNames();
  const firstPage = await connectedAccountsPage(null);
  const latest = await latestPaystubs(accountId);
  const found = await findAccount(accountId);
  const unknown = await findAccount(crypto.randomUUID());
  const sync = await startPaystubsSync(accountId);
  const employment = await employmentForPage(accountId, new Request('http://localhost/account'));
  const disconnected = await disconnectAccount(accountId);
  const afterDisconnect = await startPaystubsSync(accountId);
  // Last: a second account would change the lists above.
  const created = await createSandboxAccount('user-43');
  return {
    account: { id: account.account.id, employmentAccountId: account.employment['account_id'], incomeAccountId: account.income['account_id'], paystubs: account.paystubs.length },
    burst: burst.map((read) => read.paystubs.length),
    refreshed: { status: refreshed.status, name: refreshed['name'] },
    employers: { count: names.length, distinct: new Set(names).size },
    firstPage,
    latest: latest.map((paystub) => paystub['account_id']),
    found: found?.id ?? null,
    unknown,
    sync,
    employmentAccountId: employment['account_id'],
    disconnected,
    afterDisconnect,
    clients: [granted, reads, slowJobs, unpaced].map((client) => client.version),
    created: { isId: /^[0-9a-f-]{36}$/.test(created), other: created !== accountId },
  };
}

const routes: Record<string, (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void> = {
  '/api/link-token': toNodeHandler(handleLinkToken),
  '/api/webhooks': toNodeHandler(handleWebhook),
  '/run': (req, res) => {
    const accountId = new URL(req.url ?? '/', 'http://localhost').searchParams.get('account')!;
    scenario(accountId).then(
      (result) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result)),
      (error) => res.writeHead(500).end(String(error?.stack ?? error)),
    );
  },
  '/readme': (req, res) => {
    // The README's snippet reads a free accountId (the reader's): given here as a global.
    (globalThis as Record<string, unknown>)['accountId'] = new URL(req.url ?? '/', 'http://localhost').searchParams.get('account');
    import('./readme-read-data.js').then(
      () => res.writeHead(200).end('done'),
      (error) => res.writeHead(500).end(String(error?.stack ?? error)),
    );
  },
};
createServer((req, res) => {
  const route = routes[new URL(req.url ?? '/', 'http://localhost').pathname];
  if (route) return void route(req, res);
  res.writeHead(404).end();
}).listen(Number(process.env.PORT));
`;

let sandbox: InstalledSandbox | undefined;
let app: ReturnType<typeof runApp> | undefined;
after(async () => {
  app?.stop();
  await sandbox?.close();
  await rm(appDir, { recursive: true, force: true });
});

/** Calls the sandbox's Link API (no secret: the hosted page's own API, outside the rate limit). */
async function linkApi(
  path: string,
  session: string | null,
  body?: unknown,
): Promise<{ status: number; data: Record<string, unknown> & { data?: never } }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (session !== null) headers['x-link-session'] = session;
  const response = await fetch(`${sandbox!.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: Record<string, unknown> & { data?: never } };
  return { status: response.status, data: json.data };
}

test('docs/reading-data.md, the backend.md reports webhook and the README quick start run as written against the installed sandbox, with no 429', async () => {
  assert.ok(existsSync(`${installedPackageDir}/dist/sandbox/index.js`), 'run `npm run test:packaging` (install-packed.ts)');
  await rm(appDir, { recursive: true, force: true });
  await mkdir(appDir, { recursive: true });
  for (const [page, section, block, file] of READING_DATA_SNIPPETS) {
    const code = (await codeBlocks(page)).get(section)?.filter((candidate) => candidate.language === 'ts')[block]?.code;
    assert.ok(code !== undefined, `${page} has ts block ${block} of "${section}"`);
    await writeFile(`${appDir}${file}`, file === 'webhooks.ts' ? SAVERS + code : code);
  }
  await writeFile(`${appDir}main.ts`, MAIN);

  const port = await freePort();
  const answers: string[] = [];
  sandbox = await startInstalledSandbox(`http://127.0.0.1:${port}/api/webhooks?secret=${WEBHOOK_SECRET}`, (line) => answers.push(line));
  app = runApp(`${appDir}main.ts`, appDir, {
    PAYROLL_API_SECRET: sandbox.secret,
    PAYROLL_BASE_URL: sandbox.url,
    PAYROLL_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PORT: String(port),
  });
  await listening(port, app.child, app.output);
  const base = `http://127.0.0.1:${port}`;

  // A user connects: a token from the docs' handler (on the docs' client), then the Link API's login.
  const saved = app.line(/^SAVED /);
  const tokenResponse = await fetch(`${base}/api/link-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"end_user_id":"user-42"}',
  });
  assert.equal(tokenResponse.status, 200, app.output());
  const { data: token } = (await tokenResponse.json()) as { data: { token: string } };
  const session = await linkApi('/link/api/sessions', null, { token: token.token });
  assert.equal(session.status, 201);
  const search = (await fetch(`${sandbox.url}/link/api/search?q=`, {
    headers: { 'x-link-session': String(session.data['session_id']) },
  }).then((r) => r.json())) as {
    data: { kind: string; id: string; platform_id: string; platform_type: string }[];
  };
  const payroll = search.data.find((entry) => entry.platform_type === 'payroll');
  assert.ok(payroll, 'the search lists a payroll platform or employer');
  const login = await linkApi('/link/api/login', String(session.data['session_id']), {
    platform_id: payroll.kind === 'platform' ? payroll.id : payroll.platform_id,
    username: 'user_good',
    password: 'pass_good',
  });
  assert.equal(login.status, 200);
  const accountId = String(login.data['account_id']);
  await delivered('account.added');
  assert.deepEqual(JSON.parse((await saved).slice('SAVED '.length)), { endUserId: 'user-42', accountId });

  // The docs' functions, in order. refreshPaystubs' job sends verification_reports.refreshed: the webhook fetches both reports.
  const voe = app.line(/^REPORT .*"type":"voe"/);
  const voie = app.line(/^REPORT .*"type":"voie"/);
  const run = await fetch(`${base}/run?account=${accountId}`);
  const text = await run.text();
  assert.equal(run.status, 200, `${text}\n${app.output()}`);
  const result = JSON.parse(text);
  assert.deepEqual(result.account, { id: accountId, employmentAccountId: accountId, incomeAccountId: accountId, paystubs: 3 });
  assert.deepEqual(result.burst, [3, 3, 3, 3, 3, 3]);
  assert.deepEqual(result.refreshed, { status: 'success', name: 'paystubs' });
  assert.deepEqual(result.employers, { count: 300, distinct: 300 });
  assert.deepEqual(result.firstPage, { accountIds: [accountId], nextCursor: null });
  assert.deepEqual(result.latest, [accountId, accountId, accountId, accountId, accountId]);
  assert.equal(result.found, accountId);
  assert.equal(result.unknown, null);
  assert.equal(result.sync, 'started');
  assert.equal(result.employmentAccountId, accountId);
  assert.equal(result.disconnected, 'disconnected');
  assert.equal(result.afterDisconnect, 'disconnected');
  assert.deepEqual(result.clients, ['2025-07-08', '2025-07-08', '2025-07-08', '2025-07-08']);
  assert.deepEqual(result.created, { isId: true, other: true });
  await delivered('verification_reports.refreshed');
  for (const [line, type] of [
    [await voe, 'voe'],
    [await voie, 'voie'],
  ] as const) {
    const { endUserId, report } = JSON.parse(line.slice('REPORT '.length)) as { endUserId: string; report: Record<string, unknown> };
    assert.equal(endUserId, 'user-42');
    assert.equal(report['type'], type);
    assert.equal(report['end_user_id'], 'user-42');
    assert.equal('response' in report, false, "JSON leaves the client's response out");
  }
  // The list was fetched a page at a time: 300 employers, 100 a page.
  assert.equal(answers.filter((line) => line.startsWith('GET /employers 200 ')).length, 3);
  // One client for tokens, reads, jobs and webhooks' reads: the service's limit was never hit.
  assert.deepEqual(
    answers.filter((line) => / 429 /.test(line)),
    [],
    'no 429 at the sandbox',
  );

  // The README's quick start: its own client (so it runs after the rest; a 429 would be retried, and must not fail it).
  const readme = await fetch(`${base}/readme?account=${accountId}`);
  assert.equal(readme.status, 200, `${await readme.text()}\n${app.output()}`);
  // It prints the pay_date and gross_pay of each of the account's 12 paystubs.
  assert.equal((app.output().match(/^\d{4}-\d{2}-\d{2} \d+$/gm) ?? []).length, 12, app.output());
  assert.ok(!app.output().includes(sandbox.secret), 'the API secret is never printed');
});
