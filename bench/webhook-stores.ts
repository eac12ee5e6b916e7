/**
 * Bench 9, webhook stores: deliveries per second and p50/p99 latency of
 * `createWebhookHandler` with the memory store, the Redis store and the
 * PostgreSQL store, at 50 concurrent connections, a new `event_id` per
 * delivery (each one claimed, run and marked done). Redis and PostgreSQL are
 * private Debian servers on unix sockets (test/private-servers.ts), with their
 * default durability (PostgreSQL: fsync and synchronous commit on). The
 * receiver runs in its own process (bench/lib/webhook-store-server.ts),
 * autocannon in this one; a fixed number of deliveries, bounded by a watchdog.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon, { type Result } from 'autocannon';
import { startPostgres, startRedis, type PrivateServer } from '../test/private-servers.js';
import { fromRoot } from './lib/bundle.js';
import { printTable, printTarget, writeResult } from './lib/report.js';
import { round } from './lib/stats.js';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 5_000);
const WARMUP = 500;
const CONNECTIONS = 50;
const WATCHDOG_MS = 200_000;

const children: ChildProcess[] = [];
const servers: PrivateServer[] = [];
const stopAll = async () => {
  for (const child of children) child.stdin?.end();
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
  const [line] = await Promise.race([
    createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next().then((r) => [r.value as string]),
    new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the receiver exited with ${code}`)))),
  ]);
  return (JSON.parse(line!) as { url: string }).url;
}

const delivery = () =>
  JSON.stringify({ event: 'account.added', event_id: crypto.randomUUID(), payload: { account_id: crypto.randomUUID(), platform_name: 'Bench Payroll' } });
const deliver = (url: string, amount: number) =>
  autocannon({
    url,
    connections: CONNECTIONS,
    amount,
    timeout: 10,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (request) => ({ ...request, body: delivery() }) }],
  });

const STORES = ['memory', 'redis', 'postgres'] as const;
const LABELS: Record<(typeof STORES)[number], string> = {
  memory: 'memory (default, one process)',
  redis: 'Redis 7 (payroll-link/server/redis)',
  postgres: 'PostgreSQL 15 (payroll-link/server/postgres)',
};
const results: Partial<Record<(typeof STORES)[number], Result>> = {};
try {
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
    const url = await startReceiver(env);
    await deliver(url, WARMUP);
    results[store] = await deliver(url, DELIVERIES);
  }
} finally {
  clearTimeout(watchdog);
  await stopAll();
}

const figures = Object.fromEntries(
  STORES.map((store) => {
    const r = results[store]!;
    const seconds = (r.finish.getTime() - r.start.getTime()) / 1000;
    return [store, { deliveries: r.requests.total, ok: r['2xx'], non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts, seconds, perSecond: r['2xx'] / seconds, p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max }];
  }),
) as Record<(typeof STORES)[number], { deliveries: number; ok: number; non2xx: number; errors: number; timeouts: number; seconds: number; perSecond: number; p50: number; p99: number; max: number }>;

printTable(`Webhook deliveries: ${DELIVERIES} each, a new event_id each, ${CONNECTIONS} connections, loopback`, STORES.map((store) => ({
  store: LABELS[store],
  '2xx': figures[store].ok,
  'non-2xx': figures[store].non2xx,
  errors: figures[store].errors,
  'deliveries/s': round(figures[store].perSecond, 0),
  'p50 ms': figures[store].p50,
  'p99 ms': figures[store].p99,
  'max ms': figures[store].max,
})));
const clean = STORES.every((store) => figures[store].ok === DELIVERIES && figures[store].errors === 0 && figures[store].non2xx === 0);
printTarget('every delivery answered 2xx, no errors or timeouts', clean, clean ? 'yes' : JSON.stringify(figures));
const file = await writeResult('webhook-stores', {
  deliveries: DELIVERIES,
  warmup: WARMUP,
  connections: CONNECTIONS,
  figures,
  targets: [{ name: 'every delivery answered 2xx, no errors or timeouts', met: clean }],
});
console.log(`wrote ${file}`);
