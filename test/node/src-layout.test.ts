/**
 * The layout of src/ (#22) as rules a change cannot break unnoticed: the core stays framework-free (it imports
 * nothing outside src/core/, src/shared/ and the contract, src/protocol.ts), no folder grows past what a
 * reader takes in at a glance, no file past what a reader reads in one sitting, and the server has one error style
 * (#43).
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

test('src/core/ imports nothing outside src/core/, src/shared/ and the contracts (src/protocol.ts, src/launch-bridge.ts)', async () => {
  const files = (await filesUnder(join(src, 'core'))).filter((file) => file.endsWith('.ts'));
  assert.ok(files.length >= 10, `found the core's modules (${files.length})`);
  // The contracts: with the Link page (protocol.ts), and with a native app that shows a launch page (launch-bridge.ts).
  const allowed = (target: string) =>
    ['core/', 'shared/', 'protocol/'].some((dir) => target.startsWith(dir)) || ['protocol.ts', 'launch-bridge.ts'].includes(target);
  const outside: string[] = [];
  for (const file of files) {
    const code = await readFile(file, 'utf8');
    for (const [, specifier] of code.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = relative(src, resolve(dirname(file), specifier!)).replace(/\.js$/, '.ts');
      if (!allowed(target)) outside.push(`${relative(src, file)} imports ${specifier}`);
    }
  }
  assert.deepEqual(outside, []);
});

test('no folder in src/ holds more than 16 files', async () => {
  const counts = new Map<string, number>();
  for (const file of await filesUnder(src)) {
    const folder = relative(src, dirname(file)) || '.';
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  assert.ok(counts.size >= 5, `found the folders of src/ (${[...counts.keys()].join(', ')})`);
  assert.deepEqual(
    [...counts].filter(([, count]) => count > 16),
    [],
  );
});

test('src/server/ has one error style: a handler throws an HttpError, nothing tests a result with instanceof Response', async () => {
  const files = (await filesUnder(join(src, 'server'))).filter((file) => file.endsWith('.ts'));
  assert.ok(files.length >= 20, `found the server's modules (${files.length})`);
  const found: string[] = [];
  for (const file of files) {
    const code = await readFile(file, 'utf8');
    code.split('\n').forEach((line, index) => {
      if (/instanceof\s+Response\b/.test(line)) found.push(`${relative(src, file)}:${index + 1}`);
    });
  }
  // A refusal is `throw new HttpError(...)` (src/server/handler/http-error.ts), answered by answerErrors (post-handler.ts).
  assert.deepEqual(found, []);
});

test('no file in src/ is over 400 lines, but the wire contract (src/protocol.ts)', async () => {
  const files = (await filesUnder(src)).filter((file) => /\.(ts|js|css|md)$/.test(file));
  const long: string[] = [];
  for (const file of files) {
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n').length;
    if (lines > 400 && relative(src, file) !== 'protocol.ts') long.push(`src/${relative(src, file)}: ${lines} lines`);
  }
  assert.ok(files.length >= 50, `read the files of src/ (${files.length})`);
  assert.deepEqual(long, []);
});

test('nothing of the package imports payroll-link/testing (src/testing/): the kit reaches no production code', async () => {
  const files = (await filesUnder(src)).filter((file) => file.endsWith('.ts') && !relative(src, file).startsWith('testing/'));
  const importers: string[] = [];
  for (const file of files) {
    const code = await readFile(file, 'utf8');
    if (/from\s+['"](\.\.?\/)+testing\/|import\(\s*['"](\.\.?\/)+testing\//.test(code)) importers.push(`src/${relative(src, file)}`);
  }
  assert.ok(files.length >= 50, `read the modules of src/ (${files.length})`);
  assert.deepEqual(importers, []);
});
