/** What the SQL claim stores (`postgresEventStore`, `d1EventStore`) share: their table's options, and making it once. */
import * as z from 'zod';

/** The table's name unless the integrator picks another. */
export const DEFAULT_CLAIM_TABLE = 'payroll_link_webhook_events';

/** A table's name: lower-case letters, digits and `_`, as SQL takes it without quotes. */
const SQL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The options of an SQL claim store. */
export const ClaimTableOptionsSchema = z.object({
  /** The table: letters, digits and `_` only. */
  table: z.string().regex(SQL_NAME, `must be a lower-case SQL name such as ${DEFAULT_CLAIM_TABLE}`).default(DEFAULT_CLAIM_TABLE),
  /**
   * Create the table (`CREATE TABLE IF NOT EXISTS`) on first use. Turn it off
   * when your migrations create it: the store's `…TableSql()` function gives the statement.
   */
  createTable: z.boolean().default(true),
});

/**
 * Makes `ensure()`, which runs `create` until it has succeeded once (not at all when `needed` is false). It keeps a
 * flag, not a promise: a request never awaits a query another request started (Cloudflare Workers forbids it), so
 * requests that come at once each ask, which `IF NOT EXISTS` allows.
 */
export function tableCreation(needed: boolean, create: () => Promise<void>): () => Promise<void> {
  let created = !needed;
  return async () => {
    if (created) return;
    await create();
    created = true;
  };
}
