/**
 * The snippets of docs/multiple-instances.md type-check as written, under
 * `strict`, against this package's sources (through tsconfig.json's paths)
 * and the real `redis` and `pg` type declarations: a renamed option or export
 * breaks this test before it breaks a reader's app. What a snippet leaves to
 * the reader (`saveAccount()`) is declared, and nothing else. Every ts block
 * is checked: a new one is picked up without a list to update.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

const READER_GLOBALS = 'declare function saveAccount(endUserId: string, accountId: string): Promise<void>;\n';

test('every ts snippet of docs/multiple-instances.md type-checks as written', async () => {
  const doc = await readFile(`${root}docs/multiple-instances.md`, 'utf8');
  const snippets = [...doc.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  assert.ok(snippets.length >= 3, 'a snippet for Redis, PostgreSQL and a store of your own');
  // A folder of this run's own, two levels below the root like the tsconfig's `extends` says: a fixed folder,
  // emptied at the start, was emptied under a run by a second suite running beside it (test:repeat's --load).
  await mkdir(`${root}test-output`, { recursive: true });
  const dir = `${await mkdtemp(`${root}test-output/docs-multiple-instances-`)}/`;
  // The writes are inside the try too: a failed write must not leave this run's folder behind.
  try {
    const files = snippets.map((_, n) => `snippet-${n}.ts`);
    await Promise.all(snippets.map((code, n) => writeFile(`${dir}${files[n]}`, code)));
    await writeFile(`${dir}reader-globals.d.ts`, READER_GLOBALS);
    // Extends the repository's tsconfig for its paths (payroll-link/server → src/server) and strict settings.
    await writeFile(
      `${dir}tsconfig.json`,
      JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { types: ['node'] }, include: ['*.ts'], exclude: [] }),
    );
    try {
      execFileSync(`${root}node_modules/.bin/tsc`, ['-p', `${dir}tsconfig.json`], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      assert.fail(`the snippets do not type-check:\n${(error as { stdout: string }).stdout}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
