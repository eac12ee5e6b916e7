/**
 * `npm run bench`: the benches one after another, each in its own
 * process (a crash or a leak in one cannot colour the next), then one summary
 * of every target from `bench/results/*.json`. Exits non-zero only when a
 * bench crashed; an unmet target is a figure to read, and the README says
 * which ones are unmet and why.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fromRoot } from './lib/bundle.js';
import { printTable } from './lib/report.js';
import { round } from './lib/stats.js';

const BENCHES = [
  'bundle-size',
  'token-load',
  'webhook-stores',
  'open-latency',
  'phone-tap',
  'token-cost',
  'inline',
  'soak',
  'message-fuzz',
  'token-faults',
  'strict-csp',
  'client-reads',
] as const;
/** A bench that runs longer than this is stopped: the whole run has to fit in ten minutes. */
const BENCH_LIMIT_MS = 240_000;

const only = process.argv.slice(2);
const started = Date.now();
const summary: Array<Record<string, string | number | boolean>> = [];
let crashed = 0;
for (const name of BENCHES.filter((b) => only.length === 0 || only.includes(b))) {
  console.log(`\n=== ${name} ===`);
  const t0 = Date.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', fromRoot(`bench/${name}.ts`)], { stdio: 'inherit', timeout: BENCH_LIMIT_MS });
  const seconds = round((Date.now() - t0) / 1000);
  if (run.status !== 0) {
    crashed++;
    summary.push({ bench: name, seconds, target: `CRASHED (${run.signal ?? `exit ${run.status}`})`, met: false });
    continue;
  }
  const result = JSON.parse(await readFile(fromRoot(`bench/results/${name}.json`), 'utf8')) as {
    targets?: Array<{ name: string; met: boolean }>;
  };
  for (const target of result.targets ?? []) summary.push({ bench: name, seconds, target: target.name, met: target.met });
}
printTable(`Summary (${round((Date.now() - started) / 1000)} s in all)`, summary);
process.exit(crashed > 0 ? 1 : 0);
