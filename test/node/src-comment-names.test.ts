/**
 * A comment that sends its reader elsewhere (`see X`, `{@link X}`) must name something that exists (#36): "see
 * InlineStart" outlived the controller it named. A name counts as existing when it occurs in the code of src/
 * (comments left out) or, for a path (`see load-session.ts`, `See docs/inline.md`), when the file exists. And a
 * comment that cites a file, with or without "see", cites one that exists (#43): "the builder beside the contract
 * (src/link-error.ts)" outlived the file's move to src/shared/.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const src = join(root, 'src');

/** The repository's folders that a cited path starts with (`src/shared/link-error.ts`, `docs/errors.md`). */
const FOLDERS = ['src', 'sandbox', 'test', 'docs', 'scripts', 'demo', 'server-example', 'bench'];

/** Paths cited that are not this repository's: a SvelteKit app's own file, where svelte.ts says to opt in. */
const ELSEWHERE = new Set(['src/app.d.ts']);

/** Block and line comments (not the `//` of a URL in a string). */
const COMMENTS = /\/\*[\s\S]*?\*\/|(?<![:'"`\w\\])\/\/.*$/gm;

/** The names a comment points at: `{@link X}`, and after "see": `X` in backticks, or a bare name that reads as code. */
function pointers(comment: string): string[] {
  const links = [...comment.matchAll(/\{@link\s+([^}\s|]+)/g)].map((match) => match[1]!);
  const sees = [...comment.matchAll(/\bsee:?\s+(?:`([^`]+)`|([#\w./-]+))/gi)].flatMap(([, quoted, bare]) => {
    if (quoted) return [quoted];
    const name = bare!.replace(/[.]+$/, '');
    // A bare word is English ("see them") unless it reads as code: a path, a private name, or camel/Pascal case.
    return /[/#]|\.(ts|md|js)$|^[A-Z]\w*[a-z]\w*[A-Z]|^[a-z]+[A-Z]|^[A-Z][a-z]+[A-Z]/.test(name) ? [name] : [];
  });
  return [...links, ...sees];
}

/**
 * The files a comment cites: a path that starts with a folder of the repository, or a file's bare name ending in
 * `.ts` or `.md` (`load-session.ts`). A package's name (`payroll-link/server`) or a URL's path is not one.
 */
function citedFiles(comment: string): string[] {
  return [...comment.matchAll(/(?<![\w./@-])[\w.-]+(?:\/[\w.-]+)*/g)]
    .map(([path]) => path.replace(/[.]+$/, ''))
    .filter((path) => (path.includes('/') ? FOLDERS.includes(path.split('/')[0]!) : /\.(ts|md)$/.test(path)))
    .filter((path) => !ELSEWHERE.has(path));
}

/**
 * Whether the file `name`, cited in `file`, exists: beside it, in src/ or from the root; a `.js` import path or a
 * published `.d.ts` counts as the `.ts` it is built from.
 */
const fileExists = (file: string, name: string) =>
  [dirname(file), src, root].some((base) =>
    [name, name.replace(/\.js$/, '.ts'), name.replace(/\.d\.ts$/, '.ts')].some((path) => existsSync(join(base, path))),
  );

/** Every `.ts` file of src/ with its text. */
async function sources(): Promise<Map<string, string>> {
  const files = (await readdir(src, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
  return new Map(await Promise.all(files.map(async (file) => [file, await readFile(file, 'utf8')] as const)));
}

test('every `see X` and `{@link X}` in src/ names something that exists', async () => {
  const texts = await sources();
  const code = [...texts.values()].map((text) => text.replace(COMMENTS, '')).join('\n');
  const exists = (file: string, name: string) => {
    if (/\.(ts|md|js)$|\//.test(name)) return fileExists(file, name);
    // `PreparedLink.open`: each part; `link-exit`: as written.
    return name.split('.').every((part) => new RegExp(`(?<![\\w#-])${part.replace(/[$#]/g, '\\$&')}(?![\\w-])`).test(code));
  };
  const checked: string[] = [];
  const missing: string[] = [];
  for (const [file, text] of texts) {
    for (const comment of text.match(COMMENTS) ?? []) {
      for (const name of pointers(comment)) {
        checked.push(name);
        if (!exists(file, name)) missing.push(`${relative(root, file)}: ${name}`);
      }
    }
  }
  assert.ok(checked.length >= 50, `read the pointers of src/ (${checked.length})`);
  assert.deepEqual(missing, []);
});

test('every file a comment in src/ cites exists', async () => {
  const checked: string[] = [];
  const missing: string[] = [];
  for (const [file, text] of await sources()) {
    for (const comment of text.match(COMMENTS) ?? []) {
      for (const path of citedFiles(comment)) {
        checked.push(path);
        if (!fileExists(file, path)) missing.push(`${relative(root, file)}: ${path}`);
      }
    }
  }
  assert.ok(checked.length >= 30, `read the paths cited in src/ (${checked.length})`);
  assert.deepEqual(missing, []);
});

test('a cited file is a path under a folder of the repository or a bare file name, not a package or a URL', () => {
  assert.deepEqual(
    citedFiles(
      '// see src/shared/link-error.ts, test/node/error-codes.test.ts:12 and load-session.ts. Not payroll-link/server, ' +
        "https://example.com/docs/x.md, custom-elements.json, Next.js, zod/mini or a SvelteKit app's src/app.d.ts.",
    ),
    ['src/shared/link-error.ts', 'test/node/error-codes.test.ts', 'load-session.ts'],
  );
});
