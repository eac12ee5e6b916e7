/**
 * Bench 9, webhook stores: deliveries per second and p50/p99 latency of
 * `createWebhookHandler` with the memory store, the Redis store and the
 * PostgreSQL store, at 50 concurrent connections, a new `event_id` per
 * delivery (each one claimed, run and marked done). Redis and PostgreSQL are
 * private Debian servers on unix sockets (test/private-servers.ts), with their
 * default durability (PostgreSQL: fsync and synchronous commit on). The
 * receiver runs in its own process (bench/lib/webhook-store-server.ts),
 * autocannon in this one; a fixed number of deliveries, bounded by a watchdog.
 * The three stores take turns, ROUNDS times, so that a change in the machine's
 * load (it is shared) hits them alike; each figure is the median of its rounds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { startPostgres, startRedis, type PrivateServer } from '../test/private-servers.js';
import { fromRoot } from './lib/bundle.js';
import { firstLine } from './lib/first-line.js';
import { printTable, printTarget, writeResult } from './lib/report.js';
import { percentile, round } from './lib/stats.js';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 2_000);
const ROUNDS = 3;
const WARMUP = 500;
const CONNECTIONS = 50;
const WATCHDOG_MS = 200_000;

const children: ChildProcess[] = [];
const servers: PrivateServer[] = [];
const stopAll = async () => {
  // The receivers first (each closes its client), then the servers they were connected to.
  await Promise.all(
    children.map((child) => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin?.end();
      return exited;
    }),
  );
  await Promise.all(servers.map((server) => server.stop()));
};
const watchdog = setTimeout(() => {
  console.error(`webhook-stores: not done within ${WATCHDOG_MS / 1000} s, stopping`);
  for (const child of children) child.kill();
  void stopAll().finally(() => process.exit(1));
}, WATCHDOG_MS);

async function startReceiver(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', fromRoot('bench/lib/webhook-store-server.ts')], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  const line = await firstLine(child, 'the receiver');
  return (JSON.parse(line) as { url: string }).url;
}

const delivery = () =>
  JSON.stringify({
    event: 'account.added',
    event_id: crypto.randomUUID(),
    payload: { account_id: crypto.randomUUID(), platform_name: 'Bench Payroll' },
  });
const deliver = (url: string, amount: number) =>
  autocannon({
    url,
    connections: CONNECTIONS,
    amount,
    timeout: 10,
    requests: [
      { method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (request) => ({ ...request, body: delivery() }) },
    ],
  });

const STORES = ['memory', 'redis', 'postgres'] as const;
const LABELS: Record<(typeof STORES)[number], string> = {
  memory: 'memory (default, one process)',
  redis: 'Redis 7 (payroll-link/server/redis)',
  postgres: 'PostgreSQL 15 (payroll-link/server/postgres)',
};
type Figures = {
  deliveries: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
};
const rounds: Record<(typeof STORES)[number], Figures[]> = { memory: [], redis: [], postgres: [] };
const load = { before: loadavg()[0]!, after: 0 };
try {
  const urls = {} as Record<(typeof STORES)[number], string>;
  for (const store of STORES) {
    let env: Record<string, string> = { BENCH_STORE: store };
    if (store === 'redis') {
      const redis = await startRedis();
      servers.push(redis);
      env = { ...env, BENCH_REDIS_SOCKET: redis.socketPath };
    } else if (store === 'postgres') {
      const postgres = await startPostgres({ durable: true });
      servers.push(postgres);
      env = { ...env, BENCH_PG_HOST: postgres.dir };
    }
    urls[store] = await startReceiver(env);
    await deliver(urls[store], WARMUP);
  }
  for (let turn = 0; turn < ROUNDS; turn++) {
    for (const store of STORES) {
      const r = await deliver(urls[store], DELIVERIES);
      const seconds = (r.finish.getTime() - r.start.getTime()) / 1000;
      rounds[store].push({
        deliveries: r.requests.total,
        ok: r['2xx'],
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
        seconds,
        perSecond: r['2xx'] / seconds,
        p50: r.latency.p50,
        p99: r.latency.p99,
        max: r.latency.max,
      });
    }
  }
  load.after = loadavg()[0]!;
} finally {
  clearTimeout(watchdog);
  await stopAll();
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const figures = Object.fromEntries(
  STORES.map((store) => {
    const list = rounds[store];
    const sum = (key: 'ok' | 'non2xx' | 'errors' | 'timeouts') => list.reduce((total, figure) => total + figure[key], 0);
    return [
      store,
      {
        ok: sum('ok'),
        non2xx: sum('non2xx'),
        errors: sum('errors'),
        timeouts: sum('timeouts'),
        perSecond: median(list.map((f) => f.perSecond)),
        p50: median(list.map((f) => f.p50)),
        p99: median(list.map((f) => f.p99)),
        max: Math.max(...list.map((f) => f.max)),
      },
    ];
  }),
) as Record<(typeof STORES)[number], Omit<Figures, 'deliveries' | 'seconds'>>;

printTable(
  `Webhook deliveries: ${ROUNDS} rounds of ${DELIVERIES} per store, a new event_id each, ${CONNECTIONS} connections, loopback (load average ${round(load.before, 1)} → ${round(load.after, 1)})`,
  STORES.map((store) => ({
    store: LABELS[store],
    '2xx': figures[store].ok,
    'non-2xx': figures[store].non2xx,
    errors: figures[store].errors,
    'deliveries/s': round(figures[store].perSecond, 0),
    'p50 ms': figures[store].p50,
    'p99 ms': figures[store].p99,
    'max ms': figures[store].max,
  })),
);
const clean = STORES.every(
  (store) => figures[store].ok === ROUNDS * DELIVERIES && figures[store].errors === 0 && figures[store].non2xx === 0,
);
printTarget('every delivery answered 2xx, no errors or timeouts', clean, clean ? 'yes' : JSON.stringify(figures));
const file = await writeResult('webhook-stores', {
  deliveries: DELIVERIES,
  rounds: ROUNDS,
  perRound: rounds,
  loadAverage: load,
  warmup: WARMUP,
  connections: CONNECTIONS,
  figures,
  targets: [{ name: 'every delivery answered 2xx, no errors or timeouts', met: clean }],
});
console.log(`wrote ${file}`);
