/**
 * `npm run test:repeat`: runs the Node suite several times, and any named test
 * file several times on its own, to show that a test passes every time and not
 * just once. A flaky test fails some runs; one red run in many is a bug to fix,
 * not a retry to add.
 *
 * Usage: `npm run test:repeat -- [--runs N] [--file path ... --file-runs M]`
 * - `--runs N`: runs of the whole Node suite (default 5; 0 skips it).
 * - `--file path`: a test file to run on its own too (repeatable).
 * - `--file-runs M`: runs of each named file (default 10).
 *
 * Each run is a fresh `node --import tsx --test …` process, the command
 * `npm run test:node` runs. The output of a failed run is printed; the last
 * line is `<passed> passed, <failed> failed` (runs, all targets together), and
 * the exit code is 1 when any run failed.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    file: { type: 'string', multiple: true, default: [] },
    'file-runs': { type: 'string', default: '10' },
  },
});

const count = (name: string, value: string): number => {
  if (!/^\d+$/.test(value)) {
    console.error(`--${name} must be a whole number, got ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return Number(value);
};

/** What `npm run test:node` passes to `node --test`: its glob `test/node/*.test.ts`, expanded. */
const nodeSuite = readdirSync(`${root}test/node`)
  .filter((name) => name.endsWith('.test.ts'))
  .sort()
  .map((name) => `test/node/${name}`);

const targets = [
  { label: 'Node suite', files: nodeSuite, runs: count('runs', values.runs) },
  ...values.file.map((file) => ({ label: file, files: [file], runs: count('file-runs', values['file-runs']) })),
];

/** Runs the files once in a fresh process; resolves with whether it passed and what it printed. */
const runOnce = (files: string[]): Promise<{ passed: boolean; output: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', ...files], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code) => resolve({ passed: code === 0, output: Buffer.concat(chunks).toString('utf8') }));
  });

let passed = 0;
let failed = 0;
for (const target of targets) {
  let targetPassed = 0;
  for (let run = 1; run <= target.runs; run += 1) {
    const started = performance.now();
    const result = await runOnce(target.files);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${target.label}: run ${run}/${target.runs} ${result.passed ? 'passed' : 'FAILED'} (${seconds} s)`);
    if (result.passed) {
      targetPassed += 1;
    } else {
      console.log(result.output);
    }
  }
  if (target.runs > 0) console.log(`${target.label}: ${targetPassed} of ${target.runs} runs passed`);
  passed += targetPassed;
  failed += target.runs - targetPassed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
