/**
 * A comment that sends its reader elsewhere (`see X`, `{@link X}`) must name something that exists (#36): "see
 * InlineStart" outlived the controller it named. A name counts as existing when it occurs in the code of src/
 * (comments left out) or, for a path (`see load-session.ts`, `See docs/inline.md`), when the file exists.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const src = join(root, 'src');

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

test('every `see X` and `{@link X}` in src/ names something that exists', async () => {
  const files = (await readdir(src, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
  const texts = new Map(await Promise.all(files.map(async (file) => [file, await readFile(file, 'utf8')] as const)));
  const code = [...texts.values()].map((text) => text.replace(COMMENTS, '')).join('\n');
  const exists = (file: string, name: string) => {
    if (/\.(ts|md|js)$|\//.test(name))
      return [dirname(file), src, root].some(
        (base) => existsSync(join(base, name)) || existsSync(join(base, name.replace(/\.js$/, '.ts'))),
      );
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
