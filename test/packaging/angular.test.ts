// docs/angular.md, as written, in a scratch Angular 22 app (angular/app: standalone, strict templates) built by
// the Angular CLI's application builder (esbuild) from the packed package, on Node 22: the CLI needs it, the
// repository runs on Node 20, so the toolchain brings it as npm's `node` package (angular/package.json) and the
// CLI runs on angular/node_modules/node/bin/node. Checked here:
// - every snippet of the page builds under strictTemplates (the proxy's JSON is the dev server's own: `ng serve`
//   sends /api/link-token through it to a backend on loopback);
// - the page's claims about the template type-checker (angular/app/src/checks.component.ts): `$event` is the
//   package's event type, not `any`; `[display]="'bogus'"` compiles under CUSTOM_ELEMENTS_SCHEMA;
// - the session's code is a lazy chunk, out of the first load (#38: it was a 113-byte stub, the code in a chunk
//   the page loaded first);
// - the element's snippet runs a session in Chromium against the fake Link page (only the Link URL is swapped:
//   the service's hosted page is outside the package, and the test's traffic stays on loopback).
// Needs install-toolchains.ts and install-packed.ts first: `npm run test:packaging` runs both.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../browser/chromium.mjs';
import { startFakeLinkServer } from '../browser/fake-servers.mjs';
import { ANGULAR_SNIPPETS, docsSnippet } from './docs-snippet.js';
import { angularPackageDir } from './install-packed.js';
import { FAKE_ACCOUNT_ID, FAKE_JOB_ID, assertSession, fakeTokenPath, runSession, successfulLinkUrl } from './run-session.js';
import { serveApp } from './serve-app.js';
import { freePort } from '../free-port.js';

const toolchainDir = fileURLToPath(new URL('./angular/', import.meta.url));
const appDir = `${toolchainDir}app/`;
/** Node 22, from the npm registry as the package `node`: Angular 22's CLI refuses Node 20. */
const node22 = `${toolchainDir}node_modules/node/bin/node`;
const ng = `${toolchainDir}node_modules/@angular/cli/bin/ng.js`;

/** The Link URL and token route every snippet uses, and the backend the proxy's snippet names. */
const DOCS_LINK_URL = 'https://link.example.com/link';
const DOCS_TOKEN_URL = '/api/link-token';
const DOCS_BACKEND = 'http://localhost:3000';

/**
 * Modules of the package that only the session's code uses: none may be in what a page loads first. The contract's
 * folder holds two modules of plain data the element loads first on purpose: its events' and options' tables.
 */
const SESSION_MODULES =
  /payroll-link\/dist\/(element\/session-code|core\/open-link|core\/link-session|protocol(?:\/(?!element-)[\w-]+)?)\.js$/;

let browser: Browser;
let fakeLink: { origin: string; close(): Promise<void> };

before(async () => {
  assert.ok(
    existsSync(`${angularPackageDir}/package.json`) && existsSync(node22),
    'run `npm run test:packaging` (it installs the Angular toolchain and the packed package first)',
  );
  fakeLink = await startFakeLinkServer();
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  // The snippets, as the page shows them, with the fake Link page for the service's.
  await rm(`${appDir}src/docs`, { recursive: true, force: true });
  await mkdir(`${appDir}src/docs`);
  for (const [section, language, file] of ANGULAR_SNIPPETS) {
    const snippet = await docsSnippet('docs/angular.md', section, language);
    await writeFile(`${appDir}${file}`, snippet.replaceAll(DOCS_LINK_URL, successfulLinkUrl(fakeLink.origin)));
  }
});

after(async () => {
  await browser?.close();
  await fakeLink?.close();
});

/** Runs the Angular CLI on Node 22 in the app; its output goes to the test log on failure. */
function runNg(args: string[]): string {
  try {
    return execFileSync(node22, [ng, ...args], {
      cwd: appDir,
      env: { ...process.env, NG_CLI_ANALYTICS: 'false' },
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 240_000,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`ng ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

/** esbuild's metafile, which `statsJson` writes: each output file, the modules in it, the files it imports. */
interface Stats {
  outputs: Record<
    string,
    { entryPoint?: string; imports: { path: string; kind: string }[]; inputs: Record<string, { bytesInOutput: number }> }
  >;
}

test("docs/angular.md's snippets build with Angular 22 under strictTemplates; the session's code stays out of the first load; the element's session runs", async (t) => {
  await rm(`${appDir}dist`, { recursive: true, force: true });
  runNg(['build']);
  const stats = JSON.parse(await readFile(`${appDir}dist/browser-stats.json`, 'utf8')) as Stats;

  // Every payroll-link module in the bundle came from the packed package.
  const ours = Object.values(stats.outputs)
    .flatMap((output) => Object.keys(output.inputs))
    .filter((input) => input.includes('payroll-link/'));
  assert.ok(ours.length > 0, 'the bundle contains payroll-link');
  for (const input of ours) assert.match(input, /^\.\.\/node_modules\/payroll-link\/dist\//, input);

  // What a page loads first: the entry's file and every file it imports statically, transitively.
  const [entry] = Object.entries(stats.outputs).find(([, output]) => output.entryPoint === 'src/main.ts') ?? [];
  assert.ok(entry, 'the build has the entry src/main.ts');
  const first = new Set([entry]);
  for (const file of first) for (const { path, kind } of stats.outputs[file]!.imports) if (kind === 'import-statement') first.add(path);
  const lazy = Object.keys(stats.outputs).filter((file) => file.endsWith('.js') && !first.has(file));
  for (const file of first) {
    const inFirst = Object.keys(stats.outputs[file]!.inputs).filter((input) => SESSION_MODULES.test(input));
    assert.deepEqual(inFirst, [], `${file} is loaded first and holds the session's code`);
  }
  // Not a stub that imports the code from elsewhere: the session's own module, with its code in it.
  const sessionChunk = lazy.find(
    (file) => (stats.outputs[file]!.inputs['../node_modules/payroll-link/dist/element/session-code.js']?.bytesInOutput ?? 0) > 10_000,
  );
  assert.ok(sessionChunk, "a lazy chunk holds the session's code");

  const size = async (files: Iterable<string>) => {
    const texts = await Promise.all([...files].map((file) => readFile(`${appDir}dist/browser/${file}`)));
    return `${texts.reduce((sum, text) => sum + text.length, 0)} B raw, ${texts.reduce((sum, text) => sum + gzipSync(text).length, 0)} B gzip`;
  };
  t.diagnostic(
    `first load (${[...first].join(', ')}): ${await size(first)}; the session's chunk ${sessionChunk}: ${await size([sessionChunk])}`,
  );

  const key = randomUUID();
  const server = await serveApp({ mounts: { '/': `${appDir}dist/browser` }, tokenRoutes: { [DOCS_TOKEN_URL]: fakeTokenPath(key) } });
  try {
    const result = await runSession(browser, {
      pageUrl: `${server.origin}/index.html`,
      key,
      callsOrigin: server.origin,
      prefetch: true,
      isTokenRequest: (url) => url.pathname === DOCS_TOKEN_URL,
    });
    assertSession(result, 'user-angular');
    assert.deepEqual(result.saved, [{ accountId: FAKE_ACCOUNT_ID, jobId: FAKE_JOB_ID }]);
  } finally {
    await server.close();
  }
});

test("docs/angular.md's proxy.conf.json: ng serve sends /api/link-token to the backend it names", async () => {
  // The backend: answers the token route with what it was asked, so the test sees the request went through.
  const backend = createServer((req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, url: req.url })),
  );
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  // As the page says: proxy.conf.json beside angular.json, named there (serve's proxyConfig).
  const snippet = await readFile(`${appDir}proxy.conf.json`, 'utf8');
  assert.ok(snippet.includes(DOCS_BACKEND), `the snippet names ${DOCS_BACKEND}`);
  await writeFile(
    `${appDir}proxy.conf.json`,
    snippet.replaceAll(DOCS_BACKEND, `http://127.0.0.1:${(backend.address() as AddressInfo).port}`),
  );
  const port = await freePort();
  const serve = spawn(node22, [ng, 'serve', '--port', String(port), '--host', '127.0.0.1', '--live-reload', 'false'], {
    cwd: appDir,
    env: { ...process.env, NG_CLI_ANALYTICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  serve.stdout.on('data', (chunk: Buffer) => (output += chunk));
  serve.stderr.on('data', (chunk: Buffer) => (output += chunk));
  try {
    // The dev server says where it listens once it is ready.
    await new Promise<void>((resolve, reject) => {
      serve.stdout.on('data', () => output.includes(`127.0.0.1:${port}`) && resolve());
      serve.on('exit', (code) => reject(new Error(`ng serve exited with ${code}:\n${output}`)));
    });
    const answer = await fetch(`http://127.0.0.1:${port}${DOCS_TOKEN_URL}`, { method: 'POST' });
    assert.equal(answer.status, 200, output);
    assert.deepEqual(await answer.json(), { method: 'POST', url: DOCS_TOKEN_URL });
  } finally {
    serve.kill();
    backend.close();
  }
});
