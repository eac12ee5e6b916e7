/**
 * `npm run test:repeat`: runs the Node suite several times, and any named test
 * file several times on its own, to show that a test passes every time and not
 * just once. A flaky test fails some runs; one red run in many is a bug to fix,
 * not a retry to add.
 *
 * Usage: `npm run test:repeat -- [--runs N] [--file path ... --file-runs M]
 * [--each-file M] [--concurrency C] [--load suite|cpu [--load-every K]] [--stall MS] [--log-dir DIR]`
 * - `--runs N`: runs of the whole Node suite (default 5; 0 skips it).
 * - `--file path`: a test file to run on its own too (repeatable).
 * - `--file-runs M`: runs of each named file (default 10).
 * - `--each-file M`: runs every file of the suite on its own M times too (default
 *   0): a test that passes alone but fails in the suite, or the other way round,
 *   leans on state that other files change.
 * - `--concurrency C`: passes `--test-concurrency C` to `node --test`, so up to C
 *   files run at once (Node's default is one less than the cores: a single file at
 *   a time on two cores). Files that share a port, a file or a process-wide count
 *   fail here first.
 * - `--load suite|cpu`: loads the machine beside each run. `suite` runs a second
 *   Node suite beside it (started again when it ends before the run does); `cpu`
 *   runs one busy loop per core. A test that waits for time, not for its event,
 *   fails here first. The load stops when the run ends.
 * - `--load-every K`: loads only every K-th run (default 1, every run), so
 *   `--runs 30 --load suite --load-every 2` gives 15 runs under load and 15 not.
 * - `--stall MS`: stalls each test process's event loop for MS ms before a random few
 *   of its network callbacks (scripts/stall-event-loop.ts), as a loaded machine does,
 *   only harder and more often: a test that needs its next request to land within a
 *   span of time fails within a few runs (1200 caught two of issue #30's four races in
 *   8 runs of their files; a race across processes, such as a browser's, it may miss).
 * - `--log-dir DIR`: writes the output of every failed run to a file in DIR (made
 *   if missing), named after the target, the run and its load, and prints its path.
 *   A failed load suite's output is kept there too: it was a run under load.
 *
 * Each run is a fresh `node --import tsx --test …` process, the command
 * `npm run test:node` runs. The output of a failed run is printed; each run's
 * line says whether it had load; the last line is `<passed> passed, <failed>
 * failed` (runs, all targets together), and the exit code is 1 when any run failed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    file: { type: 'string', multiple: true, default: [] },
    'file-runs': { type: 'string', default: '10' },
    'each-file': { type: 'string', default: '0' },
    concurrency: { type: 'string' },
    load: { type: 'string' },
    'load-every': { type: 'string', default: '1' },
    stall: { type: 'string', default: '0' },
    'log-dir': { type: 'string' },
  },
});

const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};

const count = (name: string, value: string): number => {
  if (!/^\d+$/.test(value)) fail(`--${name} must be a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
};

const loadKinds = ['suite', 'cpu'] as const;
type LoadKind = (typeof loadKinds)[number];
const isLoadKind = (value: string): value is LoadKind => (loadKinds as readonly string[]).includes(value);

const load =
  values.load === undefined
    ? undefined
    : isLoadKind(values.load)
      ? values.load
      : fail(`--load must be one of ${loadKinds.join(', ')}, got ${JSON.stringify(values.load)}`);
const loadEvery = count('load-every', values['load-every']);
if (loadEvery === 0) fail('--load-every must be 1 or more');
const concurrency = values.concurrency === undefined ? undefined : count('concurrency', values.concurrency);
if (concurrency === 0) fail('--concurrency must be 1 or more');
const stallMs = count('stall', values.stall);
const logDir = values['log-dir'] === undefined ? undefined : resolve(values['log-dir']);
if (logDir) mkdirSync(logDir, { recursive: true });

/** What `npm run test:node` passes to `node --test`: its glob `test/node/*.test.ts`, expanded. */
const nodeSuite = readdirSync(`${root}test/node`)
  .filter((name) => name.endsWith('.test.ts'))
  .sort()
  .map((name) => `test/node/${name}`);

const eachFileRuns = count('each-file', values['each-file']);
const targets = [
  { label: 'Node suite', files: nodeSuite, runs: count('runs', values.runs) },
  ...values.file.map((file) => ({ label: file, files: [file], runs: count('file-runs', values['file-runs']) })),
  ...(eachFileRuns > 0 ? nodeSuite.map((file) => ({ label: file, files: [file], runs: eachFileRuns })) : []),
];

const testArgs = (files: string[]): string[] => [
  '--import',
  'tsx',
  ...(stallMs > 0 ? ['--import', './scripts/stall-event-loop.ts'] : []),
  '--test',
  ...(concurrency === undefined ? [] : [`--test-concurrency=${concurrency}`]),
  ...files,
];

/** Processes started and not yet ended: a group of its own does not end with this one, so an interrupt stops them. */
const live = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    live.forEach(stop);
    process.exit(130);
  });
}

/**
 * Starts a process in a group of its own, so that stopping it stops the test files `node --test` started too.
 * Its output is collected when `collect` is set, and dropped otherwise.
 */
const start = (args: string[], collect: boolean): { child: ChildProcess; output: () => string } => {
  const env = { ...process.env, TEST_STALL_MS: String(stallMs) };
  const child = spawn(process.execPath, args, {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', collect ? 'pipe' : 'ignore', collect ? 'pipe' : 'ignore'],
  });
  live.add(child);
  child.on('exit', () => live.delete(child));
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { child, output: () => Buffer.concat(chunks).toString('utf8') };
};

/** Stops a process started by `start`, with the processes it started. */
const stop = (child: ChildProcess): void => {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group has gone between the check and the kill: nothing is left to stop.
  }
};

/** Runs the files once in a fresh process; resolves with whether it passed and what it printed. */
const runOnce = (files: string[]): Promise<{ passed: boolean; output: string }> =>
  new Promise((resolveRun) => {
    const { child, output } = start(testArgs(files), true);
    child.on('close', (code) => resolveRun({ passed: code === 0, output: output() }));
  });

const keepLog = (name: string, output: string): void => {
  if (!logDir) return;
  const path = join(logDir, `${name}.log`);
  writeFileSync(path, output);
  console.log(`  log kept: ${path}`);
};

const fileName = (label: string): string => label.replace(/[^\w.-]+/g, '_');

/** Load suites that ran whole (ended on their own, beside a run): more runs under load, reported apart. */
let loadPasses = 0;
let loadFailures = 0;

/** Starts the load beside one run; the function it returns stops it. */
const startLoad = (kind: LoadKind, name: string): (() => void) => {
  if (kind === 'cpu') {
    const burners = Array.from({ length: availableParallelism() }, () => start(['-e', 'for (;;) {}'], false).child);
    return () => burners.forEach(stop);
  }
  let stopped = false;
  let current: ChildProcess | undefined;
  let round = 0;
  const next = (): void => {
    round += 1;
    const suite = start(testArgs(nodeSuite), true);
    const thisRound = round;
    current = suite.child;
    suite.child.on('close', (code) => {
      if (stopped) return;
      // A load suite that ended on its own ran whole under load: its failure counts as a finding, not as a run.
      if (code === 0) {
        loadPasses += 1;
      } else {
        loadFailures += 1;
        console.log(`  the load suite beside ${name} FAILED (round ${thisRound})`);
        keepLog(`${name}-load-suite-${thisRound}`, suite.output());
      }
      next();
    });
  };
  next();
  return () => {
    stopped = true;
    if (current) stop(current);
  };
};

let passed = 0;
let failed = 0;
for (const target of targets) {
  let targetPassed = 0;
  for (let run = 1; run <= target.runs; run += 1) {
    const loaded = load !== undefined && (run - 1) % loadEvery === 0 ? load : undefined;
    const name = `${fileName(target.label)}-run-${run}${loaded ? `-load-${loaded}` : ''}${stallMs > 0 ? `-stall-${stallMs}` : ''}`;
    const stopLoad = loaded ? startLoad(loaded, name) : () => {};
    const started = performance.now();
    const result = await runOnce(target.files);
    stopLoad();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    // The machine's own load average too: other work on a shared machine (helpers, CI, a browser run) loads a run
    // that this script did not load, and a report of "no load" would hide it.
    const machineLoad = `load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`;
    const conditions = [
      loaded ? `load: ${loaded}` : 'no load added',
      machineLoad,
      ...(stallMs > 0 ? [`stalls of ${stallMs} ms`] : []),
    ].join(', ');
    console.log(`${target.label}: run ${run}/${target.runs} ${result.passed ? 'passed' : 'FAILED'} (${seconds} s, ${conditions})`);
    if (result.passed) {
      targetPassed += 1;
    } else {
      console.log(result.output);
      keepLog(name, result.output);
    }
  }
  if (target.runs > 0) console.log(`${target.label}: ${targetPassed} of ${target.runs} runs passed`);
  passed += targetPassed;
  failed += target.runs - targetPassed;
}
if (loadPasses + loadFailures > 0)
  console.log(`load suites that ran whole beside the runs: ${loadPasses} passed, ${loadFailures} failed (not counted below)`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 && loadFailures === 0 ? 0 : 1;
