// `payroll-link/sandbox` (the sender) and `payroll-link/server` (the receiver) describe webhooks with different
// shapes; an app that imports both must never meet two shapes under one name (#22). Reads the entries' export
// statements, so it also holds for type-only names, which no runtime import can list.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';

const root = new URL('../../', import.meta.url);

/** The names a module's `export { … }`, `export type { … }` and `export const|type|interface|class|function X` statements give. */
const exportedNames = async (path: string): Promise<Set<string>> => {
  const text = (await readFile(new URL(path, root), 'utf8')).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  assert.doesNotMatch(text, /export\s*\*\s*as/, `${path} re-exports with export * as, which this check cannot read`);
  const names = new Set<string>();
  // `export * from './x.js'`: the names of that module of ours, read the same way (its .ts source).
  for (const [, from] of text.matchAll(/export\s*\*\s*from\s*'(\.[^']+)\.js'/g)) {
    for (const name of await exportedNames(new URL(`${from}.ts`, new URL(path, root)).href.slice(root.href.length))) names.add(name);
  }
  for (const [, list] of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
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
  for (const [, name] of text.matchAll(/export\s+(?:declare\s+)?(?:const|let|type|interface|class|function|enum)\s+([A-Za-z_$][\w$]*)/g))
    names.add(name!);
  return names;
};

describe('public names of payroll-link/sandbox and payroll-link/server', () => {
  it('no name is exported by both entries', async () => {
    const sandbox = await exportedNames('sandbox/index.ts');
    const server = await exportedNames('src/server/index.ts');
    assert.ok(sandbox.has('startSandbox') && sandbox.has('Sandbox'), `read the sandbox's names: ${[...sandbox].join(', ')}`);
    assert.ok(
      server.has('WebhookEvent') && server.has('createWebhookHandler') && server.has('AccountSchema'),
      `read the server's names: ${[...server].join(', ')}`,
    );
    assert.deepEqual(
      [...sandbox].filter((name) => server.has(name)),
      [],
    );
  });
});
