// `payroll-link/react-native` (#42) in a React Native app of its own (react-native/: React Native 0.87,
// react-native-webview 16, Jest 29 with @testing-library/react-native 14, TypeScript 6), from the packed package:
// - the app's Jest suite (react-native/__tests__/payroll-link-view.test.tsx, the WebView faked at its boundary, the
//   page's messages made by the page's own sender): bridge messages become callbacks once each, malformed,
//   foreign-origin, unsigned (no nonce, a wrong one) and re-sent ones are ignored, open-url goes to Linking.openURL
//   (https only), launch-done calls onDone and ends the view, navigation stays on the launch and Link origins and
//   other https pages go to Linking.openURL (#48);
// - the app's `tsc` resolves the tarball's types for `payroll-link/react-native` and rejects wrong props
//   (react-native/app/props.tsx, one @ts-expect-error each);
// - the component's source type-checks against the real react-native and react-native-webview types
//   (react-native/tsconfig.source.json), which the package's own build replaces with a few declarations;
// - payroll-link/testing/react-native (#52): an app's screen (react-native/app/connect-payroll-screen.tsx) driven by
//   simulateLaunch() in WebViewMock (react-native/__tests__/simulate-launch.test.tsx), the launch page's messages in
//   its order, out-of-order plays refused, and what the view refuses from a frame refused here too; its source
//   type-checks against the real types as well (react-native/tsconfig.testing-source.json).
// The docs are checked here too (REACT_NATIVE_SNIPPETS, written into the app for the run): docs/react-native.md's
// component type-checks in the app, docs/testing.md's Jest example (which docs/native-apps.md points to) runs in the app's Jest, and
// docs/react-native.md's Jest configuration lets payroll-link through Babel as the app's jest.config.js does.
// All three run on Node 22 (React Native 0.87 and its Jest preset need it), which the toolchain brings as npm's `node`
// package, as angular/ does. Needs install-toolchains.ts and install-packed.ts first: `npm run test:packaging`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { docsSnippet, REACT_NATIVE_SNIPPETS } from './docs-snippet.js';
import { reactNativePackageDir } from './install-packed.js';

const appDir = fileURLToPath(new URL('./react-native/', import.meta.url));
/** Node 22, from the npm registry as the package `node`: React Native 0.87's Jest preset refuses Node 20. */
const node22 = `${appDir}node_modules/node/bin/node`;

/** The Jest suite's tests, by name: each must have run and passed (none skipped, none missing). */
const JEST_TESTS = [
  'it loads the launch URL with a nonce of its own in the fragment, in the WebView with the given style',
  'each element message calls its callback once, with the plain detail, and no other callback',
  'in StrictMode too, each message calls its callback once',
  'a message reaches the callbacks of the latest render',
  'malformed messages and messages from another origin are ignored, and nothing throws',
  'open-url goes to Linking.openURL, once, and to no callback',
  'a refusal from Linking.openURL is not an unhandled rejection',
  'launch-done calls onDone once with its detail, and the view ends: no WebView, nothing after it delivered',
  'a new launch URL after launch-done shows the new launch, with a new nonce',
  'review finding 1: a frame message without the nonce is refused, though it reports the launch URL',
  'review finding 1: a frame message with a wrong nonce is refused',
  'review finding 1: a message posted again (the same seq) is delivered once',
  'review finding 1: navigation stays on the launch origin, and on the Link origin the page names',
  'review finding 1: other https navigation goes to Linking.openURL and is refused in the WebView',
  "review finding 1: any other navigation is refused and opened nowhere, past react-native-webview's own origin list too",
  'review finding 1: open-url opens https only (and http on loopback: the sandbox)',
  // payroll-link/testing/react-native (#52): an app's screen driven by simulateLaunch() in WebViewMock.
  'connect(): the screen saves the account and the job, and says it is connected',
  'connect() plays every message in the launch page order, each callback once, with the ids given',
  'exit(): the screen says the user left, saves nothing, and the launch page ends with exit',
  'error() then exit(): the exit carries the error, as the Link page ends a failed flow',
  'openUrl(): the window goes to Linking.openURL, once, and the flow goes on',
  'out of order: a second success, and anything after the exit, fail with a clear error and post nothing',
  'the stand-in is no kinder than the real page: a frame message the view refuses, it refuses here too',
  "a simulated launch of another URL is refused: its messages carry the old launch's nonce",
  // docs/testing.md's React Native test, as written.
  'a connected account reaches onSuccess, and the view closes once the launch is done',
  'a user who leaves the flow reaches onExit, and nothing comes after it',
];

/** The folders the docs' snippets are written to, inside the app (for this run only: the docs are their source). */
const docsDirs = [...new Set(REACT_NATIVE_SNIPPETS.map(([, , , file]) => dirname(`${appDir}${file}`)))];

before(async () => {
  assert.ok(
    existsSync(`${reactNativePackageDir}/package.json`) && existsSync(node22),
    'run `npm run test:packaging` (it installs the React Native toolchain and the packed package first)',
  );
  for (const dir of docsDirs) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
  }
  for (const [page, section, subsection, file] of REACT_NATIVE_SNIPPETS)
    await writeFile(`${appDir}${file}`, await docsSnippet(page, section, 'tsx', subsection ?? undefined));
});
after(() => Promise.all(docsDirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** Runs one of the app's tools on Node 22, as its developers would (the tool's own binary). */
function run(args: string[]): { status: number | null; stdout: string; output: string } {
  const result = spawnSync(node22, args, { cwd: appDir, encoding: 'utf8', timeout: 240_000, env: { ...process.env, CI: 'true' } });
  return { status: result.status, stdout: result.stdout, output: `${result.stdout}${result.stderr}` };
}

test("the app's Jest suite for PayrollLinkView passes, every test run", () => {
  const { status, stdout, output } = run(['node_modules/jest/bin/jest.js', '--ci', '--json']);
  assert.equal(status, 0, output);
  const report = JSON.parse(stdout) as { testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }> };
  const results = report.testResults.flatMap((file) => file.assertionResults.map(({ title, status }) => [title, status]));
  assert.deepEqual(Object.fromEntries(results), Object.fromEntries(JEST_TESTS.map((title) => [title, 'passed'])));
});

test("the app's tsc resolves the tarball's types for payroll-link/react-native, rejects wrong props, and takes the docs' snippets", () => {
  for (const [, , , file] of REACT_NATIVE_SNIPPETS) assert.ok(existsSync(`${appDir}${file}`), file);
  const { status, output } = run(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
  assert.equal(status, 0, output);
});

test("the component's and the testing kit's sources type-check against the real react-native and react-native-webview types", () => {
  for (const project of ['tsconfig.source.json', 'tsconfig.testing-source.json']) {
    const { status, output } = run(['node_modules/typescript/bin/tsc', '-p', project]);
    assert.equal(status, 0, `${project}: ${output}`);
  }
});

test("docs/react-native.md's Jest configuration lets payroll-link through Babel as the app's jest.config.js does", async () => {
  const config = await readFile(`${appDir}jest.config.js`, 'utf8');
  const pattern = /^\s*transformIgnorePatterns: .*$/m.exec(config)?.[0] ?? '';
  assert.ok(pattern.includes('payroll-link'), "the app's jest.config.js lets payroll-link through");
  const snippet = await docsSnippet('docs/react-native.md', 'Testing with Jest', 'js');
  assert.ok(snippet.includes("preset: '@react-native/jest-preset'"), snippet);
  assert.ok(snippet.includes(`${pattern.trim()}\n`), `the page's block has the app's line: ${pattern.trim()}`);
});
