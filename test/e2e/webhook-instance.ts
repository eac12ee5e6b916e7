/**
 * One instance of a small integrator app for the multi-process test
 * (webhook-instances.test.ts): `createWebhookHandler` on node:http with the
 * Redis or PostgreSQL store, as an integrator would run it. Its callback's
 * side effect is one request to the test's counter, outside every instance,
 * where the runs are counted.
 *
 * Environment: STORE (redis | postgres), REDIS_SOCKET or PG_HOST, COUNTER_URL,
 * WEBHOOK_SECRET. Prints `listening <port>` once it serves.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createClient } from 'redis';
import { createWebhookHandler, type EventClaimStore } from 'payroll-link/server';
import { toNodeHandler } from 'payroll-link/server/node';
import { postgresEventStore } from 'payroll-link/server/postgres';
import { redisEventStore } from 'payroll-link/server/redis';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

async function makeStore(): Promise<EventClaimStore> {
  if (env('STORE') === 'redis') {
    // Reconnect quickly after the test stops and restarts Redis.
    const client = createClient({ socket: { path: env('REDIS_SOCKET'), reconnectStrategy: () => 100 } });
    client.on('error', () => {});
    await client.connect();
    return redisEventStore(client);
  }
  const pool = new pg.Pool({ host: env('PG_HOST'), user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2_000 });
  // An idle connection lost while the test stops PostgreSQL: the pool replaces it; unhandled, the event would crash us.
  pool.on('error', () => {});
  return postgresEventStore(pool);
}

const counter = env('COUNTER_URL');

/** The callback's side effect: one run recorded at the counter (like a credit in a ledger). */
async function run(eventId: string): Promise<void> {
  const response = await fetch(`${counter}/run`, { method: 'POST', body: JSON.stringify({ eventId, pid: process.pid }) });
  if (!response.ok) throw new Error(`counter answered ${response.status}`);
}

const quiet = { info: () => {}, warn: () => {}, error: (message: string) => console.error(message) };
const handler = createWebhookHandler({
  secret: env('WEBHOOK_SECRET'),
  store: await makeStore(),
  log: quiet,
  // Bounds far above a callback's time even on a loaded machine, and a lease short enough that a killed
  // instance's claim runs out well within the sandbox's retries.
  callbackTimeoutMs: 5_000,
  leaseMs: 10_000,
  onEvent: (event) => run(event.event_id),
  onUnknownEvent: (event) => run(event.event_id),
});

const server = createServer(toNodeHandler(handler, { log: quiet }));
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
