// The example apps, built from the packed package and driven in Debian's Chromium: each opens a
// session against the fake Link page (the service's hosted flow is outside the package: faked) and
// must see typed callbacks with the account id and the job id, one token fetch and one frame.
// Needs build:package and install-packed.ts first (`npm run test:packaging` runs them in order).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { startFakeLinkServer } from '../browser/fake-servers.mjs';
import type { Seen } from './apps/shared/harness.js';
import { buildApp, type ViteApp } from './build-app.js';
import { installedPackageDir } from './install-packed.js';
import { serveApp, type AppServer, type ServeOptions } from './serve-app.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const appsDir = fileURLToPath(new URL('./apps/', import.meta.url));

/** The ids the fake Link page sends (test/browser/fake-link/fake-link.ts, scenario "success"). */
const FAKE_ACCOUNT_ID = '3f0c2a3e-5d6b-4c8d-9e0f-1a2b3c4d5e6f';
const FAKE_JOB_ID = '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let browser: Browser;
let fakeLink: { origin: string; close(): Promise<void> };
let outRoot: string;

before(async () => {
  assert.ok(existsSync(`${installedPackageDir}/package.json`), 'run `npm run test:packaging` (it builds, packs and installs the package first)');
  outRoot = await mkdtemp(join(tmpdir(), 'payroll-link-apps-'));
  fakeLink = await startFakeLinkServer();
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
});

after(async () => {
  await browser?.close();
  await fakeLink?.close();
  if (outRoot) await rm(outRoot, { recursive: true, force: true });
});

/** What one session in one app showed. */
interface SessionResult {
  seen: Seen[];
  tokenCalls: Array<{ method: string; body: string }>;
  litCopies: number;
  reactVersion: string | undefined;
  effects: number;
  violations: string[];
  pageErrors: string[];
}

/**
 * Opens the app's page, waits for the token fetched ahead when the app asks
 * for `prefetch`, clicks the button as a user would, and waits for `exit`.
 */
async function runSession(server: AppServer, options: { prefetch: boolean }): Promise<SessionResult> {
  const key = randomUUID();
  const tokenPath = `/fake-token?key=${key}&plan=ok`;
  const linkUrl = `${fakeLink.origin}/fake-link.html?scenario=success`;
  const page: Page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  try {
    const isTokenFetch = (url: URL) => url.pathname === '/fake-token' && url.searchParams.get('key') === key;
    const tokenRequest = page.waitForRequest((request) => isTokenFetch(new URL(request.url())), { timeout: 10_000 });
    await page.goto(`${server.origin}/index.html?link=${encodeURIComponent(linkUrl)}&token=${encodeURIComponent(tokenPath)}`);
    // With prefetch, the token is on its way before any click.
    if (options.prefetch) await tokenRequest;
    await page.locator('payroll-link button').click();
    // The session's end, or a policy violation (the plain page records them) that would stop it.
    const ended = () =>
      window.payrollLinkSeen?.some((seen) => seen.kind === 'exit') || (window.payrollLinkViolations?.length ?? 0) > 0;
    await page.waitForFunction(ended, undefined, { timeout: 15_000 });
    const state = await page.evaluate(() => ({
      seen: window.payrollLinkSeen,
      litCopies: (window.litElementVersions ?? []).length,
      reactVersion: window.payrollLinkReact,
      effects: window.payrollLinkEffects ?? 0,
      violations: window.payrollLinkViolations ?? [],
    }));
    const tokenCalls = (await (await fetch(`${server.origin}/fake-token/calls?key=${key}`)).json()) as SessionResult['tokenCalls'];
    return { ...state, tokenCalls, pageErrors };
  } finally {
    await page.close();
  }
}

/** The checks every app shares: typed details with the fake's ids, in order, one frame, one token, one Lit. */
function assertSession(result: SessionResult, endUserId: string): void {
  assert.deepEqual(result.pageErrors, []);
  assert.deepEqual(
    result.seen.map((s) => s.kind),
    ['open', 'login', 'success', 'exit'],
  );
  const [open, login, success, exit] = result.seen as [Seen, Seen, Seen, Seen];
  const linkTokenId = (open.detail as { linkTokenId: string }).linkTokenId;
  assert.match(linkTokenId, UUID);
  assert.deepEqual(login.detail, { accountId: FAKE_ACCOUNT_ID, platformId: (login.detail as { platformId: string }).platformId, linkTokenId });
  assert.deepEqual(success.detail, { accountId: FAKE_ACCOUNT_ID, jobId: FAKE_JOB_ID, linkTokenId });
  assert.deepEqual(exit.detail, { reason: 'completed', error: null, linkTokenId, accountId: FAKE_ACCOUNT_ID });
  // One Link frame while the session runs, none once it has ended.
  assert.deepEqual(
    result.seen.map((s) => s.frames),
    [1, 1, 1, 0],
  );
  assert.equal(result.tokenCalls.length, 1, 'one token fetch per session');
  assert.equal(result.tokenCalls[0]!.method, 'POST');
  assert.deepEqual(JSON.parse(result.tokenCalls[0]!.body), { end_user_id: endUserId });
  assert.equal(result.litCopies, 1, 'one copy of Lit on the page');
}

/** Every module of payroll-link in an app's bundle came from the packed package, none from the sources. */
function assertFromTarball(moduleIds: string[]): void {
  const ours = moduleIds.filter((id) => /payroll-link\/(dist|src)\//.test(id) || id.startsWith(`${root}src/`) || id.startsWith(`${root}dist/`));
  assert.ok(ours.length > 0, 'the bundle contains payroll-link');
  for (const id of ours) assert.ok(id.startsWith(`${installedPackageDir}/dist/`), `${id} is not from the packed package`);
}

async function buildAndServe(app: ViteApp, extra: Partial<ServeOptions> = {}): Promise<{ server: AppServer; moduleIds: string[] }> {
  const built = await buildApp(app, join(outRoot, app));
  const server = await serveApp({ mounts: { '/': built.outDir }, ...extra });
  return { server, moduleIds: built.moduleIds };
}

test('the example apps type-check against the packed declarations', () => {
  execFileSync(`${root}node_modules/.bin/tsc`, ['-p', fileURLToPath(new URL('./tsconfig.json', import.meta.url))], { stdio: 'pipe' });
});

test('plain HTML page with only the bundled file, under a strict CSP and Permissions-Policy', async () => {
  // The README's header lines, with the fake Link origin; the token endpoint is on the page's own origin.
  const server = await serveApp({
    mounts: { '/': `${appsDir}plain-html`, '/node_modules/payroll-link/': `${installedPackageDir}/` },
    pageHeaders: {
      'content-security-policy': `default-src 'self'; frame-src ${fakeLink.origin}; connect-src 'self'; base-uri 'none'; object-src 'none'; require-trusted-types-for 'script'`,
      'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    },
  });
  try {
    const result = await runSession(server, { prefetch: true });
    assert.deepEqual(result.violations, []);
    assertSession(result, 'user-plain-html');
  } finally {
    await server.close();
  }
});

/** The Vite-built apps, and what each must show beyond the shared checks. */
const viteApps: Array<{ app: ViteApp; title: string; prefetch: boolean; react?: RegExp; effects?: number }> = [
  { app: 'react-18', title: 'React 18 app with payroll-link/react', prefetch: true, react: /^18\./ },
  { app: 'react-19', title: 'React 19 app with the bare element, fetchToken and onlink-* props', prefetch: false, react: /^19\./ },
  // Two runs of the root effect prove StrictMode's double invocation was on (React's development build).
  { app: 'react-strict', title: 'React 19 app in StrictMode: no duplicate frames, listeners or token fetches', prefetch: true, effects: 2 },
  { app: 'vue-3', title: 'Vue 3 app with isCustomElement', prefetch: true },
];

for (const { app, title, prefetch, react, effects } of viteApps) {
  test(title, async () => {
    const { server, moduleIds } = await buildAndServe(app);
    try {
      assertFromTarball(moduleIds);
      const result = await runSession(server, { prefetch });
      if (react) assert.match(result.reactVersion ?? '', react);
      if (effects !== undefined) assert.equal(result.effects, effects);
      assertSession(result, `user-${app}`);
    } finally {
      await server.close();
    }
  });
}
