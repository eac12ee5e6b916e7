/**
 * A version of the package that the shipped text names ("renamed since 0.2.0", "removed in 0.3.0") is one the
 * package has: a released section of CHANGELOG.md. Before 0.2.0 was cut, a type file of the package at 0.1.0 said
 * its sandbox types were "named `SandboxWebhook*` since 0.2.0", a version that did not exist (#48 item 11).
 * Only the package's own phrasing is read (a 0.x version after "since", "removed in"…), so that another package's
 * version ("react-native-webview 13.13.1") is not taken for ours.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { test } from 'node:test';

const root = new URL('../../', import.meta.url);

/** "since 0.2.0", "removed in payroll-link 0.3.0", "deprecated in v0.4.1": the version is the last group. */
const OWN_VERSION = /\b(?:since|(?:added|changed|deprecated|removed|renamed|new) in)\s+(?:payroll-link\s+)?v?(0\.\d+\.\d+)\b/gi;

/** The text an installed user reads: the code and types of src/ and sandbox/, README.md and docs/. */
async function shippedText(): Promise<Array<{ path: string; text: string }>> {
  const files = ['README.md'];
  for (const dir of ['src/', 'sandbox/', 'docs/']) {
    const entries = await readdir(new URL(dir, root), { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (entry.isFile() && /\.(ts|md)$/.test(entry.name))
        files.push(`${entry.parentPath.replace(/\/$/, '')}/${entry.name}`.slice(new URL(root).pathname.length));
    }
  }
  return Promise.all(files.map(async (path) => ({ path, text: await readFile(new URL(path, root), 'utf8') })));
}

test('#48 item 11: every version of the package that the shipped text names is a released section of the changelog', async () => {
  const changelog = await readFile(new URL('CHANGELOG.md', root), 'utf8');
  // "## 0.2.0 (2026-12-02)": a released section; "## Unreleased" names none.
  const released = new Set([...changelog.matchAll(/^## (\d+\.\d+\.\d+)\b/gm)].map((match) => match[1]));
  const files = await shippedText();
  assert.ok(files.length > 100, `read the shipped text (${files.length} files)`);
  const named = files.flatMap(({ path, text }) =>
    [...text.matchAll(OWN_VERSION)].map((match) => ({ path, phrase: match[0], version: match[1]! })),
  );
  assert.ok(named.length > 0, 'the text names a version of the package (the sandbox deprecation note)');
  assert.deepEqual(
    named.filter(({ version }) => !released.has(version)).map(({ path, phrase }) => `${path}: "${phrase}"`),
    [],
    `versions the changelog does not have (released: ${[...released].join(', ')})`,
  );
});
