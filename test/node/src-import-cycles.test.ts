/**
 * No import cycle in src/ or sandbox/ (#36). A type-only import counts: it still ties two files together (a change
 * to one is a change to the other's contract), and `open-link.ts` ↔ `link-session.ts` was such a cycle. The import
 * graph is the compiler's own (`tsc --explainFiles` lists, for every file of the project, each file that imports it
 * and how), so nothing here parses TypeScript by hand. The length of a file of src/: src-layout.test.ts.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

/** The files of src/ and sandbox/, each with the files of src/ and sandbox/ it imports (values and types alike). */
async function importGraph(): Promise<Map<string, Set<string>>> {
  // --explainFiles prints each file at the start of a line, then one indented line per reason it is in the program.
  const { stdout } = await promisify(execFile)(process.execPath, [tsc, '-p', join(root, 'tsconfig.json'), '--noEmit', '--explainFiles'], {
    cwd: root,
    maxBuffer: 512 * 1024 * 1024,
  });
  const ours = (file: string) => /^(src|sandbox)\//.test(file);
  const graph = new Map<string, Set<string>>();
  let file = '';
  for (const line of stdout.split('\n')) {
    if (!line.startsWith(' ')) {
      file = relative(root, join(root, line.trim()));
      if (ours(file)) graph.set(file, graph.get(file) ?? new Set());
      continue;
    }
    const importer = /^\s+Imported via .+ from file '([^']+)'/.exec(line)?.[1];
    if (importer && ours(file) && ours(importer)) {
      if (!graph.has(importer)) graph.set(importer, new Set());
      graph.get(importer)!.add(file);
    }
  }
  return graph;
}

/**
 * The cycles a depth-first walk of `graph` meets (at least one in each set of files tied in a loop), each once, as
 * the files around it (`a → b → a`).
 */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found = new Set<string>();
  const done = new Set<string>();
  const walk = (file: string, path: string[]) => {
    const at = path.indexOf(file);
    if (at >= 0) {
      const loop = path.slice(at);
      // Start each cycle at its smallest name, so one cycle reached from two places is reported once.
      const start = loop.indexOf([...loop].sort()[0]!);
      found.add([...loop.slice(start), ...loop.slice(0, start), loop[start]].join(' → '));
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) walk(next, [...path, file]);
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) walk(file, []);
  return [...found].sort();
}

test('no import cycle in src/ or sandbox/ (type-only imports count)', async () => {
  const graph = await importGraph();
  const files = [...graph.keys()];
  assert.ok(files.filter((file) => file.startsWith('src/')).length >= 50, `read the imports of src/ (${files.length} files in all)`);
  assert.ok(files.filter((file) => file.startsWith('sandbox/')).length >= 30, 'and of sandbox/');
  assert.ok(graph.get('src/core/index.ts')?.size, "found the core's imports");
  assert.deepEqual(cycles(graph), []);
});

test('the cycle finder finds a cycle, once, wherever the walk enters it', () => {
  const graph = new Map([
    ['a', new Set(['b'])],
    ['b', new Set(['c'])],
    ['c', new Set(['b', 'd'])],
    ['d', new Set<string>()],
  ]);
  assert.deepEqual(cycles(graph), ['b → c → b']);
  assert.deepEqual(cycles(new Map([['a', new Set(['a'])]])), ['a → a']);
});
