// The docs ship: `npm pack` the package, and every relative link in every markdown file of the
// tarball must resolve inside it (the file, and the `#anchor` as GitHub and npm slug a heading).
// A link to a file the tarball lacks is dead for everyone who reads the docs from node_modules or
// on npm. Needs build:package first (`npm run test:packaging` runs it).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

let scratch: string;
let files: string[];

before(async () => {
  assert.ok(existsSync(`${root}dist/index.js`), 'run `npm run build:package` first (`npm run test:packaging` does)');
  scratch = await mkdtemp(join(tmpdir(), 'payroll-link-docs-links-'));
  const packed = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [{ filename, files: listed }] = JSON.parse(packed) as [{ filename: string; files: { path: string }[] }];
  execFileSync('tar', ['-xzf', join(scratch, filename), '-C', scratch]);
  files = listed.map((file) => file.path);
});

after(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The anchors of a markdown file's headings, slugged as GitHub does (lower case, punctuation dropped, spaces to hyphens, repeats numbered). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutFences(markdown).matchAll(/^#{1,6} (.*)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** The text without fenced blocks, where a `# x` is code, not a heading. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '');
}

/** The text without fenced blocks and inline code, where a `[x](y)` is code, not a link. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

/** The relative link targets of a markdown file: `[text](target)`, without absolute URLs. */
function relativeLinks(markdown: string): string[] {
  const targets = [...withoutCode(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

test('the tarball carries README.md, CHANGELOG.md, the docs and the sandbox reference', () => {
  for (const file of ['README.md', 'CHANGELOG.md', 'docs/index.md', 'docs/getting-started.md', 'docs/sandbox.md', 'docs/reference.md']) {
    assert.ok(files.includes(file), `the tarball has ${file}`);
  }
});

test('the README stays a short page: at most 150 lines (the rest lives in docs/)', async () => {
  const lines = (await readFile(join(scratch, 'package', 'README.md'), 'utf8')).trimEnd().split('\n').length;
  assert.ok(lines <= 150, `README.md has ${lines} lines: move detail into docs/`);
});

test('every relative link in every shipped markdown file resolves inside the tarball', async () => {
  const markdown = files.filter((file) => file.endsWith('.md'));
  assert.ok(markdown.length > 10, `markdown files found: ${markdown.join(', ')}`);
  const dead: string[] = [];
  for (const file of markdown) {
    const text = await readFile(join(scratch, 'package', file), 'utf8');
    for (const link of relativeLinks(text)) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
      if (!files.includes(target)) {
        dead.push(`${file}: ${link} (no ${target} in the tarball)`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md')) {
        const anchors = anchorsOf(await readFile(join(scratch, 'package', target), 'utf8'));
        if (!anchors.has(anchor)) dead.push(`${file}: ${link} (no heading #${anchor} in ${target})`);
      }
    }
  }
  assert.deepEqual(dead, []);
});

test('the link check sees a dead link: a file the tarball lacks, and a missing anchor', () => {
  // The checker's own parts, on text with known dead links, so that a checker that finds nothing fails here.
  const links = relativeLinks('[a](../sandbox/README.md) [b](reference.md#nope) `[c](code.md)` [d](https://example.com/x.md)');
  assert.deepEqual(links, ['../sandbox/README.md', 'reference.md#nope']);
  assert.ok(!anchorsOf('# Title\n\n## Entry points\n').has('nope'));
  assert.ok(anchorsOf("## Keep the webhook secret out of `next dev`'s log\n").has('keep-the-webhook-secret-out-of-next-devs-log'));
});
