/**
 * One process of the multi-process read test (client-redis-processes.test.ts)
 * and of the client-reads bench: `createPayrollClient` as an integrator runs
 * it, paced by `redisRateLimiter` on a shared Redis (LIMITER=redis) or by the
 * client's own in-process limiter (LIMITER=default). It prints `ready` once
 * connected, waits for `go` on stdin, so that every process starts at once,
 * makes READS single-resource reads all at once (accounts.get and
 * platforms.get in turn), then prints one `result <json>` line.
 *
 * Environment: BASE_URL, API_SECRET, ACCOUNT_ID, PLATFORM_ID, READS, LIMITER,
 * and for LIMITER=redis: REDIS_SOCKET, PER_SECOND, KEY_PREFIX.
 */
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { createClient } from 'redis';
import { createPayrollClient, isPayrollApiError, type RateLimiter } from 'payroll-link/server';
import { redisRateLimiter } from 'payroll-link/server/redis';

/** What a reader prints at the end. */
export interface ReaderResult {
  ok: number;
  /** One entry per failed read: its kind and status. */
  failures: string[];
  /** 429s the client met (and retried). */
  seen429: number;
  /** From `go` to the last answer, in ms. */
  ms: number;
}

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

let redis: { destroy(): void } | null = null;
let rateLimit: RateLimiter | undefined;
if (env('LIMITER') === 'redis') {
  const client = createClient({ socket: { path: env('REDIS_SOCKET'), reconnectStrategy: () => 100 } });
  client.on('error', () => {});
  await client.connect();
  redis = client;
  rateLimit = redisRateLimiter(client, { perSecond: Number(env('PER_SECOND')), keyPrefix: env('KEY_PREFIX') });
}

let seen429 = 0;
const quiet = () => {};
const client = createPayrollClient({
  apiSecret: env('API_SECRET'),
  baseUrl: env('BASE_URL'),
  version: '2025-07-08',
  mode: 'sandbox',
  // Without it: the client's own limiter, 10 per second in sandbox mode.
  ...(rateLimit && { rateLimit }),
  log: { info: quiet, warn: quiet, error: quiet },
  onResponse: ({ status }) => {
    if (status === 429) seen429++;
  },
});
const accountId = env('ACCOUNT_ID');
const platformId = env('PLATFORM_ID');
const reads = Number(env('READS'));

// Warm, as a server that has run a while is: a cold process's first calls load Node's HTTP client (undici),
// compile the client's code and open connections, tens of ms that would make the first paced sends arrive
// late, and the next ones, on time, inside the service's second with them (the margin is 100 ms). With a wrong
// secret and no limiter: the sandbox answers 401 before it counts a request against the limit.
const cold = createPayrollClient({
  apiSecret: 'warm_up_not_the_secret',
  baseUrl: env('BASE_URL'),
  version: '2025-07-08',
  rateLimit: false,
  log: { info: quiet, warn: quiet, error: quiet },
});
await Promise.all(
  Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? cold.accounts.get(accountId) : cold.platforms.get(platformId)).catch(() => {})),
);

const lines = createInterface({ input: process.stdin });
console.log('ready');
for await (const line of lines) if (line === 'go') break;

const started = performance.now();
const settled = await Promise.allSettled(
  Array.from({ length: reads }, (_, i) => (i % 2 === 0 ? client.accounts.get(accountId) : client.platforms.get(platformId))),
);
const result: ReaderResult = {
  ok: settled.filter((entry) => entry.status === 'fulfilled').length,
  failures: settled.flatMap((entry) => {
    if (entry.status === 'fulfilled') return [];
    const error = entry.reason;
    return [isPayrollApiError(error) ? `${error.kind} ${error.status}` : String(error)];
  }),
  seen429,
  ms: performance.now() - started,
};
console.log(`result ${JSON.stringify(result)}`);
lines.close();
redis?.destroy();
