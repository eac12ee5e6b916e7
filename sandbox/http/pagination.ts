/**
 * Cursor pagination by the spec's four rules: `limit` and an opaque `cursor`;
 * the first page has no cursor; `meta.next_cursor` fetches the next page; it is
 * null on the last page.
 *
 * A cursor is `base64url(json).base64url(hmac)`: opaque to clients, signed so a
 * forged or mangled cursor is a clear 400 rather than a wrong page, and bound
 * to its list (endpoint and filters) so it cannot be replayed on another one.
 * The binding is a hash of the list's scope, not the scope itself: filters can
 * be long (a 255-character `end_user_id`), and a cursor must stay short enough
 * for {@link CursorSchema} whatever the filters are.
 * Pages are keyed by each item's position in a stable order, so items added
 * while a client pages through do not shift what it has already seen.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { invalidParams } from './errors.js';

/** Default page size when `limit` is absent. */
export const DEFAULT_PAGE_SIZE = 25;
/** Largest page size accepted. */
export const MAX_PAGE_SIZE = 100;

/** `limit` as a query string (digits only) or a number (GET-body form), 1..100, with the given default. */
export const limitSchema = (defaultSize = DEFAULT_PAGE_SIZE) =>
  z
    .union([
      z
        .string()
        .regex(/^\d{1,6}$/, 'must be a whole number')
        .transform(Number),
      z.number(),
    ])
    .pipe(z.number().int().min(1).max(MAX_PAGE_SIZE))
    .default(defaultSize);

/** `limit` with the default page size. */
export const LimitSchema = limitSchema();

/** `cursor`: an opaque string, checked by {@link CursorCodec.decode}. */
export const CursorSchema = z.string().min(1).max(1000).optional();

/** A collection envelope: `{ data, meta: { count, next_cursor } }`. */
export interface Page<T> {
  data: T[];
  meta: { count: number; next_cursor: string | null };
}

const CursorPayloadSchema = z.strictObject({ s: z.string(), a: z.number().int().min(-1) });

/** The scope's fingerprint: 128 bits of its sha256 are plenty to tell lists apart, in 22 characters. */
const scopeHash = (scope: string): string => createHash('sha256').update(scope).digest('base64url').slice(0, 22);

/** Encodes and checks cursors with a per-instance key. */
export class CursorCodec {
  readonly #key = randomBytes(32);

  #sign(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url').slice(0, 22);
  }

  /** A cursor meaning "after position `after` of the list `scope`". */
  encode(scope: string, after: number): string {
    const body = Buffer.from(JSON.stringify({ s: scopeHash(scope), a: after })).toString('base64url');
    return `${body}.${this.#sign(body)}`;
  }

  /**
   * The position a cursor points after.
   *
   * @throws ApiError 400 INVALID_PARAMS when the cursor was not issued by this list.
   */
  decode(scope: string, cursor: string): number {
    const bad = () => invalidParams('cursor: not a cursor issued for this list; pass meta.next_cursor from the previous page unchanged');
    const [body, signature, ...rest] = cursor.split('.');
    if (!body || !signature || rest.length > 0) throw bad();
    const expected = Buffer.from(this.#sign(body));
    const actual = Buffer.from(signature);
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw bad();
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw bad();
    }
    const parsed = CursorPayloadSchema.safeParse(payload);
    if (!parsed.success || parsed.data.s !== scopeHash(scope)) throw bad();
    return parsed.data.a;
  }

  /**
   * One page of `items` (already in their stable order; `position` gives each item's key in it, increasing).
   *
   * @param scope names the list and its filters, e.g. `accounts?connected=true`.
   */
  page<T, R = T>(
    items: readonly T[],
    options: { scope: string; limit: number; cursor?: string | undefined; position: (item: T) => number; view?: (item: T) => R },
  ): Page<R> {
    const after = options.cursor === undefined ? -1 : this.decode(options.scope, options.cursor);
    const rest = items.filter((item) => options.position(item) > after);
    const slice = rest.slice(0, options.limit);
    const last = slice[slice.length - 1];
    const more = rest.length > slice.length && last !== undefined;
    const view = options.view ?? ((item: T) => item as unknown as R);
    return {
      data: slice.map(view),
      meta: { count: slice.length, next_cursor: more ? this.encode(options.scope, options.position(last)) : null },
    };
  }

  /**
   * One page of the records whose view holds each filter the query sets (a filter left unset matches every record),
   * in the order of their `seq`. The cursor's scope is `list` and the filters' values, each under its letter in
   * `filters` (`jobs?a=…&s=…&n=…`), so a cursor issued for other filters is refused.
   */
  pageWhere<T extends { seq: number }, R extends object, F extends string>(
    list: string,
    records: readonly T[],
    view: (record: T) => R,
    query: Partial<Record<NoInfer<F>, unknown>> & { limit: number; cursor?: string | undefined },
    filters: Record<F, string>,
  ): Page<R> {
    const fields = Object.keys(filters) as F[];
    const holds = (record: T) =>
      fields.every((field) => query[field] === undefined || (view(record) as Record<string, unknown>)[field] === query[field]);
    const scope = `${list}?${fields.map((field) => `${filters[field]}=${String(query[field] ?? '')}`).join('&')}`;
    return this.page(records.filter(holds), { scope, limit: query.limit, cursor: query.cursor, position: (record) => record.seq, view });
  }
}
