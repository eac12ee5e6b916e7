/**
 * The launch stores: one contract (src/server/launches/store/launch-store.ts) run against the memory store, Redis
 * (`redisEventStore`) and PostgreSQL (`postgresEventStore`), the last two on real, private servers. Each backend
 * has two stores on two clients (two pools), standing for two instances. No test waits for time to pass: "expired"
 * is an expiry already past, "alive" one far ahead, and the stores that read `Date.now()` have it moved instead.
 * D1 runs the same SQL as PostgreSQL (sqlLaunchStore), and is tested in workerd.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createClient } from 'redis';
import { ConfigError } from '../../src/server/config-error.js';
import { d1EventStore, d1LaunchTableSql } from '../../src/server/d1.js';
import { IN_ONE_PROCESS, isInOneProcess, LaunchStoreFullError, type LaunchStore } from '../../src/server/launches/store/launch-store.js';
import { memoryLaunchStore } from '../../src/server/launches/store/memory-launch-store.js';
import { postgresEventStore, postgresLaunchTableSql } from '../../src/server/postgres.js';
import { redisEventStore } from '../../src/server/redis.js';
import type { EventClaimStore } from '../../src/server/webhooks/event-claim-store.js';
import { memoryEventIdStore } from '../../src/server/webhooks/event-id-store.js';
import { startPostgres, startRedis } from '../private-servers.js';

const FAR = Date.now() + 86_400_000;
const PAST = Date.now() - 60_000;

/** A backend under test: two stores sharing it, whether they are claim stores too, and how to close it. */
interface Subject {
  stores: [LaunchStore, LaunchStore];
  /** The same stores as webhook claim stores, or null (the memory launch store is not one). */
  claims: EventClaimStore | null;
  /** Whether the store reads expiry against `Date.now()` (Redis uses its own clock). */
  appClock: boolean;
  close(): Promise<void>;
}

const subjects: [string, () => Promise<Subject>][] = [
  [
    'memory',
    async () => {
      const store = memoryLaunchStore();
      return { stores: [store, store], claims: null, appClock: true, close: async () => {} };
    },
  ],
  [
    'Redis',
    async () => {
      const server = await startRedis();
      const clients = await Promise.all(
        [0, 1].map(() => createClient({ socket: { path: server.socketPath, reconnectStrategy: false } }).connect()),
      );
      const [one, two] = clients.map((client) => redisEventStore(client)) as [
        ReturnType<typeof redisEventStore>,
        ReturnType<typeof redisEventStore>,
      ];
      return {
        stores: [one, two],
        claims: one,
        appClock: false,
        close: async () => {
          for (const client of clients) client.destroy();
          await server.stop();
        },
      };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const server = await startPostgres();
      const pools = [0, 1].map(() => new pg.Pool(server.connection));
      const [one, two] = pools.map((pool) => postgresEventStore(pool)) as [
        ReturnType<typeof postgresEventStore>,
        ReturnType<typeof postgresEventStore>,
      ];
      return {
        stores: [one, two],
        claims: one,
        appClock: true,
        close: async () => {
          await Promise.all(pools.map((pool) => pool.end()));
          await server.stop();
        },
      };
    },
  ],
];

for (const [name, makeSubject] of subjects) {
  describe(`${name} launch store`, () => {
    let subject: Subject;
    let store: LaunchStore;
    before(async () => {
      subject = await makeSubject();
      store = subject.stores[0];
    });
    after(() => subject?.close());

    test('two instances creating the tables at once: both work', async () => {
      const [key, counter] = [crypto.randomUUID(), crypto.randomUUID()];
      const [one, two] = subject.stores;
      assert.deepEqual(
        await Promise.all([one.get(key), two.add(key, 'a', FAR), one.increment(counter, FAR), two.increment(counter, FAR)]).then(
          ([read, added, ...counts]) => [read === null || read === 'a', added, counts.sort()],
        ),
        [true, true, [1, 2]],
      );
    });

    test('get, add, set, remove: add only over nothing, set whatever it held, remove only its value', async () => {
      const key = crypto.randomUUID();
      assert.equal(await store.get(key), null);
      assert.equal(await store.add(key, 'a', FAR), true);
      assert.equal(await store.get(key), 'a');
      assert.equal(await store.add(key, 'b', FAR), false);
      assert.equal(await store.get(key), 'a', 'a refused add changes nothing');
      await store.set(key, 'c', FAR);
      assert.equal(await subject.stores[1].get(key), 'c', 'the other instance reads it');
      await store.remove(key, 'a');
      assert.equal(await store.get(key), 'c', 'a remove of another value changes nothing');
      await store.remove(key, 'c');
      assert.equal(await store.get(key), null);
      assert.equal(await store.add(key, 'd', FAR), true, 'removed, it can be added again');
    });

    test('increment: 1 on a new key, then one more each call', async () => {
      const key = crypto.randomUUID();
      assert.deepEqual(
        [await store.increment(key, FAR), await store.increment(key, FAR), await subject.stores[1].increment(key, FAR)],
        [1, 2, 3],
      );
      assert.equal(await store.increment(crypto.randomUUID(), FAR), 1, 'each key counts on its own');
    });

    test('an expiry already past: written and gone at once, for add, set and increment', async () => {
      const key = crypto.randomUUID();
      assert.equal(await store.add(key, 'a', PAST), true);
      assert.equal(await store.get(key), null);
      assert.equal(await store.add(key, 'b', FAR), true, 'an expired record does not block add');
      assert.equal(await store.get(key), 'b');
      assert.equal(await store.add(key, 'c', PAST), false, 'an unexpired one does');
      await store.set(key, 'd', PAST);
      assert.equal(await store.get(key), null, 'set with a past expiry leaves nothing, not the value before');
      await store.set(key, 'e', FAR);
      assert.equal(await store.get(key), 'e');

      const counter = crypto.randomUUID();
      assert.equal(await store.increment(counter, PAST), 1);
      assert.equal(await store.increment(counter, PAST), 1, 'the expired count starts again');
      assert.equal(await store.increment(counter, FAR), 1);
      assert.equal(await store.increment(counter, PAST), 2, 'a later call keeps the first expiry');
      assert.equal(await store.increment(counter, FAR), 3);
    });

    // Redis expires keys on its own clock: its expiries are covered by those already past.
    if (name !== 'Redis')
      test('a record expires when the clock passes its expiry', async (t) => {
        const now = Date.now();
        const [key, counter] = [crypto.randomUUID(), crypto.randomUUID()];
        assert.equal(await store.add(key, 'a', now + 1_000), true);
        assert.equal(await store.increment(counter, now + 1_000), 1);
        assert.equal(await store.increment(counter, now + 9_000), 2);
        t.mock.method(Date, 'now', () => now + 1_000);
        assert.equal(await store.get(key), null);
        assert.equal(await store.add(key, 'b', now + 5_000), true);
        assert.equal(await store.increment(counter, now + 5_000), 1, 'the counter kept its first expiry, and it has passed');
      });

    test('50 adds of one key at once, from two instances: exactly one is true, and its value is kept', async () => {
      const key = crypto.randomUUID();
      const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => subject.stores[n % 2]!.add(key, `v${n}`, FAR)));
      assert.equal(answers.filter(Boolean).length, 1);
      assert.equal(await store.get(key), `v${answers.indexOf(true)}`);
    });

    test('50 increments of one key at once, from two instances: the answers are 1 to 50', async () => {
      const key = crypto.randomUUID();
      const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => subject.stores[n % 2]!.increment(key, FAR)));
      assert.deepEqual(
        answers.sort((a, b) => a - b),
        Array.from({ length: 50 }, (_, n) => n + 1),
      );
    });

    // The memory launch store is not a claim store: nothing of its name to collide with.
    if (name !== 'memory')
      test('launch records and webhook claims of the same name live side by side', async () => {
        const claims = subject.claims!;
        const id = crypto.randomUUID();
        assert.equal(await claims.claim(id, 'token', 60_000), 'claimed');
        assert.equal(await store.get(id), null, 'a claim is no launch record');
        assert.equal(await store.add(id, 'launch', FAR), true);
        assert.equal(await claims.claim(id, 'other', 60_000), 'busy', 'a launch record is no claim');
        await claims.markDone(id, 'token');
        assert.equal(await claims.isDone!(id), true);
        assert.equal(await store.get(id), 'launch');
        await store.remove(id, 'launch');
        assert.equal(await claims.claim(id, 'other', 60_000), 'done');
        const counter = crypto.randomUUID();
        await claims.markDone(counter, 'token');
        assert.equal(await store.increment(counter, FAR), 1);
        assert.equal(await claims.isDone!(counter), true);
      });
  });
}

describe('memory launch store: one process, bounded', () => {
  test('full, it throws LaunchStoreFullError for a new key and keeps every unexpired record', async () => {
    const store = memoryLaunchStore({ capacity: 3 });
    assert.equal(store.add('a', '1', FAR), true);
    await store.set('b', '2', FAR);
    assert.equal(store.increment('c', FAR), 1);
    assert.throws(() => store.add('d', '4', FAR), LaunchStoreFullError);
    assert.throws(() => store.set('d', '4', FAR), LaunchStoreFullError);
    assert.throws(() => store.increment('d', FAR), LaunchStoreFullError);
    assert.deepEqual([store.get('a'), store.get('b'), store.get('d')], ['1', '2', null]);
    assert.equal(store.add('a', 'x', FAR), false, 'a key it holds is answered as usual');
    await store.set('b', '3', FAR);
    assert.equal(store.increment('c', FAR), 2);
    await store.remove('a', '1');
    assert.equal(store.add('d', '4', FAR), true, 'a removed record frees room');
  });

  test('expired records free room', async (t) => {
    const now = Date.now();
    const store = memoryLaunchStore({ capacity: 2 });
    await store.set('a', '1', now + 1_000);
    await store.set('b', '2', FAR);
    assert.throws(() => store.add('c', '3', FAR), LaunchStoreFullError);
    t.mock.method(Date, 'now', () => now + 1_000);
    assert.equal(store.add('c', '3', FAR), true);
    assert.deepEqual([store.get('a'), store.get('b'), store.get('c')], [null, '2', '3']);
  });

  test('a capacity that is not a positive integer is a ConfigError', () => {
    for (const capacity of [0, -1, 1.5, Number.NaN]) assert.throws(() => memoryLaunchStore({ capacity }), ConfigError);
  });

  test('the memory stores carry IN_ONE_PROCESS; the shared stores do not', () => {
    assert.equal(memoryLaunchStore()[IN_ONE_PROCESS], true);
    assert.equal(isInOneProcess(memoryLaunchStore()), true);
    assert.equal(isInOneProcess(memoryEventIdStore()), true);
    const client = { eval: async () => null };
    assert.equal(isInOneProcess(redisEventStore(client)), false);
    assert.equal(isInOneProcess(postgresEventStore({ query: async () => ({ rows: [] }) })), false);
  });
});

describe('launch store options', () => {
  const pool = { query: async () => ({ rows: [] }) };
  const db = { prepare: () => ({}) as never, batch: async () => [] };

  test('the launch table or key prefix must be a valid name, and not the claims’', () => {
    assert.throws(() => redisEventStore({ eval: async () => null }, { launchKeyPrefix: 'payroll-link:webhook:' }), ConfigError);
    assert.throws(() => postgresEventStore(pool, { launchTable: 'payroll_link_webhook_events' }), ConfigError);
    assert.throws(() => postgresEventStore(pool, { launchTable: 'Launches; DROP' }), ConfigError);
    assert.throws(() => d1EventStore(db, { launchTable: 'app.launches' }), ConfigError, 'D1 has no schemas');
    assert.throws(() => d1EventStore(db, { table: 'x', launchTable: 'x' }), ConfigError);
  });

  test('the tables’ statements, for migrations: one for both engines', () => {
    assert.match(postgresLaunchTableSql(), /^CREATE TABLE IF NOT EXISTS payroll_link_launches \(/);
    assert.equal(d1LaunchTableSql('app_launches'), postgresLaunchTableSql('app_launches'));
  });

  test('Redis: the records are keys under launchKeyPrefix; an expiry in the past deletes the key', async () => {
    const server = await startRedis();
    const client = await createClient({ socket: { path: server.socketPath, reconnectStrategy: false } }).connect();
    try {
      const store = redisEventStore(client, { launchKeyPrefix: 'app:launch:' });
      await store.set('k', 'v', FAR);
      assert.equal(await client.get('app:launch:k'), 'v');
      assert.equal(Number(await client.sendCommand(['PEXPIRETIME', 'app:launch:k'])), Math.floor(FAR));
      await store.set('k', 'v', PAST);
      assert.equal(await client.exists('app:launch:k'), 0);
      assert.equal(await store.increment('n', FAR), 1);
      assert.equal(await store.increment('n', FAR + 5_000), 2);
      assert.equal(Number(await client.sendCommand(['PEXPIRETIME', 'app:launch:n'])), Math.floor(FAR), 'the first expiry');
      assert.equal(await store.increment('m', PAST), 1);
      assert.equal(await client.exists('app:launch:m'), 0);
    } finally {
      client.destroy();
      await server.stop();
    }
  });

  test('PostgreSQL: eight first uses at once on a fresh database all answer (a concurrent CREATE TABLE is 42710 there)', async () => {
    const server = await startPostgres();
    const pool = new pg.Pool(server.connection);
    try {
      const store = postgresEventStore(pool);
      const answers = await Promise.all(Array.from({ length: 8 }, () => store.increment('first', FAR)));
      assert.deepEqual(
        answers.sort((a, b) => a - b),
        [1, 2, 3, 4, 5, 6, 7, 8],
      );
    } finally {
      await pool.end();
      await server.stop();
    }
  });

  test('PostgreSQL: createTable false creates no launch table; a store on a table of another name works', async () => {
    const server = await startPostgres();
    const pool = new pg.Pool(server.connection);
    try {
      await assert.rejects(async () => postgresEventStore(pool, { createTable: false }).get('k'), { code: '42P01' });
      await pool.query('CREATE SCHEMA app');
      const store = postgresEventStore(pool, { table: 'app.events', launchTable: 'app.launches' });
      assert.equal(await store.add('k', 'v', FAR), true);
      assert.deepEqual((await pool.query('SELECT key, value FROM app.launches')).rows, [{ key: 'k', value: 'v' }]);
    } finally {
      await pool.end();
      await server.stop();
    }
  });
});
