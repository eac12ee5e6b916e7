// The docs' Svelte 5 snippet (docs/svelte.md), as written, built by Vite with the Svelte plugin from the packed
// package and driven in Debian's Chromium against the fake Link page (only the Link URL is swapped:
// the hosted page is outside the package). svelte-check, with `payroll-link/svelte` referenced as the
// docs say, passes the snippet and must fail a deliberately wrong file on each wrong line. Needs
// install-toolchains.ts and install-packed.ts first: `npm run test:packaging` runs both.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { startFakeLinkServer } from '../browser/fake-servers.mjs';
import { sveltePackageDir } from './install-packed.js';
import { FAKE_ACCOUNT_ID, FAKE_JOB_ID, assertSession, fakeTokenPath, runSession, successfulLinkUrl } from './run-session.js';
import { serveApp } from './serve-app.js';
import { docsSnippet, pageSection } from './docs-snippet.js';

const svelteDir = fileURLToPath(new URL('./svelte/', import.meta.url));
const DOCS_LINK_URL = 'https://link.example.com/link';
const DOCS_TOKEN_URL = '/api/link-token';

let browser: Browser;
let fakeLink: { origin: string; close(): Promise<void> };
let outDir: string;

before(async () => {
  assert.ok(
    existsSync(`${sveltePackageDir}/package.json`),
    'run `npm run test:packaging` (it installs the Svelte toolchain and the packed package first)',
  );
  fakeLink = await startFakeLinkServer();
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  outDir = await mkdtemp(join(tmpdir(), 'payroll-link-svelte-'));
  const section = await pageSection('docs/svelte.md', 'Svelte 5');
  const snippet = await docsSnippet('docs/svelte.md', 'Svelte 5', 'svelte');
  assert.ok(snippet.includes(DOCS_LINK_URL) && snippet.includes(DOCS_TOKEN_URL), 'the snippet uses the docs URLs');
  assert.ok(section.includes('/// <reference types="payroll-link/svelte" />'), 'the section says how to reference the types');
  await writeFile(`${svelteDir}app/src/ConnectPayroll.svelte`, snippet.replaceAll(DOCS_LINK_URL, successfulLinkUrl(fakeLink.origin)));
});

after(async () => {
  await browser?.close();
  await fakeLink?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

/** Runs svelte-check over `workspace`; its machine-readable output and exit code. */
function svelteCheck(workspace: string): { status: number; output: string } {
  try {
    const output = execFileSync(
      process.execPath,
      [`${svelteDir}node_modules/svelte-check/bin/svelte-check`, '--workspace', workspace, '--output', 'machine', '--fail-on-warnings'],
      {
        cwd: svelteDir,
        encoding: 'utf8',
        stdio: 'pipe',
        timeout: 240_000,
      },
    );
    return { status: 0, output };
  } catch (error) {
    const { status, stdout, stderr } = error as { status: number; stdout: string; stderr: string };
    return { status, output: `${stdout}${stderr}` };
  }
}

test("svelte-check passes the docs' snippet with the payroll-link/svelte types", () => {
  const { status, output } = svelteCheck(`${svelteDir}app`);
  assert.equal(status, 0, output);
});

test('svelte-check fails a wrong attribute type, a wrong handler type and onSuccess', () => {
  const { status, output } = svelteCheck(`${svelteDir}wrong`);
  assert.notEqual(status, 0, output);
  const errorLines = new Set(
    output
      .split('\n')
      .filter((line) => / ERROR "src\/Wrong\.svelte" /.test(line))
      .map((line) => Number(/"src\/Wrong\.svelte" (\d+):/.exec(line)![1])),
  );
  // Lines of wrong/src/Wrong.svelte: link-url={42}, onlink-success with CustomEvent<number>, onSuccess.
  for (const line of [9, 10, 11]) assert.ok(errorLines.has(line), `an error on line ${line}:\n${output}`);
});

test("docs/svelte.md's snippet: built by Vite with the Svelte plugin, session in Chromium", async () => {
  execFileSync(process.execPath, [`${svelteDir}node_modules/vite/bin/vite.js`, 'build', '--outDir', outDir, '--emptyOutDir'], {
    cwd: `${svelteDir}app`,
    stdio: 'pipe',
    timeout: 240_000,
  });
  const key = randomUUID();
  const server = await serveApp({ mounts: { '/': outDir }, tokenRoutes: { [DOCS_TOKEN_URL]: fakeTokenPath(key) } });
  try {
    const result = await runSession(browser, {
      pageUrl: `${server.origin}/index.html`,
      key,
      callsOrigin: server.origin,
      prefetch: true,
      isTokenRequest: (url) => url.pathname === DOCS_TOKEN_URL,
    });
    assertSession(result, 'user-svelte');
    assert.deepEqual(result.saved, [{ accountId: FAKE_ACCOUNT_ID, jobId: FAKE_JOB_ID }]);
  } finally {
    await server.close();
  }
});
