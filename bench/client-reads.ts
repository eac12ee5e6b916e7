/**
 * Bench 12, client reads under the rate limit: how close `createPayrollClient`
 * comes to the sandbox's default limit (10 requests per second) without
 * crossing it. One process with the client's own in-process limiter, then four
 * processes sharing `redisRateLimiter` (`payroll-link/server/redis`) on a
 * private Redis, each making its reads all at once (test/e2e/paced-reader.ts,
 * the multi-process test's readers). The sandbox runs in its own process with
 * its default limit; a loopback proxy in this one (the tests' counting proxy)
 * counts the 429s the sandbox answers and times each request's arrival, from
 * which the tightest run of LIMIT + 1 consecutive arrivals (over 1 s: no 429)
 * and the spread of the delays the margin covers. Bounded by a watchdog.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPayrollClient } from 'payroll-link/server';
import { startFakeOutside } from '../test/node/client-fake-outside.js';
import { runPacedReaders, type PacedReadersRun } from '../test/e2e/paced-readers.js';
import { startRedis } from '../test/private-servers.js';
import { fromRoot } from './lib/bundle.js';
import { firstLine } from './lib/first-line.js';
import { printTable, printTarget, writeResult } from './lib/report.js';
import { round } from './lib/stats.js';
import { slotIntervalMs } from '../src/server/client/rate-limiter.js';

const READS = Number(process.env.BENCH_READS ?? 200);
/** The sandbox's default limit, and the one documented for sandbox and development modes. */
const LIMIT = 10;
const PROCESSES = 4;
const TARGET_SHARE = 0.88;
const WATCHDOG_MS = 200_000;

const children: ChildProcess[] = [];
const watchdog = setTimeout(() => {
  console.error(`client-reads: not done within ${WATCHDOG_MS / 1000} s, stopping`);
  for (const child of children) child.kill();
  process.exit(1);
}, WATCHDOG_MS);

const sandboxProcess = spawn(process.execPath, ['--import', 'tsx', fromRoot('bench/lib/load-server.ts'), 'sandbox'], {
  env: { ...process.env, BENCH_RATE_LIMIT: String(LIMIT) },
  stdio: ['pipe', 'pipe', 'inherit'],
});
children.push(sandboxProcess);
const line = await firstLine(sandboxProcess, 'the sandbox');
const sandbox = JSON.parse(line) as { url: string; secret: string };
const outside = await startFakeOutside(sandbox.url);
const redis = await startRedis();
const load = { before: loadavg()[0]!, after: 0 };

type Row = { label: string; processes: number; run: PacedReadersRun; sandbox429s: number; arrivals: number[] };
const rows: Row[] = [];
try {
  const setup = createPayrollClient({ apiSecret: sandbox.secret, baseUrl: outside.url, version: '2025-07-08', mode: 'sandbox' });
  const created = await fetch(`${outside.url}/sandbox/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-secret': sandbox.secret, 'service-version': '2025-07-08' },
    body: '{}',
  });
  const accountId = ((await created.json()) as { data: { account: { id: string } } }).data.account.id;
  const [platform] = await setup.platforms.list().toArray({ limit: 1 });
  const common = { baseUrl: outside.url, apiSecret: sandbox.secret, accountId, platformId: platform!.id };

  const measure = async (label: string, processes: number, run: () => Promise<PacedReadersRun>) => {
    // The sandbox's sliding second must be empty before a run starts at full speed: the runs do not share a limiter.
    await sleep(1_200);
    const before = outside.sandbox429s();
    const from = outside.requests.length;
    const done = await run();
    // The reads' own requests: the readers' warm-up calls carry a wrong secret, which the sandbox does not count.
    const arrivals = outside.arrivedAt.slice(from).filter((_, i) => outside.secrets[from + i] === sandbox.secret);
    rows.push({ label, processes, run: done, sandbox429s: outside.sandbox429s() - before, arrivals });
  };
  await measure('1 process, in-process limiter (the default)', 1, () =>
    runPacedReaders({ ...common, processes: 1, readsEach: READS, limiter: 'default' }),
  );
  await measure(`${PROCESSES} processes, redisRateLimiter`, PROCESSES, () =>
    runPacedReaders({
      ...common,
      processes: PROCESSES,
      readsEach: READS / PROCESSES,
      limiter: 'redis',
      redisSocket: redis.socketPath,
      perSecond: LIMIT,
      keyPrefix: 'bench:',
    }),
  );
} finally {
  clearTimeout(watchdog);
  load.after = loadavg()[0]!;
  await outside.close();
  await redis.stop();
  sandboxProcess.stdin?.end();
}

/** The slot interval of the built-in limiters at LIMIT (see RATE_LIMIT_MARGIN_MS in src/server/client/rate-limiter.ts). */
const INTERVAL_MS = slotIntervalMs(LIMIT);

const figures = rows.map(({ label, processes, run, sandbox429s, arrivals }) => {
  const ok = run.results.reduce((total, result) => total + result.ok, 0);
  const failures = run.results.flatMap((result) => result.failures);
  const seconds = run.elapsedMs / 1000;
  // No burst (GCRA, #51): the first read goes at once, each after it one interval later.
  const sustained = (ok - 1) / seconds;
  // Any LIMIT + 1 consecutive arrivals must span more than the service's second; sent LIMIT intervals apart, the
  // shortfall is how much later than the others some reached the service: what the margin is there to cover.
  const spans = arrivals.slice(LIMIT).map((at, i) => at - arrivals[i]!);
  const tightest = spans.length > 0 ? Math.min(...spans) : null;
  return {
    label,
    processes,
    reads: READS,
    ok,
    failures: failures.length,
    sandbox429s,
    seconds: round(seconds, 2),
    perSecond: round(ok / seconds, 2),
    sustained: round(sustained, 2),
    share: round(sustained / LIMIT, 3),
    tightestSpanMs: tightest === null ? null : round(tightest, 1),
    delaySpreadMs: tightest === null ? null : round(LIMIT * INTERVAL_MS - tightest, 1),
  };
});

printTable(
  `Client reads against the sandbox's limit of ${LIMIT}/s (${READS} reads per row, all at once; load ${round(load.before, 1)} → ${round(load.after, 1)})`,
  figures.map((f) => ({
    row: f.label,
    ok: f.ok,
    failed: f.failures,
    '429 at sandbox': f.sandbox429s,
    s: f.seconds,
    'reads/s': f.perSecond,
    'sustained/s': f.sustained,
    'of limit': `${Math.round(f.share * 100)} %`,
    [`tightest ${LIMIT + 1} arrivals, ms`]: f.tightestSpanMs ?? '',
    'delay spread, ms': f.delaySpreadMs ?? '',
  })),
);
const targets = figures.map((f) => {
  const met = f.share >= TARGET_SHARE && f.failures === 0 && f.sandbox429s === 0 && f.ok === READS;
  const name = `${f.label}: sustained ≥ ${TARGET_SHARE * 100} % of ${LIMIT}/s, 0 failures, 0 answers of 429`;
  printTarget(name, met, `${f.sustained}/s (${Math.round(f.share * 100)} %), ${f.failures} failed, ${f.sandbox429s} × 429`);
  return { name, met };
});
const file = await writeResult('client-reads', { reads: READS, limit: LIMIT, processes: PROCESSES, loadAverage: load, figures, targets });
console.log(`wrote ${file}`);
