/**
 * What an installed user reads speaks of what they have: the strings of src/ and sandbox/ (messages, the
 * CLI's help, the Link page) name no command of this repository (`npm run sandbox` is
 * `npx payroll-link-sandbox` once installed), and the shipped CHANGELOG.md's top section is the package's
 * version or "Unreleased", never a version the package does not have.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';

const root = new URL('../../', import.meta.url);

/** Commands that exist only in a clone of the repository. */
const REPOSITORY_COMMANDS = /\bnpm run\b|\bnpm test\b|\bnpx tsx\b|\btsx (?:sandbox|scripts|server-example)\//;

/**
 * Known exceptions, by file (none today): each must still be there, so that an entry goes once its line is
 * fixed. The last one, the token handler's ECONNREFUSED hint, now names `npx payroll-link-sandbox`.
 */
const KNOWN: Readonly<Record<string, RegExp>> = {};

/** The lines of code (not comments) of every .ts file under `dir`, with where they are. */
async function codeLines(dir: string): Promise<Array<{ where: string; path: string; text: string }>> {
  const entries = await readdir(new URL(dir, root), { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'));
  const lines = [];
  for (const entry of files) {
    const path = `${entry.parentPath}/${entry.name}`.slice(new URL(root).pathname.length);
    const text = await readFile(new URL(path, root), 'utf8');
    for (const [index, line] of text.split('\n').entries()) {
      if (/^\s*(\/\/|\/\*|\*)/.test(line)) continue;
      lines.push({ where: `${path}:${index + 1}`, path, text: line });
    }
  }
  return lines;
}

describe("installed users' words", () => {
  it('no string in src/ or sandbox/ names a command of the repository', async () => {
    const lines = [...(await codeLines('src/')), ...(await codeLines('sandbox/'))];
    assert.ok(lines.length > 1000, `read the code (${lines.length} lines)`);
    const found = lines.filter(({ text }) => REPOSITORY_COMMANDS.test(text));
    const unknown = found.filter(({ path, text }) => !KNOWN[path]?.test(text));
    assert.deepEqual(
      unknown.map(({ where, text }) => `${where}: ${text.trim()}`),
      [],
    );
    for (const [path, line] of Object.entries(KNOWN)) {
      assert.ok(
        found.some((entry) => entry.path === path && line.test(entry.text)),
        `${path} is fixed: remove it from KNOWN`,
      );
    }
  });

  it("the changelog's top section is Unreleased or package.json's version", async () => {
    const { version } = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { version: string };
    const changelog = await readFile(new URL('CHANGELOG.md', root), 'utf8');
    const top = /^## (.+)$/m.exec(changelog)?.[1]?.trim();
    assert.ok(top, 'CHANGELOG.md has a section');
    // A released section may carry its date: "## 0.1.0 (2026-11-27)".
    const released = top === version || top.startsWith(`${version} `);
    assert.ok(top === 'Unreleased' || released, `the top section is "${top}", the package is ${version}`);
  });
});
