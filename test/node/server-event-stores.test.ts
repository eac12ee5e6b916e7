/**
 * The webhook handler's claim stores (issue 24, items 1 to 3): the same
 * contract run against the memory store, Redis (`payroll-link/server/redis`)
 * and PostgreSQL (`payroll-link/server/postgres`), the last two on real,
 * private servers (Debian's redis-server and postgresql, on unix sockets in
 * temporary folders, stopped after each group even when a test fails). Two
 * handlers sharing one store stand for two instances: a copy that finds the
 * other's claim gets 503 with Retry-After; a claim whose holder died runs out;
 * a store that is down gets 503 and no callback, and all is handled once it
 * is back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createClient } from 'redis';
import { ConfigError, createWebhookHandler, ErrorBodySchema, memoryEventIdStore, type EventClaimStore } from 'payroll-link/server';
import { postgresEventStore } from 'payroll-link/server/postgres';
import { redisEventStore } from 'payroll-link/server/redis';
import { startPostgres, startRedis, type PrivateServer } from '../private-servers.js';
import { captureLog } from './server-example-upstream.js';

const SECRET = 'whsec_0123456789abcdef';

const accountAdded = (eventId: string = crypto.randomUUID()) => ({
  event: 'account.added',
  event_id: eventId,
  payload: { account_id: crypto.randomUUID(), platform_name: 'Gusto Sandbox' },
});

const deliver = (body: unknown) =>
  new Request(`http://localhost/hooks?secret=${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A store under test, with its server (null for memory) and a way to close its client. */
interface Subject {
  store: EventClaimStore;
  server: PrivateServer | null;
  close(): Promise<void>;
}

const subjects: [string, () => Promise<Subject>][] = [
  ['memory', async () => ({ store: memoryEventIdStore(), server: null, close: async () => {} })],
  [
    'Redis',
    async () => {
      const server = await startRedis();
      // Reconnect at once and often: the "store is back" test waits for the client to find the server again.
      const client = createClient({ socket: { path: server.socketPath, reconnectStrategy: () => 50 } });
      client.on('error', () => {}); // Reconnection errors while the server is paused are expected.
      await client.connect();
      return {
        store: redisEventStore(client),
        server,
        close: async () => {
          client.destroy();
          await server.stop();
        },
      };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const server = await startPostgres();
      const pool = new pg.Pool({ ...server.connection, connectionTimeoutMillis: 2_000 });
      pool.on('error', () => {}); // An idle client's connection lost while the server is paused; the pool replaces it.
      return {
        store: postgresEventStore(pool),
        server,
        close: async () => {
          await pool.end();
          await server.stop();
        },
      };
    },
  ],
];

for (const [name, makeSubject] of subjects) {
  describe(`${name} store`, () => {
    let subject: Subject;
    before(async () => {
      subject = await makeSubject();
    });
    after(() => subject?.close());

    test('claim, busy for another token, release only by its holder, done for good', async () => {
      const { store } = subject;
      const id = crypto.randomUUID();
      assert.equal(await store.claim(id, 'a', 60_000), 'claimed');
      assert.equal(await store.claim(id, 'b', 60_000), 'busy');
      await store.release(id, 'b');
      assert.equal(await store.claim(id, 'b', 60_000), 'busy', 'a release by another token changes nothing');
      await store.release(id, 'a');
      assert.equal(await store.claim(id, 'b', 60_000), 'claimed');
      await store.markDone(id, 'b');
      assert.equal(await store.claim(id, 'c', 60_000), 'done');
      await store.release(id, 'b');
      assert.equal(await store.claim(id, 'c', 60_000), 'done', 'a release after done changes nothing');
    });

    test('isDone: true once marked done, false before (unknown, or only claimed), and it claims nothing', async () => {
      const { store } = subject;
      assert.ok(store.isDone, 'the built-in stores have isDone');
      const id = crypto.randomUUID();
      assert.equal(await store.isDone(id), false);
      assert.equal(await store.claim(id, 'a', 60_000), 'claimed');
      assert.equal(await store.isDone(id), false);
      await store.markDone(id, 'a');
      assert.equal(await store.isDone(id), true);
      const other = crypto.randomUUID();
      await store.isDone(other);
      assert.equal(await store.claim(other, 'b', 60_000), 'claimed', 'asking claimed nothing');
    });

    test('a lease runs out: the claim of a holder that died is taken by the next caller', async () => {
      const { store } = subject;
      const id = crypto.randomUUID();
      // Long enough that the next claim's round trip ends within it on a loaded machine (at 300 ms, it might not).
      assert.equal(await store.claim(id, 'died', 1_500), 'claimed');
      assert.equal(await store.claim(id, 'next', 1_500), 'busy');
      await sleep(1_600); // The lease's own length: what is under test is that it ends.
      assert.equal(await store.claim(id, 'next', 60_000), 'claimed');
    });

    test('50 callers claiming one id at once: exactly one gets it', async () => {
      const { store } = subject;
      const id = crypto.randomUUID();
      const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => store.claim(id, `t${n}`, 60_000)));
      assert.equal(answers.filter((answer) => answer === 'claimed').length, 1);
      assert.equal(answers.filter((answer) => answer === 'busy').length, 49);
    });

    test('two instances: the copy that finds the claim gets 503 EVENT_IN_PROGRESS with Retry-After; later, a duplicate', async () => {
      let runs = 0;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const first = createWebhookHandler({
        secret: SECRET,
        store: subject.store,
        log: captureLog().log,
        onEvent: async () => void (runs++, await gate),
      });
      const second = createWebhookHandler({ secret: SECRET, store: subject.store, log: captureLog().log, onEvent: () => void runs++ });
      const event = accountAdded();
      const running = first(deliver(event));
      // The first instance holds the claim once its callback has started.
      while (runs === 0) await sleep(5);
      const busy = await second(deliver(event));
      assert.equal(busy.status, 503);
      assert.equal(busy.headers.get('retry-after'), '15'); // The default lease: callbackTimeoutMs (10 s) + 5 s.
      assert.equal(ErrorBodySchema.parse(await busy.json()).error.error_codes[0]!.error_code, 'EVENT_IN_PROGRESS');
      release();
      assert.deepEqual(await (await running).json(), { received: true, duplicate: false });
      assert.deepEqual(await (await second(deliver(event))).json(), { received: true, duplicate: true });
      assert.equal(runs, 1);
    });

    test('an instance that dies mid-callback: after its lease, a copy is handled, once', async () => {
      // The dead instance claimed and never came back: its claims are in the store, nothing will release them.
      // Within its lease a copy is busy: a lease of a minute, so that a loaded machine's slowness cannot end it
      // before the copy arrives (a lease the length of the wait below once did, and the copy ran).
      const held = accountAdded();
      assert.equal(await subject.store.claim(held.event_id, 'dead-instance', 60_000), 'claimed');
      let runs = 0;
      const survivor = createWebhookHandler({ secret: SECRET, store: subject.store, log: captureLog().log, onEvent: () => void runs++ });
      assert.equal((await survivor(deliver(held))).status, 503);
      assert.equal(runs, 0);
      // Past its lease, a copy is handled: any lateness only makes the lease more over.
      const event = accountAdded();
      assert.equal(await subject.store.claim(event.event_id, 'dead-instance', 300), 'claimed');
      await sleep(400); // The lease's own length.
      assert.deepEqual(await (await survivor(deliver(event))).json(), { received: true, duplicate: false });
      assert.deepEqual(await (await survivor(deliver(event))).json(), { received: true, duplicate: true });
      assert.equal(runs, 1);
    });

    if (name !== 'memory') {
      test(
        'the store stopped: 503 STORE_UNAVAILABLE and no callback; back again, every event is handled once',
        { timeout: 60_000 },
        async () => {
          const runs = new Map<string, number>();
          const { log, lines } = captureLog();
          const handler = createWebhookHandler({
            secret: SECRET,
            store: subject.store,
            log,
            onEvent: (event) => void runs.set(event.event_id, (runs.get(event.event_id) ?? 0) + 1),
          });
          const events = Array.from({ length: 5 }, () => accountAdded());
          await subject.server!.pause();
          // At once: a store call that hangs (node-redis queues commands while it reconnects) waits out its bound once.
          for (const answer of await Promise.all(events.map((event) => handler(deliver(event))))) {
            assert.equal(answer.status, 503);
            assert.ok(answer.headers.get('retry-after'));
            assert.equal(ErrorBodySchema.parse(await answer.json()).error.error_codes[0]!.error_code, 'STORE_UNAVAILABLE');
          }
          assert.equal(runs.size, 0, 'no callback while the store is down');
          assert.ok(
            lines.some((line) => line.includes('webhook: store.claim')),
            lines.join('\n'),
          );
          await subject.server!.start();
          // The sender's redeliveries: each event until it is acknowledged (the client reconnects on its own).
          for (const event of events) {
            let answer = await handler(deliver(event));
            for (let tries = 0; answer.status === 503 && tries < 100; tries++) {
              await sleep(100);
              answer = await handler(deliver(event));
            }
            assert.equal(answer.status, 200);
          }
          assert.deepEqual([...runs.values()], [1, 1, 1, 1, 1]);
        },
      );
    }
  });
}

describe('options', () => {
  test('a lease no longer than the callback bound, or a store without claim (or has/add), is a ConfigError', () => {
    const base = { secret: SECRET, onEvent: () => {} };
    assert.throws(
      () => createWebhookHandler({ ...base, callbackTimeoutMs: 5_000, leaseMs: 5_000 }),
      (error: unknown) => error instanceof ConfigError && /leaseMs/.test(error.message),
    );
    assert.throws(() => createWebhookHandler({ ...base, store: { claim: () => 'claimed' } as unknown as EventClaimStore }), /store/);
    assert.throws(() => redisEventStore({} as never), ConfigError);
    assert.throws(() => postgresEventStore({ query: async () => ({ rows: [] }) }, { table: 'x; drop table y' }), ConfigError);
  });
});
