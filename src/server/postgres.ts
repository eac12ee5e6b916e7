/**
 * `payroll-link/server/postgres`: {@link postgresEventStore}, through your own `pg` pool or client (`pg` ≥ 8, an
 * optional peer dependency: this module never imports it). One row per event id, the id its primary key; a claim is
 * `INSERT … ON CONFLICT DO UPDATE … WHERE` the row is neither done nor under an unexpired lease, so exactly one caller
 * gets it, on the database's clock. The launch records' SQL is src/server/launches/store/sql-launch-store.ts.
 */
import * as z from 'zod';
import { ConfigError } from './config-error.js';
import type { EventClaimStore } from './webhooks/event-claim-store.js';
import { ClaimTableOptionsSchema, DEFAULT_CLAIM_TABLE, tableCreation } from './webhooks/claim-table.js';
import type { LaunchStore } from './launches/store/launch-store.js';
import { DEFAULT_LAUNCH_TABLE, launchTableSql, sqlLaunchStore } from './launches/store/sql-launch-store.js';

/** What the store needs of a pool or client: `pg`'s `query(text, values)`. */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A table's name, optionally schema-qualified, as SQL takes it without quotes. */
const TABLE_NAME = z
  .string()
  .regex(
    /^[a-z_][a-z0-9_]{0,62}(\.[a-z_][a-z0-9_]{0,62})?$/,
    `must be a lower-case SQL name such as ${DEFAULT_CLAIM_TABLE} or app.webhook_events`,
  );

/** Options of {@link postgresEventStore}. */
export const PostgresEventStoreOptionsSchema = ClaimTableOptionsSchema.extend({
  /** The table, optionally schema-qualified (`app.webhook_events`); letters, digits and `_` only. */
  table: TABLE_NAME.default(DEFAULT_CLAIM_TABLE),
  /**
   * The launch records' table (the store as a `LaunchStore`, for `createLinkLaunches`), named as `table` is;
   * {@link postgresLaunchTableSql} gives its statement. It must differ from `table`.
   */
  launchTable: TABLE_NAME.default(DEFAULT_LAUNCH_TABLE),
});

/** What {@link postgresEventStore} accepts. */
export type PostgresEventStoreOptions = z.input<typeof PostgresEventStoreOptionsSchema>;

/** The table the store uses, for your migrations. */
export function postgresEventStoreTableSql(table = DEFAULT_CLAIM_TABLE): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (
  event_id text PRIMARY KEY,
  claim_token text,
  lease_until timestamptz,
  done_at timestamptz
)`;
}

/** The launch records' table, for your migrations. Times are ms since 1970 (UTC). */
export function postgresLaunchTableSql(table = DEFAULT_LAUNCH_TABLE): string {
  return launchTableSql(table);
}

/** SQLSTATEs of two sessions creating the same table at once (42710: its row type, seen on PostgreSQL 15): the table exists, which is all that was asked. */
const ALREADY_CREATED = new Set(['42P07', '23505', '42710']);

/**
 * The webhook handler's store on PostgreSQL, shared by all your instances. Give it your pool; it creates nothing but
 * its tables (unless `createTable` is false) and never ends the pool. Handled ids stay until you delete them:
 * `DELETE FROM payroll_link_webhook_events WHERE done_at < now() - interval '30 days'` from a scheduled job keeps the
 * table small. The same object is a {@link LaunchStore} for `createLinkLaunches`, on `launchTable`.
 *
 * @example
 * import pg from 'pg';
 * import { createWebhookHandler } from 'payroll-link/server';
 * import { postgresEventStore } from 'payroll-link/server/postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const handleWebhook = createWebhookHandler({
 *   secret: process.env.PAYROLL_WEBHOOK_SECRET!,
 *   store: postgresEventStore(pool),
 *   onEvent: async (event) => { ... },
 * });
 */
export function postgresEventStore(pool: PostgresQueryable, options: PostgresEventStoreOptions = {}): EventClaimStore & LaunchStore {
  if (typeof pool !== 'object' || pool === null || typeof pool.query !== 'function') {
    throw new ConfigError('postgresEventStore: pool must be a pg Pool or Client');
  }
  const parsed = PostgresEventStoreOptionsSchema.safeParse(options);
  if (!parsed.success) throw ConfigError.fromZod('postgresEventStore options', parsed.error);
  const { table, createTable, launchTable } = parsed.data;
  if (launchTable === table) throw new ConfigError('postgresEventStore options: launchTable must differ from table');
  const create = async (sql: string) => {
    try {
      await pool.query(sql);
    } catch (error) {
      if (!ALREADY_CREATED.has((error as { code?: unknown }).code as string)) throw error;
    }
  };
  const tableReady = tableCreation(createTable, () => create(postgresEventStoreTableSql(table)));
  const launches = sqlLaunchStore(
    { placeholder: '$', query: async (sql, values) => (await pool.query(sql, values)).rows, create: createTable ? create : null },
    launchTable,
  );

  return {
    ...launches,
    async claim(eventId, token, leaseMs) {
      await tableReady();
      const claimed = await pool.query(
        `INSERT INTO ${table} AS e (event_id, claim_token, lease_until)
         VALUES ($1, $2, clock_timestamp() + $3::bigint * interval '1 millisecond')
         ON CONFLICT (event_id) DO UPDATE SET claim_token = EXCLUDED.claim_token, lease_until = EXCLUDED.lease_until
         WHERE e.done_at IS NULL AND e.lease_until <= clock_timestamp()
         RETURNING 1`,
        [eventId, token, leaseMs],
      );
      if (claimed.rows.length === 1) return 'claimed';
      const row = await pool.query(`SELECT done_at IS NOT NULL AS done FROM ${table} WHERE event_id = $1`, [eventId]);
      // No row: its claim was released between the two statements; the next copy will claim it.
      return (row.rows[0] as { done?: boolean } | undefined)?.done === true ? 'done' : 'busy';
    },
    async markDone(eventId) {
      await tableReady();
      await pool.query(
        `INSERT INTO ${table} (event_id, done_at) VALUES ($1, clock_timestamp())
         ON CONFLICT (event_id) DO UPDATE SET done_at = EXCLUDED.done_at, claim_token = NULL, lease_until = NULL`,
        [eventId],
      );
    },
    async release(eventId, token) {
      await tableReady();
      await pool.query(`DELETE FROM ${table} WHERE event_id = $1 AND claim_token = $2 AND done_at IS NULL`, [eventId, token]);
    },
    async isDone(eventId) {
      await tableReady();
      const row = await pool.query(`SELECT 1 FROM ${table} WHERE event_id = $1 AND done_at IS NOT NULL`, [eventId]);
      return row.rows.length === 1;
    },
  };
}
