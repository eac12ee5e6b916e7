/**
 * `payroll-link/react-native` (#42) stays its own: react-native and react-native-webview are optional peers that
 * a web app never installs, so no other entry may reach them. Only src/frameworks/react-native.ts imports them, and
 * the testing kit's `payroll-link/testing/react-native` (#52, src/testing/react-native.ts: its WebView stand-in),
 * react-native-modules.d.ts declares them for the build, and no module imports either: each entry is reached
 * through its `exports` key alone.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const src = `${root}src/`;
const ENTRY = 'frameworks/react-native.ts';
const DECLARATIONS = 'frameworks/react-native-modules.d.ts';
/** The testing kit's entry for an app's Jest tests of PayrollLinkView. */
const TESTING_ENTRY = 'testing/react-native.ts';

/** Every module specifier a file names (static and dynamic imports, re-exports, `declare module`). */
function specifiers(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom|\bimport|\bmodule)\s*\(?\s*['"]([^'"]+)['"]/g)].map(([, specifier]) => specifier!);
}

async function sources(): Promise<Array<[file: string, code: string]>> {
  const entries = await readdir(src, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (file) => [relative(src, file), await readFile(file, 'utf8')] as [string, string]));
}

test('only the react-native entries (the component and its testing kit) import react-native or react-native-webview', async () => {
  const all = await sources();
  assert.ok(all.length > 30, `read the sources (${all.length})`);
  const importers = all
    .filter(([, code]) => specifiers(code).some((specifier) => /^react-native(-webview)?(\/|$)/.test(specifier)))
    .map(([file]) => file)
    .sort();
  assert.deepEqual(importers, [DECLARATIONS, ENTRY, TESTING_ENTRY]);
});

test('no module imports the react-native entries', async () => {
  const importers = (await sources())
    .filter(([, code]) => specifiers(code).some((specifier) => /(^|\/)react-native(\.js)?$/.test(specifier) && specifier.startsWith('.')))
    .map(([file]) => file);
  assert.deepEqual(importers, []);
});

test('package.json publishes the entry, and makes react-native and react-native-webview optional peers', async () => {
  const pkg = JSON.parse(await readFile(`${root}package.json`, 'utf8')) as {
    exports: Record<string, unknown>;
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
  };
  assert.deepEqual(pkg.exports['./react-native'], { types: './dist/react-native.d.ts', default: './dist/react-native.js' });
  for (const name of ['react-native', 'react-native-webview']) {
    assert.ok(pkg.peerDependencies[name], `${name} is a peer dependency`);
    assert.equal(pkg.peerDependenciesMeta[name]?.optional, true, `${name} is optional`);
    assert.equal(pkg.dependencies[name], undefined, `${name} is not a dependency`);
  }
});

test("review finding 1: the peer range starts at react-native-webview 13.13.1, whose nativeEvent.url is the sending frame's", async () => {
  const pkg = JSON.parse(await readFile(`${root}package.json`, 'utf8')) as { peerDependencies: Record<string, string> };
  // Before 13.13.1 (its PR #3609) every frame's message reported the main frame's URL: the origin check meant nothing.
  assert.equal(pkg.peerDependencies['react-native-webview'], '>=13.13.1');
});
