/**
 * The webhook receiver of bench 9 in its own process: `createWebhookHandler`
 * on node:http with the store named in `BENCH_STORE` (`memory`, `redis` on
 * the unix socket `BENCH_REDIS_SOCKET`, `postgres` on the socket folder
 * `BENCH_PG_HOST`) and a callback that does nothing, so what is measured is
 * the handler and its store. Prints one JSON line `{ url }` when listening and
 * stops when stdin closes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createClient } from 'redis';
import { createWebhookHandler, memoryEventIdStore, type EventClaimStore } from '../../src/server/index.js';
import { toNodeHandler } from '../../src/server/node.js';
import { postgresEventStore } from '../../src/server/postgres.js';
import { redisEventStore } from '../../src/server/redis.js';

export const BENCH_WEBHOOK_SECRET = 'whsec_bench_webhook_stores_0123';

let closeStore: () => Promise<unknown> = async () => {};
async function makeStore(): Promise<EventClaimStore> {
  switch (process.env.BENCH_STORE) {
    case 'redis': {
      const client = createClient({ socket: { path: process.env.BENCH_REDIS_SOCKET!, tls: false } });
      client.on('error', (error) => console.error('redis', error));
      await client.connect();
      closeStore = () => client.close();
      return redisEventStore(client);
    }
    case 'postgres': {
      // The pool's default size (10): what an app gets without tuning.
      const pool = new pg.Pool({ host: process.env.BENCH_PG_HOST!, user: 'postgres', database: 'postgres' });
      closeStore = () => pool.end();
      return postgresEventStore(pool);
    }
    default:
      return memoryEventIdStore();
  }
}

const handler = createWebhookHandler({
  secret: BENCH_WEBHOOK_SECRET,
  store: await makeStore(),
  log: { info: () => {}, warn: () => {}, error: (message) => console.error(message) },
  onEvent: () => {},
});
const server = createServer(toNodeHandler(handler));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
process.stdout.write(
  `${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks?secret=${BENCH_WEBHOOK_SECRET}` })}\n`,
);
process.stdin.resume();
process.stdin.on('end', async () => {
  server.close();
  server.closeAllConnections();
  await closeStore();
  process.exit(0);
});
