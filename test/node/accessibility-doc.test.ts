/**
 * docs/accessibility.md is a conformance report: every WCAG 2.2 Level A and AA criterion once, each screen's level
 * one of the report's four, and no claim without its evidence: a test file of `npm test` (and, where a row names
 * one, the test's title in that file), or, for a criterion a person judges, the date and method of the review.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

/** WCAG 2.2's success criteria at Levels A and AA (https://www.w3.org/TR/WCAG22/), 4.1.1 Parsing being obsolete. */
const WCAG_22_A_AA = [
  ['1.1.1', 'A'],
  ['1.2.1', 'A'],
  ['1.2.2', 'A'],
  ['1.2.3', 'A'],
  ['1.2.4', 'AA'],
  ['1.2.5', 'AA'],
  ['1.3.1', 'A'],
  ['1.3.2', 'A'],
  ['1.3.3', 'A'],
  ['1.3.4', 'AA'],
  ['1.3.5', 'AA'],
  ['1.4.1', 'A'],
  ['1.4.2', 'A'],
  ['1.4.3', 'AA'],
  ['1.4.4', 'AA'],
  ['1.4.5', 'AA'],
  ['1.4.10', 'AA'],
  ['1.4.11', 'AA'],
  ['1.4.12', 'AA'],
  ['1.4.13', 'AA'],
  ['2.1.1', 'A'],
  ['2.1.2', 'A'],
  ['2.1.4', 'A'],
  ['2.2.1', 'A'],
  ['2.2.2', 'A'],
  ['2.3.1', 'A'],
  ['2.4.1', 'A'],
  ['2.4.2', 'A'],
  ['2.4.3', 'A'],
  ['2.4.4', 'A'],
  ['2.4.5', 'AA'],
  ['2.4.6', 'AA'],
  ['2.4.7', 'AA'],
  ['2.4.11', 'AA'],
  ['2.5.1', 'A'],
  ['2.5.2', 'A'],
  ['2.5.3', 'A'],
  ['2.5.4', 'A'],
  ['2.5.7', 'AA'],
  ['2.5.8', 'AA'],
  ['3.1.1', 'A'],
  ['3.1.2', 'AA'],
  ['3.2.1', 'A'],
  ['3.2.2', 'A'],
  ['3.2.3', 'AA'],
  ['3.2.4', 'AA'],
  ['3.2.6', 'A'],
  ['3.3.1', 'A'],
  ['3.3.2', 'A'],
  ['3.3.3', 'AA'],
  ['3.3.4', 'AA'],
  ['3.3.7', 'A'],
  ['3.3.8', 'AA'],
  ['4.1.2', 'A'],
  ['4.1.3', 'AA'],
] as const;

const LEVELS = new Set(['Supports', 'Partially supports', 'Does not support', 'Not applicable']);

interface Row {
  criterion: string;
  level: string;
  cells: string[];
  remarks: string;
}

/** The report's rows: `| 1.4.11 Non-text Contrast (AA) | level | level | level | remarks |`. */
function reportRows(markdown: string): Row[] {
  return markdown
    .split('\n')
    .filter((line) => /^\| \d\.\d+\.\d+ /.test(line))
    .map((line) => {
      const [name, ...rest] = line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, '').trim());
      const match = /^(\d\.\d+\.\d+) .+ \((A|AA)\)$/.exec(name!);
      assert.ok(match, `a criterion cell names the criterion and its level: ${name}`);
      return { criterion: match[1]!, level: match[2]!, cells: rest.slice(0, -1), remarks: rest.at(-1)! };
    });
}

const rows = reportRows(readFileSync(new URL('../../docs/accessibility.md', import.meta.url), 'utf8'));

test('every WCAG 2.2 A and AA criterion has one row, in order, at its level', () => {
  assert.deepEqual(
    rows.map((row) => [row.criterion, row.level]),
    WCAG_22_A_AA.map(([criterion, level]) => [criterion, level]),
  );
});

test("each screen's cell is one of the report's levels", () => {
  for (const row of rows) {
    assert.equal(row.cells.length, 3, `${row.criterion}: one cell for each of the three screens`);
    for (const cell of row.cells) assert.ok(LEVELS.has(cell), `${row.criterion}: "${cell}" is not a conformance level`);
  }
});

test('every claim has its evidence: a test that exists (with the title it names), or a dated review', () => {
  for (const row of rows) {
    if (row.cells.every((cell) => cell === 'Not applicable')) continue;
    const files = [...row.remarks.matchAll(/`(test\/[^`]+\.test\.ts)`((?: "[^"]+")*)/g)];
    const reviewed = /reviewed: 2\d{3}-\d\d-\d\d, [^)]+/.test(row.remarks);
    assert.ok(files.length > 0 || reviewed, `${row.criterion}: a claim with no test and no review`);
    for (const [, file, titles] of files) {
      const path = new URL(`../../${file}`, import.meta.url);
      assert.ok(existsSync(path), `${row.criterion}: ${file} does not exist`);
      const source = readFileSync(path, 'utf8');
      for (const [, title] of titles!.matchAll(/ "([^"]+)"/g))
        assert.ok(source.includes(title!), `${row.criterion}: ${file} has no test titled "${title}"`);
    }
  }
});
