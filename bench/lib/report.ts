/**
 * Output of a bench script: a short table on stdout and a JSON file under
 * `bench/results/<name>.json` with the machine it ran on, so figures from
 * different machines are never compared blind.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem, type as osType, release } from 'node:os';
import { execFileSync } from 'node:child_process';
import { chromePath } from './browser.js';

const RESULTS = new URL('../results/', import.meta.url);

/** One row of a printed table. */
export type Row = Record<string, string | number | boolean | null>;

/** Prints rows as an aligned text table under a title. */
export function printTable(title: string, rows: readonly Row[]): void {
  console.log(`\n${title}`);
  if (rows.length === 0) return console.log('(no rows)');
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: Row[string] | undefined) => (value === undefined || value === null ? '' : String(value));
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)));
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log(line(columns));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(columns.map((column) => cell(row[column]))));
}

/** The machine and versions a result came from. */
export function environment(): Record<string, string | number> {
  let chromium = 'unknown';
  try {
    chromium = execFileSync(chromePath(), ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // Reported as unknown: the result still stands, its provenance is just vaguer.
  }
  return {
    node: process.version,
    os: `${osType()} ${release()}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    chromium,
  };
}

/** Writes `bench/results/<name>.json`: the figures, the targets and whether each is met, and the environment. */
export async function writeResult(name: string, result: Record<string, unknown>): Promise<string> {
  await mkdir(RESULTS, { recursive: true });
  const file = new URL(`${name}.json`, RESULTS);
  const body = { bench: name, date: new Date().toISOString(), environment: environment(), ...result };
  await writeFile(file, `${JSON.stringify(body, null, 2)}\n`);
  return file.pathname;
}

/** Prints a target line in one fixed format, so the README and the JSON say the same. */
export function printTarget(label: string, met: boolean, detail: string): void {
  console.log(`${met ? 'MET    ' : 'NOT MET'}  ${label}: ${detail}`);
}
