// The docs' Next.js snippet (docs/nextjs.md), as written, built by the framework's own toolchain
// (`next build`, which also renders the page on the server) from the packed package, then driven
// in Debian's Chromium against the fake Link page (docs/angular.md's snippets: angular.test.ts). Only the
// Link URL is swapped: the service's hosted page is outside the package, and the test's traffic
// stays on loopback. Needs test/packaging/install-toolchains.ts (which installs the toolchains
// from the npm registry, once) and install-packed.ts first: `npm run test:packaging` runs both.
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { startFakeLinkServer } from '../browser/fake-servers.mjs';
import { frameworksPackageDir } from './install-packed.js';
import {
  FAKE_ACCOUNT_ID,
  FAKE_JOB_ID,
  assertSession,
  fakeTokenPath,
  runSession,
  successfulLinkUrl,
  type SessionPlan,
} from './run-session.js';
import { serveApp } from './serve-app.js';
import { freePort } from '../free-port.js';
import { docsSnippet, pageSection } from './docs-snippet.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const frameworksDir = fileURLToPath(new URL('./frameworks/', import.meta.url));
const nextDir = `${frameworksDir}next/`;

/** The Link URL every docs snippet uses. */
const DOCS_LINK_URL = 'https://link.example.com/link';
/** The token route every docs snippet calls; the apps' servers answer it. */
const DOCS_TOKEN_URL = '/api/link-token';

let browser: Browser;
let fakeLink: { origin: string; close(): Promise<void> };

before(async () => {
  assert.ok(
    existsSync(`${frameworksPackageDir}/package.json`),
    'run `npm run test:packaging` (it installs the framework apps and the packed package first)',
  );
  fakeLink = await startFakeLinkServer();
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
});

after(async () => {
  await browser?.close();
  await fakeLink?.close();
});

/** Writes the snippet into the app with the fake Link page in place of the docs' Link URL. */
async function writeSnippet(snippet: string, file: string): Promise<void> {
  assert.ok(snippet.includes(DOCS_LINK_URL) && snippet.includes(DOCS_TOKEN_URL), 'the snippet uses the docs URLs');
  await writeFile(file, snippet.replaceAll(DOCS_LINK_URL, successfulLinkUrl(fakeLink.origin)));
}

/** Runs a framework's CLI (its JavaScript entry, with this Node) in `cwd`; its output goes to the test log on failure. */
function runCli(cwd: string, entry: string, args: string[], env: Record<string, string>): void {
  try {
    execFileSync(process.execPath, [`${frameworksDir}node_modules/${entry}`, ...args], {
      cwd,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 240_000,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${entry} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

/** Waits until `url` answers, or the process exits, or 60 s pass. */
async function waitUntilServing(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (
      await fetch(url).then(
        (answer) => answer.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

/**
 * One session in a snippet's app (the snippets ask for `prefetch` and call the docs' token
 * route), checked as every example app is, and the snippet's own `save()` got the ids.
 */
async function assertSnippetSession(plan: Pick<SessionPlan, 'pageUrl' | 'key' | 'callsOrigin'>, endUserId: string): Promise<void> {
  const result = await runSession(browser, { ...plan, prefetch: true, isTokenRequest: (url) => url.pathname === DOCS_TOKEN_URL });
  assertSession(result, endUserId);
  assert.deepEqual(result.saved, [{ accountId: FAKE_ACCOUNT_ID, jobId: FAKE_JOB_ID }]);
}

/** Whether `version` (x.y.z) satisfies a caret range `^a.b.c` (or an exact x.y.z): the ranges package.json uses. */
function satisfies(version: string, range: string): boolean {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  if (!range.startsWith('^')) return version === range;
  const [lowMajor, lowMinor, lowPatch] = range.slice(1).split('.').map(Number) as [number, number, number];
  return major === lowMajor && (minor > lowMinor || (minor === lowMinor && patch >= lowPatch));
}

test("the framework apps' lit, zod and @lit/react are within the package's ranges", async () => {
  // The tarball is extracted, not installed, so npm does not check its dependency ranges there.
  const ours = JSON.parse(await readFile(`${root}package.json`, 'utf8')) as {
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
  const ranges: Record<string, string> = { ...ours.dependencies, '@lit/react': ours.peerDependencies['@lit/react']! };
  // The Angular and Nuxt apps (angular.test.ts, nuxt.test.ts) have no React: lit and zod only.
  for (const [dir, names] of [
    [frameworksDir, Object.keys(ranges)],
    [`${frameworksDir}../angular/`, Object.keys(ours.dependencies)],
    [`${frameworksDir}../nuxt/`, Object.keys(ours.dependencies)],
  ] as const) {
    const apps = JSON.parse(await readFile(`${dir}package.json`, 'utf8')) as { dependencies: Record<string, string> };
    for (const name of names)
      assert.ok(satisfies(apps.dependencies[name]!, ranges[name]!), `${dir}: ${name} ${apps.dependencies[name]} within ${ranges[name]}`);
  }
});

test("docs/nextjs.md's snippet: next build renders it on the server, session in Chromium through a route handler", async () => {
  await writeSnippet(await docsSnippet('docs/nextjs.md', 'Next.js (App Router)', 'tsx'), `${nextDir}app/connect-payroll.tsx`);
  await rm(`${nextDir}.next`, { recursive: true, force: true });
  const env = { NEXT_TELEMETRY_DISABLED: '1' };
  runCli(nextDir, 'next/dist/bin/next', ['build'], env);

  const key = randomUUID();
  // The route handler's upstream: the fake token endpoint, on a server of its own.
  const tokenServer = await serveApp({ mounts: {} });
  const port = await freePort();
  const next = spawn(
    process.execPath,
    [`${frameworksDir}node_modules/next/dist/bin/next`, 'start', '--port', String(port), '--hostname', '127.0.0.1'],
    {
      cwd: nextDir,
      env: { ...process.env, ...env, FAKE_TOKEN_URL: `${tokenServer.origin}${fakeTokenPath(key)}` },
      stdio: 'ignore',
    },
  );
  try {
    const origin = `http://localhost:${port}`;
    await waitUntilServing(`${origin}/`, next);
    // Server-side rendering: the page's HTML already has the element's tag.
    const html = await (await fetch(`${origin}/`)).text();
    assert.match(html, /<payroll-link[\s>]/);
    // The stylesheet docs/nextjs.md imports in the root layout (its second tsx block, the line as written in the
    // app's layout.tsx): next build resolves payroll-link/styles.css, and the page links the rule that holds an
    // undefined inline element's room.
    const [, layoutBlock] = [
      ...(await pageSection('docs/nextjs.md', 'Next.js (App Router)')).split(/^### /m)[0]!.matchAll(/^```tsx\n([\s\S]*?)^```/gm),
    ];
    const importLine = layoutBlock![1]!.split('\n').find((line) => line.startsWith('import'))!;
    assert.ok((await readFile(`${nextDir}app/layout.tsx`, 'utf8')).split('\n').includes(importLine), `app/layout.tsx has ${importLine}`);
    const sheets = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((match) => match[1]!);
    const css = (await Promise.all(sheets.map(async (href) => (await fetch(new URL(href, origin))).text()))).join('\n');
    assert.match(
      css,
      /payroll-link\[display=(?:'|")?inline(?:'|")?\]:not\(:defined\)/,
      `the page's stylesheets (${sheets.join(', ')}) hold the inline rule`,
    );

    await assertSnippetSession({ pageUrl: `${origin}/`, key, callsOrigin: tokenServer.origin }, 'user-next');
  } finally {
    next.kill();
    await tokenServer.close();
  }
});
