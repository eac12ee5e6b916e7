/**
 * `payroll-link/server/d1`: {@link d1EventStore}, the claim of `postgresEventStore` (src/server/postgres.ts) on
 * SQLite, with the row read back in the same batch (one transaction, one round trip) to tell `done` from `busy`.
 * Workers KV would not do: it has no atomic claim, so two copies of an event arriving at once could both run.
 */
import type * as z from 'zod';
import { ConfigError } from './config-error.js';
import type { EventClaimStore } from './webhooks/event-claim-store.js';
import { ClaimTableOptionsSchema, DEFAULT_CLAIM_TABLE, tableCreation } from './webhooks/claim-table.js';
import type { LaunchStore } from './launches/store/launch-store.js';
import { DEFAULT_LAUNCH_TABLE, launchTableSql, sqlLaunchStore } from './launches/store/sql-launch-store.js';

/** What the store needs of a D1 binding (`env.DB`): `prepare`, `bind`, `run`, `first` and `batch`. */
export interface D1Queryable {
  prepare(query: string): D1Statement;
  batch(statements: D1Statement[]): Promise<{ results?: unknown[] }[]>;
}

/** A prepared D1 statement, as far as the store uses one. */
export interface D1Statement {
  bind(...values: unknown[]): D1Statement;
  run(): Promise<unknown>;
  first(): Promise<unknown>;
}

/** Options of {@link d1EventStore}. */
export const D1EventStoreOptionsSchema = ClaimTableOptionsSchema.extend({
  /**
   * The launch records' table (the store as a `LaunchStore`, for `createLinkLaunches`), named as `table` is;
   * {@link d1LaunchTableSql} gives its statement. It must differ from `table`.
   */
  launchTable: ClaimTableOptionsSchema.shape.table.unwrap().default(DEFAULT_LAUNCH_TABLE),
});

/** What {@link d1EventStore} accepts. */
export type D1EventStoreOptions = z.input<typeof D1EventStoreOptionsSchema>;

/** The table the store uses, for a D1 migration (`wrangler d1 migrations create`). Times are ms since 1970 (UTC). */
export function d1EventStoreTableSql(table = DEFAULT_CLAIM_TABLE): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (
  event_id TEXT PRIMARY KEY,
  claim_token TEXT,
  lease_until INTEGER,
  done_at INTEGER
)`;
}

/** The launch records' table, for a D1 migration. Times are ms since 1970 (UTC). */
export function d1LaunchTableSql(table = DEFAULT_LAUNCH_TABLE): string {
  return launchTableSql(table);
}

/** Now on the database's clock, in whole ms since 1970: SQLite's julianday has sub-second precision everywhere D1 runs. */
const NOW_MS = `CAST(ROUND((julianday('now') - 2440587.5) * 86400000) AS INTEGER)`;

/**
 * The webhook handler's store on a Cloudflare D1 database, shared by every isolate of your Worker. Give it the binding;
 * it creates nothing but its tables (unless `createTable` is false), and keeps no promise or connection across requests
 * (the Workers runtime forbids a request to wait on another's). Handled ids stay until you delete them:
 * `DELETE FROM payroll_link_webhook_events WHERE done_at < …` from a Cron Trigger keeps the table small. The same
 * object is a {@link LaunchStore} for `createLinkLaunches`, on `launchTable`.
 *
 * @example
 * import { createWebhookHandler } from 'payroll-link/server';
 * import { d1EventStore } from 'payroll-link/server/d1';
 *
 * export default {
 *   async fetch(request, env) {
 *     const handleWebhook = createWebhookHandler({
 *       secret: env.PAYROLL_WEBHOOK_SECRET,
 *       store: d1EventStore(env.DB),
 *       onEvent: async (event) => { ... },
 *     });
 *     return handleWebhook(request);
 *   },
 * };
 */
export function d1EventStore(db: D1Queryable, options: D1EventStoreOptions = {}): EventClaimStore & LaunchStore {
  if (typeof db !== 'object' || db === null || typeof db.prepare !== 'function' || typeof db.batch !== 'function') {
    throw new ConfigError('d1EventStore: db must be a D1 database binding (env.DB in a Worker)');
  }
  const parsed = D1EventStoreOptionsSchema.safeParse(options);
  if (!parsed.success) throw ConfigError.fromZod('d1EventStore options', parsed.error);
  const { table, createTable, launchTable } = parsed.data;
  if (launchTable === table) throw new ConfigError('d1EventStore options: launchTable must differ from table');
  const create = async (sql: string) => {
    await db.prepare(sql).run();
  };
  const tableReady = tableCreation(createTable, () => create(d1EventStoreTableSql(table)));
  const launches = sqlLaunchStore(
    {
      placeholder: '?',
      // A batch of one: D1Queryable already types a batch's rows (a RETURNING's too), so the interface needs no all().
      query: async (sql, values) => (await db.batch([db.prepare(sql).bind(...values)]))[0]?.results ?? [],
      create: createTable ? create : null,
    },
    launchTable,
  );

  return {
    ...launches,
    async claim(eventId, token, leaseMs) {
      await tableReady();
      const [claimed, row] = await db.batch([
        db
          .prepare(
            `INSERT INTO ${table} AS e (event_id, claim_token, lease_until) VALUES (?1, ?2, ${NOW_MS} + ?3)
             ON CONFLICT (event_id) DO UPDATE SET claim_token = excluded.claim_token, lease_until = excluded.lease_until
             WHERE e.done_at IS NULL AND IFNULL(e.lease_until, 0) <= ${NOW_MS}
             RETURNING 1 AS claimed`,
          )
          .bind(eventId, token, leaseMs),
        db.prepare(`SELECT done_at IS NOT NULL AS done FROM ${table} WHERE event_id = ?1`).bind(eventId),
      ]);
      if ((claimed?.results?.length ?? 0) === 1) return 'claimed';
      return (row?.results?.[0] as { done?: unknown } | undefined)?.done === 1 ? 'done' : 'busy';
    },
    async markDone(eventId) {
      await tableReady();
      await db
        .prepare(
          `INSERT INTO ${table} (event_id, done_at) VALUES (?1, ${NOW_MS})
           ON CONFLICT (event_id) DO UPDATE SET done_at = excluded.done_at, claim_token = NULL, lease_until = NULL`,
        )
        .bind(eventId)
        .run();
    },
    async release(eventId, token) {
      await tableReady();
      await db.prepare(`DELETE FROM ${table} WHERE event_id = ?1 AND claim_token = ?2 AND done_at IS NULL`).bind(eventId, token).run();
    },
    async isDone(eventId) {
      await tableReady();
      return (
        (await db.prepare(`SELECT 1 AS done FROM ${table} WHERE event_id = ?1 AND done_at IS NOT NULL`).bind(eventId).first()) !== null
      );
    },
  };
}
