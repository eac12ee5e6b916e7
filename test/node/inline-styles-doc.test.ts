/**
 * The rule docs/inline.md shows for pages that inline their CSS is the whole of `payroll-link/styles.css`
 * (src/element/styles.css): a copy in the docs, so this test keeps the two the same.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

const root = new URL('../../', import.meta.url);
/** CSS without comments and whitespace: what a browser reads of it. */
const bare = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, '');

test("docs/inline.md shows payroll-link/styles.css's rule as it is", async () => {
  const [styles, doc] = await Promise.all([
    readFile(new URL('src/element/styles.css', root), 'utf8'),
    readFile(new URL('docs/inline.md', root), 'utf8'),
  ]);
  const section = doc.slice(doc.indexOf('## Server-rendered pages'));
  const shown = /```css\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(shown, 'docs/inline.md has a CSS block in its server-rendered section');
  assert.equal(bare(shown), bare(styles));
});
