/**
 * The cost of a change (#50): `scripts/cost-of-change.ts --check` makes the server side's two changes (a webhook
 * event, a paginated read of a new resource) in copies of the working tree and fails when one touches more files
 * than docs/architecture.md states. Its parts are tested on their own first, on made-up results: the anchored
 * edits, the table it reads and writes, the verdict.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { applyEdit, COUNTS_PAGE, problems, SCENARIOS, statedCounts, withCounts, type Measured } from '../../scripts/cost-of-change.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

const PAGE = `# Architecture

## What a change touches

| Change | Files touched | Scenario |
|---|---|---|
| A new thing (\`thing\`) | 4 | \`new-thing\` |
| Another (\`other\`) | 5 | \`other-thing\` |

Prose with a | pipe | that is no row.

## Another section

| Not this table | 9 | \`new-thing\` |
`;

const result = (id: string, count: number, failures: string[] = []): Measured => ({
  id,
  files: Array.from({ length: count }, (_, index) => `file-${index}.ts`),
  failures,
});

describe('cost of a change: its parts', () => {
  it('an edit lands at its anchor, and a missing or repeated anchor stops it, naming the file', () => {
    const text = 'one\ntwo\nthree\n';
    assert.equal(applyEdit(text, { file: 'f.ts', after: 'one\n', text: 'one and a half\n' }), 'one\none and a half\ntwo\nthree\n');
    assert.equal(applyEdit(text, { file: 'f.ts', before: 'three', text: 'two and a half\n' }), 'one\ntwo\ntwo and a half\nthree\n');
    assert.equal(applyEdit(text, { file: 'f.ts', replace: 'two', text: '2' }), 'one\n2\nthree\n');
    assert.equal(applyEdit(text, { file: 'f.ts', append: 'four\n' }), 'one\ntwo\nthree\nfour\n');
    assert.throws(() => applyEdit(text, { file: 'f.ts', after: 'zero', text: '' }), /f\.ts: the anchor is not there/);
    assert.throws(() => applyEdit('a a', { file: 'g.ts', before: 'a', text: '' }), /g\.ts: the anchor is there more than once/);
  });

  it("reads each scenario's stated count from the page's table, and writes measured ones into it", () => {
    assert.deepEqual(
      statedCounts(PAGE),
      new Map([
        ['new-thing', 4],
        ['other-thing', 5],
      ]),
    );
    const written = withCounts(PAGE, [result('new-thing', 3)]);
    assert.deepEqual(
      statedCounts(written),
      new Map([
        ['new-thing', 3],
        ['other-thing', 5],
      ]),
    );
    assert.equal(written.replace('| 3 |', '| 4 |'), PAGE, 'nothing else of the page moves');
    assert.throws(() => statedCounts('# A page without the section\n'), /What a change touches/);
  });

  it('fails a count above the stated one, a scenario that failed and one the page does not state; passes the rest', () => {
    const stated = statedCounts(PAGE);
    assert.deepEqual(problems([result('new-thing', 4), result('other-thing', 2)], stated), []);
    const found = problems([result('new-thing', 5), result('other-thing', 5, ['its tests fail']), result('unstated', 1)], stated);
    assert.equal(found.length, 3, found.join('\n'));
    assert.match(found[0]!, /^new-thing: 5 files touched, above the 4/);
    assert.match(found[1]!, /^other-thing: its tests fail/);
    assert.match(found[2]!, /^unstated: .* states no count for it/);
  });

  it('the page states a count for every scenario of the script', async () => {
    const stated = statedCounts(await readFile(`${root}${COUNTS_PAGE}`, 'utf8'));
    for (const scenario of SCENARIOS) assert.ok(stated.has(scenario.id), `${COUNTS_PAGE} has a row for ${scenario.id}`);
  });
});

describe('cost of a change, measured', () => {
  // Each scenario copies the tree, type-checks it and runs its tests (the element's two build a manifest too): about
  // 15 s each here, a minute on a loaded machine.
  it(
    'an element event, an element option, a webhook event and a paginated read touch no more files than docs/architecture.md states',
    { timeout: 300_000 },
    async () => {
      const args = ['--import', 'tsx', 'scripts/cost-of-change.ts', '--check'];
      const { stdout } = await promisify(execFile)(process.execPath, args, {
        cwd: root,
        maxBuffer: 16 * 1024 * 1024,
        timeout: 290_000,
      }).catch((error: { stdout?: string; stderr?: string }) =>
        assert.fail(`the script failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`),
      );
      for (const { id } of SCENARIOS) assert.match(stdout, new RegExp(`^${id}: \\d+ files \\(stated \\d+\\)$`, 'm'));
    },
  );
});
