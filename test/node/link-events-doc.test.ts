// Every ts block of docs/link-events.md, docs/windows-and-closing.md and docs/styling.md type-checks as written, under the repo's strict compiler options,
// against the package's sources (`payroll-link` and `payroll-link/core` mapped to src/). What a snippet leaves
// to the reader (`button`) is declared, and nothing else. The blocks go to a temporary folder outside the repo
// (so that `npm run typecheck` never sees them), checked there by the repo's own tsc.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const READER_GLOBALS = 'declare const button: HTMLButtonElement;\n';

/** The pages whose ts blocks this test checks. */
const PAGES = ['docs/link-events.md', 'docs/windows-and-closing.md', 'docs/styling.md'];

/** The ts blocks of a page, in order. */
async function snippets(path: string): Promise<string[]> {
  const page = await readFile(join(root, path), 'utf8');
  return [...page.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

test(`every ts snippet of ${PAGES.join(' and ')} type-checks as written`, async () => {
  const pages = await Promise.all(PAGES.map(snippets));
  for (const [index, page] of pages.entries()) assert.ok(page.length >= 1, `${PAGES[index]} has its snippets`);
  const blocks = pages.flat();
  const dir = await mkdtemp(join(tmpdir(), 'link-events-doc-'));
  try {
    const tsconfig = {
      extends: join(root, 'tsconfig.json'),
      compilerOptions: {
        types: [],
        typeRoots: [join(root, 'node_modules/@types')],
        paths: { 'payroll-link': [join(root, 'src/index.ts')], 'payroll-link/core': [join(root, 'src/core/index.ts')] },
      },
      include: ['*.ts'],
      exclude: [],
    };
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    // ES modules, as in an app: the snippets use `import`.
    await writeFile(join(dir, 'package.json'), '{ "type": "module" }');
    await writeFile(join(dir, 'globals.d.ts'), READER_GLOBALS);
    await Promise.all(blocks.map((code, index) => writeFile(join(dir, `snippet-${index}.ts`), code)));
    const run = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
