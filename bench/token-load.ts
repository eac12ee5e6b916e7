/**
 * Bench 6, backend load: `POST /api/link-token` of the example backend
 * (`createLinkTokenHandler` of payroll-link/server, which calls the sandbox)
 * against the sandbox's own `POST /link_tokens` called directly, the baseline;
 * then the webhook route (`createWebhookHandler`, URL secret checked,
 * de-duplication on) with a new `event_id` per delivery, and with one
 * `event_id` delivered again and again. Each server in its own process,
 * autocannon in this process, a fixed number of requests on loopback only,
 * bounded in time by a watchdog. The sandbox's limit is raised to
 * {@link RATE_LIMIT} per second and the backend's client paced at the same
 * (`rateLimit`): at the default 10 per second, 2,000 tokens would take over
 * three minutes and measure the pacing, not the route.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon, { type Result } from 'autocannon';
import { fromRoot } from './lib/bundle.js';
import { firstLine } from './lib/first-line.js';
import { printTable, printTarget, writeResult } from './lib/report.js';
import { round } from './lib/stats.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const WARMUP = 300;
const CONNECTIONS = 10;
const WATCHDOG_MS = 180_000;
/** Requests per second the sandbox allows and the backend's client keeps under: well above what either serves here. */
const RATE_LIMIT = 10_000;

const children: ChildProcess[] = [];
const watchdog = setTimeout(() => {
  console.error(`token-load: not done within ${WATCHDOG_MS / 1000} s, stopping`);
  for (const child of children) child.kill();
  process.exit(1);
}, WATCHDOG_MS);

/** Starts `load-server.ts <which>` and reads its JSON line. */
async function startServer<T>(which: string, env: Record<string, string> = {}): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', fromRoot('bench/lib/load-server.ts'), which], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  const line = await firstLine(child, which);
  return JSON.parse(line) as T;
}

const sandbox = await startServer<{ url: string; secret: string }>('sandbox', { BENCH_RATE_LIMIT: String(RATE_LIMIT) });
const backend = await startServer<{ url: string; webhookUrl: string }>('backend', {
  BENCH_SANDBOX_URL: sandbox.url,
  BENCH_SANDBOX_SECRET: sandbox.secret,
  BENCH_RATE_LIMIT: String(RATE_LIMIT),
});

const targets = {
  direct: {
    label: 'sandbox POST /link_tokens (baseline)',
    url: `${sandbox.url}/link_tokens`,
    headers: { 'content-type': 'application/json', 'x-api-secret': sandbox.secret, 'service-version': '2025-07-08' },
    body: JSON.stringify({ org_name: 'Bench Payroll', features: ['direct_deposit_switch'], solution: 'Deposit Switch' }),
  },
  backend: {
    label: 'server-example POST /api/link-token',
    url: `${backend.url}/api/link-token`,
    headers: { 'content-type': 'application/json' },
    body: '{}',
  },
} as const;

const run = (target: (typeof targets)[keyof typeof targets], amount: number) =>
  autocannon({
    url: target.url,
    method: 'POST',
    headers: { ...target.headers },
    body: target.body,
    connections: CONNECTIONS,
    amount,
    timeout: 10,
  });

/** An `account.added` delivery; `eventId` fixed for redeliveries, new per request otherwise. */
const delivery = (eventId: string = crypto.randomUUID()) =>
  JSON.stringify({
    event: 'account.added',
    event_id: eventId,
    payload: { account_id: crypto.randomUUID(), platform_name: 'Bench Payroll' },
  });
const redelivered = crypto.randomUUID();
const deliver = (amount: number, eventId?: string) =>
  autocannon({
    url: backend.webhookUrl,
    connections: CONNECTIONS,
    amount,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: delivery(eventId) }),
      },
    ],
  });

const results: Record<string, Result> = {};
try {
  for (const key of ['direct', 'backend'] as const) await run(targets[key], WARMUP);
  for (const key of ['direct', 'backend'] as const) results[key] = await run(targets[key], REQUESTS);
  await deliver(WARMUP);
  results.webhookNew = await deliver(REQUESTS);
  results.webhookAgain = await deliver(REQUESTS, redelivered);
} finally {
  clearTimeout(watchdog);
  for (const child of children) child.stdin?.end();
}

const KEYS = ['direct', 'backend', 'webhookNew', 'webhookAgain'] as const;
const LABELS: Record<(typeof KEYS)[number], string> = {
  direct: targets.direct.label,
  backend: targets.backend.label,
  webhookNew: 'server-example POST /api/webhooks, a new event_id each',
  webhookAgain: 'server-example POST /api/webhooks, one event_id again',
};
const figures = Object.fromEntries(
  KEYS.map((key) => {
    const r = results[key]!;
    const seconds = (r.finish.getTime() - r.start.getTime()) / 1000;
    return [
      key,
      {
        requests: r.requests.total,
        ok: r['2xx'],
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
        seconds,
        reqPerSec: r['2xx'] / seconds,
        p50: r.latency.p50,
        p99: r.latency.p99,
        max: r.latency.max,
      },
    ];
  }),
) as Record<
  (typeof KEYS)[number],
  {
    requests: number;
    ok: number;
    non2xx: number;
    errors: number;
    timeouts: number;
    seconds: number;
    reqPerSec: number;
    p50: number;
    p99: number;
    max: number;
  }
>;

printTable(
  `Backend load: ${REQUESTS} POSTs each, ${CONNECTIONS} connections, loopback`,
  KEYS.map((key) => ({
    target: LABELS[key],
    '2xx': figures[key].ok,
    'non-2xx': figures[key].non2xx,
    errors: figures[key].errors,
    'req/s': round(figures[key].reqPerSec, 0),
    'p50 ms': figures[key].p50,
    'p99 ms': figures[key].p99,
    'max ms': figures[key].max,
  })),
);
const ratio = { reqPerSec: figures.backend.reqPerSec / figures.direct.reqPerSec, p99: figures.backend.p99 / figures.direct.p99 };
const added = { p50: figures.backend.p50 - figures.direct.p50, p99: figures.backend.p99 - figures.direct.p99 };
console.log(
  `ratio backend/direct: req/s ${round(ratio.reqPerSec, 2)}×, p99 ${round(ratio.p99, 2)}×; latency the token route adds: p50 ${added.p50} ms, p99 ${added.p99} ms`,
);
const clean = KEYS.every((k) => figures[k].ok === REQUESTS && figures[k].errors === 0 && figures[k].non2xx === 0);
printTarget('every request answered 2xx, no errors or timeouts', clean, clean ? 'yes' : JSON.stringify(figures));
const file = await writeResult('token-load', {
  requests: REQUESTS,
  rateLimitPerSecond: RATE_LIMIT,
  warmup: WARMUP,
  connections: CONNECTIONS,
  figures,
  ratio: { reqPerSec: round(ratio.reqPerSec, 3), p99: round(ratio.p99, 3) },
  addedLatencyMs: added,
  targets: [{ name: 'every request answered 2xx, no errors or timeouts', met: clean }],
});
console.log(`wrote ${file}`);
