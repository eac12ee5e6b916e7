/**
 * Error codes as one list: every code the widget gives (a `linkError(type, code, ...)` in src/) is in the
 * `LinkErrorCode` union (src/core/link-error.ts) and in the table of docs/errors.md with the same `type`; the
 * sandbox's Link page's codes are in that table too. The source is read as text: what it says is the truth.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { LINK_ERROR_CODES } from '../../src/core/link-error.js';

const root = new URL('../../', import.meta.url);

async function sources(dir: string): Promise<Array<{ path: string; text: string }>> {
  const entries = await readdir(new URL(dir, root), { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts'));
  return Promise.all(
    files.map(async (entry) => {
      const path = `${entry.parentPath ?? entry.path}/${entry.name}`;
      return { path, text: await readFile(path, 'utf8') };
    }),
  );
}

/** The table's rows: code (`TOKEN_HTTP_<status>` as written) → type. */
async function documented(): Promise<Map<string, string>> {
  const text = await readFile(new URL('docs/errors.md', root), 'utf8');
  const rows = [...text.matchAll(/^\| `([A-Z_<>a-z]+)` \| `(\w+)` \|/gm)];
  return new Map(rows.map(([, code, type]) => [code!, type!]));
}

/** `linkError('type', 'CODE'` and `` linkError('type', `TOKEN_HTTP_${...}` `` in the widget's code (the backend's errors are HTTP bodies). */
async function usedInSrc(): Promise<Array<{ code: string; type: string; path: string }>> {
  const files = (await sources('src/')).filter(({ path }) => !path.includes('/src/server/'));
  return files.flatMap(({ path, text }) =>
    [...text.matchAll(/linkError\(\s*'(\w+)',\s*['`]([A-Z_]+)(\$\{)?/g)].map(([, type, code, template]) => ({
      type: type!,
      code: template ? `${code}<status>` : code!,
      path,
    })),
  );
}

describe('error codes: one list', () => {
  it('every code used in src/ is in the LinkErrorCode union and in docs/errors.md with its type', async () => {
    const used = await usedInSrc();
    const table = await documented();
    assert.ok(used.length >= 15, `found the codes in src/ (${used.length})`);
    const union = new Set<string>([...LINK_ERROR_CODES, 'TOKEN_HTTP_<status>']);
    for (const { code, type, path } of used) {
      assert.ok(union.has(code), `${code} (${path}) is missing from LinkErrorCode in src/core/link-error.ts`);
      assert.equal(table.get(code), type, `${code} (${path}) is missing from docs/errors.md or has another type there`);
    }
    // And nothing stale: each code of the union is still used.
    const usedCodes = new Set(used.map(({ code }) => code));
    assert.deepEqual(
      [...union].filter((code) => !usedCodes.has(code)),
      [],
      'codes in LinkErrorCode that src/ no longer uses',
    );
  });

  it("every code the sandbox's Link page gives is in docs/errors.md, with its type where the code says it", async () => {
    const table = await documented();
    const files = [...(await sources('sandbox/link-page/app/')), ...(await sources('sandbox/link-page/screens/'))];
    // Built with the contract's linkError(type, code, ...), as the widget's are.
    const typed = files.flatMap(({ text }) =>
      [...text.matchAll(/linkError\(\s*'(\w+)',\s*'([A-Z_]+)'/g)].map(([, type, code]) => ({ type: type!, code: code! })),
    );
    const named = files.flatMap(({ text }) => [...text.matchAll(/code(?: ===|:) '([A-Z_]+)'/g)].map(([, code]) => code!));
    assert.ok(typed.length >= 4 && named.length >= 6, 'found the Link page codes');
    for (const { code, type } of typed) assert.equal(table.get(code), type, `${code} in docs/errors.md with type ${type}`);
    for (const code of named) assert.ok(table.has(code), `${code} is missing from docs/errors.md`);
  });

  it('README links the table', async () => {
    const readme = await readFile(new URL('README.md', root), 'utf8');
    assert.match(readme, /\]\(docs\/errors\.md\)/);
  });
});
