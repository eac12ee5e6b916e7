/**
 * Error codes as one list: every code the widget gives (a `linkError(type, code, ...)` in src/) is in
 * `LINK_ERROR_CODES` (src/shared/link-error-codes.ts: the `LinkErrorCode` union and docs/errors.md's table are
 * generated from it, the table checked by `npm run docs:reference -- --check`) with the same `type`; the sandbox's
 * Link page's codes are in its records too. The source is read as text: what it says is the truth.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { LINK_ERROR_CODES, LINK_PAGE_ERROR_CODES } from '../../src/shared/link-error-codes.js';

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

/** The documented codes (`TOKEN_HTTP_<status>` as written) → type: the records docs/errors.md's table is generated from. */
function documented(): Map<string, string> {
  return new Map(Object.entries({ ...LINK_ERROR_CODES, ...LINK_PAGE_ERROR_CODES }).map(([code, { type }]) => [code, type]));
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
    const table = documented();
    assert.ok(used.length >= 15, `found the codes in src/ (${used.length})`);
    const union = new Set<string>(Object.keys(LINK_ERROR_CODES));
    for (const { code, type, path } of used) {
      assert.ok(union.has(code), `${code} (${path}) is missing from LINK_ERROR_CODES in src/shared/link-error-codes.ts`);
      assert.equal(table.get(code), type, `${code} (${path}) is missing from LINK_ERROR_CODES or has another type there`);
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
    const table = documented();
    const files = [...(await sources('sandbox/link-page/app/')), ...(await sources('sandbox/link-page/screens/'))];
    // Built with the contract's linkError(type, code, ...), as the widget's are.
    const typed = files.flatMap(({ text }) =>
      [...text.matchAll(/linkError\(\s*'(\w+)',\s*'([A-Z_]+)'/g)].map(([, type, code]) => ({ type: type!, code: code! })),
    );
    const named = files.flatMap(({ text }) => [...text.matchAll(/code(?: ===|:) '([A-Z_]+)'/g)].map(([, code]) => code!));
    assert.ok(typed.length >= 4 && named.length >= 6, 'found the Link page codes');
    for (const { code, type } of typed)
      assert.equal(table.get(code), type, `${code} in LINK_PAGE_ERROR_CODES or LINK_ERROR_CODES with type ${type}`);
    for (const code of named) assert.ok(table.has(code), `${code} is missing from LINK_PAGE_ERROR_CODES and LINK_ERROR_CODES`);
  });

  it('README links the table', async () => {
    const readme = await readFile(new URL('README.md', root), 'utf8');
    assert.match(readme, /\]\(docs\/errors\.md\)/);
  });
});
