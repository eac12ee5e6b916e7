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
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { startFakeLinkServer } from '../browser/fake-servers.mjs';
import { buildApp, type ViteApp } from './build-app.js';
import { installedPackageDir } from './install-packed.js';
import { assertSession, fakeTokenPath, runSession, successfulLinkUrl, type SessionResult } from './run-session.js';
import { serveApp, type AppServer, type ServeOptions } from './serve-app.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const appsDir = fileURLToPath(new URL('./apps/', import.meta.url));

let browser: Browser;
let fakeLink: { origin: string; close(): Promise<void> };
let outRoot: string;

before(async () => {
  assert.ok(
    existsSync(`${installedPackageDir}/package.json`),
    'run `npm run test:packaging` (it builds, packs and installs the package first)',
  );
  outRoot = await mkdtemp(join(tmpdir(), 'payroll-link-apps-'));
  fakeLink = await startFakeLinkServer();
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
});

after(async () => {
  await browser?.close();
  await fakeLink?.close();
  if (outRoot) await rm(outRoot, { recursive: true, force: true });
});

/** One session in the app `server` serves, with the Link and token URLs in the page's query (see apps/shared/harness.ts). */
function runAppSession(server: AppServer, options: { prefetch: boolean }): Promise<SessionResult> {
  const key = randomUUID();
  const query = new URLSearchParams({ link: successfulLinkUrl(fakeLink.origin), token: fakeTokenPath(key) });
  return runSession(browser, {
    pageUrl: `${server.origin}/index.html?${query}`,
    key,
    callsOrigin: server.origin,
    prefetch: options.prefetch,
    isTokenRequest: (url) => url.pathname === '/fake-token' && url.searchParams.get('key') === key,
  });
}

/** Every module of payroll-link in an app's bundle came from the packed package, none from the sources. */
function assertFromTarball(moduleIds: string[]): void {
  const ours = moduleIds.filter(
    (id) => /payroll-link\/(dist|src)\//.test(id) || id.startsWith(`${root}src/`) || id.startsWith(`${root}dist/`),
  );
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

test('plain HTML page with only the bundled files, under a strict CSP and Permissions-Policy', async () => {
  // The docs' header lines, with the fake Link origin; the token endpoint is on the page's own origin.
  const server = await serveApp({
    mounts: { '/': `${appsDir}plain-html`, '/node_modules/payroll-link/': `${installedPackageDir}/` },
    pageHeaders: {
      'content-security-policy': `default-src 'self'; frame-src ${fakeLink.origin}; connect-src 'self'; base-uri 'none'; object-src 'none'; require-trusted-types-for 'script'`,
      'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    },
  });
  try {
    const result = await runAppSession(server, { prefetch: true });
    assert.deepEqual(result.violations, []);
    assertSession(result, 'user-plain-html');
  } finally {
    await server.close();
  }
});

test('plain HTML: the session code loads on intent, not with the page; a failed load is reported, and the next click loads it again', async () => {
  const server = await serveApp({ mounts: { '/': `${appsDir}plain-html`, '/node_modules/payroll-link/': `${installedPackageDir}/` } });
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const sessionRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/payroll-link.session.js')) sessionRequests.push(request.url());
  });
  // The network fails the session's code until the test says otherwise (a dropped connection: outside the package).
  let failing = true;
  await page.route(/\/payroll-link\.session\.js(\?|$)/, (route) => (failing ? route.abort('failed') : route.continue()));
  try {
    const key = randomUUID();
    const query = new URLSearchParams({ link: successfulLinkUrl(fakeLink.origin), token: fakeTokenPath(key) });
    // goto waits for the load event: every module script of the page has run by then.
    await page.goto(`${server.origin}/index.html?${query}`);
    await page.waitForFunction(() => customElements.get('payroll-link') !== undefined && Array.isArray(window.payrollLinkSeen));
    assert.deepEqual(sessionRequests, [], 'the page loads nothing of the session before intent');
    const asked = page.waitForRequest((request) => new URL(request.url()).pathname.endsWith('/payroll-link.session.js'), {
      timeout: 10_000,
    });
    await page.locator('payroll-link button').hover();
    await asked;
    await page.locator('payroll-link button').click();
    await page.waitForFunction(() => window.payrollLinkSeen?.some((seen) => seen.kind === 'exit') ?? false, undefined, { timeout: 10_000 });
    const failed = await page.evaluate(() => window.payrollLinkSeen);
    assert.deepEqual(
      failed.map((seen) => seen.kind),
      ['error', 'exit'],
    );
    assert.equal((failed[0]!.detail as { code: string }).code, 'SESSION_CODE_UNAVAILABLE');
    assert.equal((failed[1]!.detail as { reason: string }).reason, 'error');
    failing = false;
    await page.locator('payroll-link button').click();
    await page.waitForFunction(() => (window.payrollLinkSeen?.filter((seen) => seen.kind === 'exit').length ?? 0) === 2, undefined, {
      timeout: 15_000,
    });
    const seen = await page.evaluate(() => window.payrollLinkSeen);
    assert.deepEqual(
      seen.map((entry) => entry.kind),
      ['error', 'exit', 'open', 'login', 'success', 'exit'],
    );
    assert.equal((seen[5]!.detail as { reason: string }).reason, 'completed');
    assert.deepEqual(pageErrors, []);
  } finally {
    await page.close();
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
      const result = await runAppSession(server, { prefetch });
      if (react) assert.match(result.reactVersion ?? '', react);
      if (effects !== undefined) assert.equal(result.effects, effects);
      assertSession(result, `user-${app}`);
    } finally {
      await server.close();
    }
  });
}
