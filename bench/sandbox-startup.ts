/**
 * Bench 8, sandbox start-up: how long the packaged sandbox (dist/sandbox, as
 * `npm run build:package` leaves it) takes to serve, both as the bin a user
 * runs (`node dist/sandbox/cli.js --port 0`: process start to the printed URL)
 * and as `startSandbox()` in a running process (the call to its promise). The
 * issue's target: under a second. Run alone: `npx tsx bench/sandbox-startup.ts`.
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { fromRoot } from './lib/bundle.js';
import { printTable, printTarget, writeResult } from './lib/report.js';
import { percentile, round } from './lib/stats.js';

const RUNS = 15;
const cli = fromRoot('dist/sandbox/cli.js');

/** Starts a Node process once and answers the time to its "listening on" line; stops it after. */
const processStart = (args: string[]): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('listening on')) return;
      const elapsed = performance.now() - started;
      child.once('exit', () => resolve(elapsed));
      child.kill('SIGTERM');
    });
    child.once('error', reject);
  });

// A bare Node process that prints the same line and waits: what any bin costs on this machine, now
// (a shared machine under load makes every process start slow; the difference is the sandbox's).
const BARE = ['-e', "console.log('listening on'); setInterval(() => {}, 1000)"];
const bin: number[] = [];
const bare: number[] = [];
for (let run = 0; run < RUNS; run++) {
  bin.push(await processStart([cli, '--port', '0', '--quiet']));
  bare.push(await processStart(BARE));
}

const { startSandbox } = (await import(pathToFileURL(fromRoot('dist/sandbox/index.js')).href)) as typeof import('../sandbox/index.js');
const inProcess: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const started = performance.now();
  const sandbox = await startSandbox();
  inProcess.push(performance.now() - started);
  await sandbox.close();
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const figures = {
  binMedianMs: round(percentile(sorted(bin), 50)),
  binP95Ms: round(percentile(sorted(bin), 95)),
  bareNodeMedianMs: round(percentile(sorted(bare), 50)),
  binOverBareMedianMs: round(percentile(sorted(bin.map((ms, run) => ms - bare[run]!)), 50)),
  startSandboxFirstMs: round(inProcess[0]!),
  startSandboxMedianMs: round(percentile(sorted(inProcess), 50)),
};
printTable('Sandbox start-up (ms)', [
  { what: 'bin: process start → URL printed', median: figures.binMedianMs, p95: figures.binP95Ms },
  { what: 'bare node: process start → line printed', median: figures.bareNodeMedianMs },
  { what: 'bin − bare node (paired runs)', median: figures.binOverBareMedianMs },
  { what: 'startSandbox(): call → resolved', first: figures.startSandboxFirstMs, median: figures.startSandboxMedianMs },
]);
const targets = [
  { name: 'the bin serves in under a second (median)', met: figures.binMedianMs < 1000, detail: `${figures.binMedianMs} ms` },
  {
    name: "the sandbox's own start-up (bin − bare node) under a second",
    met: figures.binOverBareMedianMs < 1000,
    detail: `${figures.binOverBareMedianMs} ms`,
  },
];
for (const t of targets) printTarget(t.name, t.met, t.detail);
const file = await writeResult('sandbox-startup', { runs: RUNS, ...figures, targets });
console.log(`wrote ${file}`);
