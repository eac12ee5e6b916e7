/**
 * The public surface drifts when one entry or typing is written by hand beside another (#36): the root entry
 * `payroll-link` lacked a dozen names of `payroll-link/core`. These tests read the entries' export lists and the
 * element's property declarations, and fail when a public name or property is in one surface and not in another.
 * What may differ is declared once, in `ONLY_IN`.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

/** The one list of names a surface has and another lacks, with the reason. */
const ONLY_IN = {
  /** The element's own names: `payroll-link` has them, `payroll-link/core` (no Lit) does not. */
  root: ['PayrollLink', 'PayrollLinkEventMap', 'PayrollLinkEventName', 'PayrollLinkEventDetail', 'WIDGET_STRINGS'],
  /**
   * `LinkCallbacks` members the element has no property for. `onOpen`: `show()` resolves at that moment and
   * `link-open` fires; the React wrapper's `onOpen` prop is a listener of `link-open` (see the element's doc).
   */
  callbacks: ['onOpen'],
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

/** The names in the first `{ … }` block of `interface <name>` in `code`: its members (`onLogin?:`, `'link-open':`). */
function interfaceMembers(code: string, name: string): string[] {
  const body = code.match(new RegExp(`interface ${name}\\b[^{]*\\{([\\s\\S]*?)\\n\\}`))?.[1];
  assert.ok(body, `found interface ${name}`);
  return [...body.matchAll(/^\s{2}'?([\w-]+)'?\??:/gm)].map((match) => match[1]!);
}

/** `LinkCallbacks`, wherever in src/core/ it is declared. */
async function linkCallbacks(): Promise<string[]> {
  for (const file of await readdir(`${src}core`)) {
    const code = await readFile(`${src}core/${file}`, 'utf8').catch(() => '');
    if (/export interface LinkCallbacks\b/.test(code)) return interfaceMembers(code, 'LinkCallbacks');
  }
  assert.fail('LinkCallbacks is declared in src/core/');
}

/** The element's public properties, as it declares them to Lit (its internal state left out). */
async function elementProperties(): Promise<string[]> {
  const { PayrollLink } = await import('../../src/element/payroll-link.js');
  return Object.entries(PayrollLink.properties as Record<string, { state?: boolean }>)
    .filter(([, declaration]) => !declaration.state)
    .map(([name]) => name);
}

test('the element has a property for every session callback but the declared exceptions', async () => {
  const callbacks = await linkCallbacks();
  assert.ok(callbacks.length >= 7, `read LinkCallbacks (${callbacks.join(', ')})`);
  const properties = new Set(await elementProperties());
  assert.deepEqual(sorted(callbacks.filter((name) => !properties.has(name))), sorted(ONLY_IN.callbacks));
});
