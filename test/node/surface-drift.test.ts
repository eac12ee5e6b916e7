/**
 * The public surface drifts when one entry or typing is written by hand beside another (#36): the root entry
 * `payroll-link` lacked a dozen names of `payroll-link/core`. These tests read the entries' export lists and the
 * element's property declarations, and fail when a public name or property is in one surface and not in another.
 * What may differ is declared once, in `ONLY_IN`.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

/** The one list of names a surface has and another lacks, with the reason. */
const ONLY_IN = {
  /** The element's own names: `payroll-link` has them, `payroll-link/core` (no Lit) does not. */
  root: ['PayrollLink', 'PayrollLinkEventMap', 'PayrollLinkEventName', 'PayrollLinkEventDetail', 'WIDGET_STRINGS'],
};

/** The names a module exports (values and types), following `export *` and `export { … } from`. */
async function exportedNames(file: string): Promise<Set<string>> {
  const code = (await readFile(file, 'utf8')).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  const names = new Set<string>();
  for (const [, specifier] of code.matchAll(/export\s+\*\s+from\s+['"]([^'"]+)['"]/g)) {
    for (const name of await exportedNames(resolve(dirname(file), specifier!.replace(/\.js$/, '.ts')))) names.add(name);
  }
  for (const [, list] of code.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const item of list!.split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      if (name) names.add(name);
    }
  }
  for (const [, name] of code.matchAll(
    /export\s+(?:declare\s+)?(?:async\s+)?(?:function|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g,
  ))
    names.add(name!);
  return names;
}

const sorted = (names: Iterable<string>) => [...names].sort();

test('the root entry exports every public name of payroll-link/core, and only the element’s own beside them', async () => {
  const root = await exportedNames(`${src}index.ts`);
  const core = await exportedNames(`${src}core/index.ts`);
  assert.ok(core.size >= 30, `read the core's names (${core.size})`);
  assert.deepEqual(sorted([...core].filter((name) => !root.has(name))), [], 'in payroll-link/core, missing from payroll-link');
  assert.deepEqual(
    sorted([...root].filter((name) => !core.has(name))),
    sorted(ONLY_IN.root),
    'in payroll-link beyond the core: only the element’s own',
  );
});
