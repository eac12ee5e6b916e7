/**
 * `sideEffects` in package.json lets bundlers drop modules whose exports go
 * unused. Importing `openLink` from `src/index.ts` (as the demo does) must
 * still register `<payroll-link>`: the barrel imports the registering module,
 * so both must be listed. Found by bench/strict-csp.ts: the demo's production
 * build had no element at all. Checked with both bundlers the repo uses.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { build as esbuild } from 'esbuild';
import { build as viteBuild, type Rollup } from 'vite';

const index = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
const entry = `import { openLink } from ${JSON.stringify(index)};\nconsole.log(openLink);\n`;
const REGISTERS = /customElements\.define\(\s*["'`]payroll-link["'`]/;

test('esbuild: a bundle using only openLink from src/index.ts still registers the element', async () => {
  const result = await esbuild({
    stdin: { contents: entry, resolveDir: tmpdir(), loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  assert.match(result.outputFiles[0]!.text, REGISTERS);
});

test('Vite: a production build using only openLink from src/index.ts still registers the element', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'payroll-link-side-effects-'));
  try {
    const file = join(dir, 'entry.ts');
    await writeFile(file, entry);
    const output = (await viteBuild({
      configFile: false,
      logLevel: 'silent',
      build: { write: false, lib: { entry: file, formats: ['es'], fileName: 'entry' } },
    })) as Rollup.RollupOutput[];
    const code = output
      .flatMap((o) => o.output)
      .map((chunk) => ('code' in chunk ? chunk.code : ''))
      .join('\n');
    assert.match(code, REGISTERS);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
