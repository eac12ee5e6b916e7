/**
 * The {@link LaunchStore} of `postgresEventStore` and `d1EventStore`: one table, one row per key, the same SQL on
 * PostgreSQL and SQLite (D1) but for the placeholders. Expiry is compared with a `now` the store passes from
 * `Date.now()`, not the database's clock, because the expiries themselves come from the application's clock.
 * Each operation is one statement, atomic on its row; an expired row is overwritten in place, never read.
 */
import { tableCreation } from '../../webhooks/claim-table.js';
import type { ExpiresAt, LaunchStore } from './launch-store.js';

/** The launch table's name unless the integrator picks another. */
export const DEFAULT_LAUNCH_TABLE = 'payroll_link_launches';

/** How {@link sqlLaunchStore} talks to one engine. */
export interface SqlDialect {
  /** What comes before a parameter's number: `$` on PostgreSQL (`$1`), `?` on SQLite and D1 (`?1`). */
  readonly placeholder: '$' | '?';
  /** Runs one statement with its parameters and answers its rows (a write's `RETURNING` rows). */
  query(sql: string, values: unknown[]): Promise<unknown[]>;
  /** Runs the table's `CREATE TABLE IF NOT EXISTS` (given by {@link launchTableSql}); null when migrations create it. */
  readonly create: ((sql: string) => Promise<void>) | null;
}

/**
 * The launch table, for your migrations: the same statement on PostgreSQL and SQLite (`bigint` has integer
 * affinity there). `expires_at` is in ms since 1970 (UTC); `count` is set for a counter's row, `value` for the others.
 * Expired rows are overwritten when their key comes back, otherwise they stay:
 * `DELETE FROM payroll_link_launches WHERE expires_at < …` from a scheduled job keeps the table small.
 */
export function launchTableSql(table = DEFAULT_LAUNCH_TABLE): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (
  key text PRIMARY KEY,
  value text,
  count bigint,
  expires_at bigint NOT NULL
)`;
}

/** An expiry as a bigint column takes it: whole ms. */
const ms = (expiresAt: ExpiresAt) => Math.floor(expiresAt);

/** A {@link LaunchStore} on `table` (an SQL name, checked by the caller) through `dialect`. */
export function sqlLaunchStore(dialect: SqlDialect, table: string): LaunchStore {
  const { query, create } = dialect;
  const p = (n: number) => `${dialect.placeholder}${n}`;
  const ready = tableCreation(create !== null, () => create!(launchTableSql(table)));
  const run = async (sql: string, values: unknown[]) => {
    await ready();
    return query(sql, values);
  };
  // Written over an expired row (or written already expired): what a later reader sees is as if it never was.
  const write = (only: string) =>
    `INSERT INTO ${table} AS r (key, value, count, expires_at) VALUES (${p(1)}, ${p(2)}, NULL, ${p(3)})
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, count = NULL, expires_at = excluded.expires_at ${only}`;
  const ADD = write(`WHERE r.expires_at <= ${p(4)} RETURNING 1 AS added`);
  const SET = write('');
  const INCREMENT = `INSERT INTO ${table} AS r (key, value, count, expires_at) VALUES (${p(1)}, NULL, 1, ${p(2)})
     ON CONFLICT (key) DO UPDATE SET
       value = NULL,
       count = CASE WHEN r.expires_at <= ${p(3)} THEN 1 ELSE COALESCE(r.count, 0) + 1 END,
       expires_at = CASE WHEN r.expires_at <= ${p(3)} THEN excluded.expires_at ELSE r.expires_at END
     RETURNING count`;

  return {
    async get(key) {
      const [row] = await run(`SELECT value FROM ${table} WHERE key = ${p(1)} AND expires_at > ${p(2)}`, [key, Date.now()]);
      const value = (row as { value?: unknown } | undefined)?.value;
      return typeof value === 'string' ? value : null;
    },
    async add(key, value, expiresAt) {
      return (await run(ADD, [key, value, ms(expiresAt), Date.now()])).length === 1;
    },
    async set(key, value, expiresAt) {
      await run(SET, [key, value, ms(expiresAt)]);
    },
    async remove(key, value) {
      await run(`DELETE FROM ${table} WHERE key = ${p(1)} AND value = ${p(2)}`, [key, value]);
    },
    async increment(key, expiresAt) {
      const [row] = await run(INCREMENT, [key, ms(expiresAt), Date.now()]);
      // pg reads a bigint as a string; D1 as a number.
      const count = Number((row as { count?: unknown } | undefined)?.count);
      if (!Number.isSafeInteger(count)) throw new Error(`sqlLaunchStore: unexpected answer to the increment: ${String(count)}`);
      return count;
    },
  };
}
