// An app's own unit tests with <payroll-link> on the page (#38): the packed package, installed beside Vitest
// (jsdom, as Angular's `ng test` runs it, and happy-dom) and Jest (jsdom, in its native ESM mode), runs
// unit-tests/spec/connect-payroll.test.js, which mounts the element with `prefetch` and with
// `display="inline"` and clicks, and the snippet of docs/testing.md ("Testing your components"), as written. Each
// run must exit 0: the element may not throw where the browser features it uses are missing (jsdom has no
// matchMedia, IntersectionObserver, <dialog>.showModal()...). Needs install-toolchains.ts and install-packed.ts
// first: `npm run test:packaging` runs both.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { docsSnippet } from './docs-snippet.js';
import { unitTestsPackageDir } from './install-packed.js';

const appDir = fileURLToPath(new URL('./unit-tests/', import.meta.url));
/** Where the docs' snippet runs, beside the app's own test (written for this run only: the docs are its source). */
const snippetFile = `${appDir}spec/docs-snippet.test.js`;

before(async () => {
  await writeFile(snippetFile, await docsSnippet('docs/testing.md', 'Testing your components', 'js'));
});
after(() => rm(snippetFile, { force: true }));

/** Runs one test runner in the app, as its developers would (the runner's own binary), and returns what it said. */
function run(args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, args, {
    cwd: appDir,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, CI: 'true' },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const RUNS: Array<[name: string, args: string[], passed: RegExp]> = [
  ['Vitest with jsdom', ['node_modules/vitest/vitest.mjs', 'run', '--environment', 'jsdom'], /Tests\s+3 passed/],
  ['Vitest with happy-dom', ['node_modules/vitest/vitest.mjs', 'run', '--environment', 'happy-dom'], /Tests\s+3 passed/],
  ['Jest with jsdom (ESM mode)', ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js'], /Tests:\s+3 passed, 3 total/],
];

for (const [name, args, passed] of RUNS) {
  test(`${name}: the app's tests that mount <payroll-link> pass`, () => {
    assert.ok(
      existsSync(`${unitTestsPackageDir}/package.json`),
      'run `npm run test:packaging` (it installs the runners and the packed package first)',
    );
    const { status, output } = run(args);
    assert.equal(status, 0, output);
    assert.match(stripVTControlCharacters(output), passed, output);
  });
}
