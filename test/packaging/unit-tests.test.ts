// An app's own unit tests with <payroll-link> on the page (#38): the packed package, installed beside Vitest
// (jsdom, as Angular's `ng test` runs it, and happy-dom) and Jest (jsdom, in its native ESM mode), runs
// unit-tests/spec/connect-payroll.test.js, which mounts the element with `prefetch` and with
// `display="inline"` and clicks, and the snippet of docs/testing.md ("Testing your components"), as written. Each
// run must exit 0: the element may not throw where the browser features it uses are missing (jsdom has no
// matchMedia, IntersectionObserver, <dialog>.showModal()...).
// The testing kit's snippets of docs/testing.md (#52) run here as written too: a React component's test under
// Vitest with jsdom and happy-dom (and React 18 in react-18/, which has its own React and copy of the package) (payroll-link/react with mockLink(); Vitest only: Jest's ESM mode transforms no
// JSX), the element with mockLink() and webhookRequest() in all three runs, and the sandbox as Vitest's and Jest's
// global setup (payroll-link/testing/sandbox), each with the docs' config in a folder of its own. Needs
// install-toolchains.ts and install-packed.ts first: `npm run test:packaging` runs both.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { codeBlocks, docsSnippet } from './docs-snippet.js';
import { unitTestsPackageDir } from './install-packed.js';

const appDir = fileURLToPath(new URL('./unit-tests/', import.meta.url));
/** Where the docs' snippets run, beside the app's own test (written for this run only: the docs are their source). */
const snippetFile = `${appDir}spec/docs-snippet.test.js`;
const kitDir = `${appDir}spec/kit/`;
/** The sandbox as the runners' global setup: the docs' configs and test, in a folder (a Vitest root) of their own. */
const setupDir = `${appDir}sandbox-setup/`;
/** The React snippet again under React 18, in the folder whose payroll-link and Testing Library import React 18. */
const react18Dir = `${appDir}react-18/`;
const KIT = 'The testing kit';

/** The `n`-th `language` block of docs/testing.md under `### subsection` of "The testing kit". */
async function kitSnippet(subsection: string, language: string, n = 0): Promise<string> {
  const blocks = (await codeBlocks('docs/testing.md')).get(`${KIT} / ${subsection}`) ?? [];
  const block = blocks.filter((candidate) => candidate.language === language)[n];
  assert.ok(block, `docs/testing.md, "${subsection}", has ${n + 1} ${language} block(s)`);
  return block.code;
}

before(async () => {
  await writeFile(snippetFile, await docsSnippet('docs/testing.md', 'Testing your components', 'js'));
  await mkdir(kitDir, { recursive: true });
  await writeFile(`${kitDir}connect-payroll.test.jsx`, await kitSnippet('Unit tests: `mockLink()`', 'jsx'));
  await mkdir(`${react18Dir}spec/`, { recursive: true });
  await writeFile(`${react18Dir}spec/connect-payroll.test.jsx`, await kitSnippet('Unit tests: `mockLink()`', 'jsx'));
  await writeFile(`${kitDir}connect-button.test.js`, await kitSnippet('Unit tests: `mockLink()`', 'js'));
  await writeFile(`${kitDir}webhooks.test.js`, await kitSnippet('Webhooks: `webhookRequest()`', 'js'));
  await mkdir(setupDir, { recursive: true });
  const setup = "The sandbox in your test runner's setup";
  await writeFile(`${setupDir}vitest.config.js`, await kitSnippet(setup, 'js', 0));
  await writeFile(`${setupDir}jest.config.js`, await kitSnippet(setup, 'js', 1));
  await writeFile(`${setupDir}link-token.test.js`, await kitSnippet(setup, 'js', 2));
});
after(async () => {
  await rm(snippetFile, { force: true });
  await rm(kitDir, { recursive: true, force: true });
  await rm(setupDir, { recursive: true, force: true });
  await rm(`${react18Dir}spec/`, { recursive: true, force: true });
});

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

// 3 tests of the element's own and a Vue component's with mockLink(), then the docs' kit snippets: the React component
// (Vitest only), the element, the webhook receiver.
const RUNS: Array<[name: string, args: string[], passed: RegExp]> = [
  ['Vitest with jsdom', ['node_modules/vitest/vitest.mjs', 'run', '--environment', 'jsdom'], /Tests\s+7 passed \(7\)/],
  ['Vitest with happy-dom', ['node_modules/vitest/vitest.mjs', 'run', '--environment', 'happy-dom'], /Tests\s+7 passed \(7\)/],
  ['Jest with jsdom (ESM mode)', ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js'], /Tests:\s+7 passed, 7 total/],
  [
    'Vitest with jsdom, the React component under React 18',
    ['node_modules/vitest/vitest.mjs', 'run', '--root', 'react-18'],
    /Tests\s+1 passed \(1\)/,
  ],
  [
    'Vitest, the sandbox as its global setup',
    ['node_modules/vitest/vitest.mjs', 'run', '--root', 'sandbox-setup'],
    /Tests\s+1 passed \(1\)/,
  ],
  [
    'Jest, the sandbox as its global setup',
    ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--config', 'sandbox-setup/jest.config.js'],
    /Tests:\s+1 passed, 1 total/,
  ],
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
