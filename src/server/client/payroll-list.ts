import type { PayrollApiError, PayrollApiErrorFields } from './payroll-api-error.js';

/** One page of a list: its items, the cursor of the next (null on the last) and the answer's request id. */
export interface PayrollPage<T> {
  data: T[];
  nextCursor: string | null;
  requestId: string | null;
}

/** Fetches the page after `cursor` (undefined: the first). */
export type PageFetcher<T> = (cursor: string | undefined) => Promise<PayrollPage<T>>;

/**
 * A list of the service's resources, paginated the spec's way (`limit`, `cursor`, `meta.next_cursor`). Nothing is
 * fetched until it is read, and then one page at a time.
 *
 * @example
 * for await (const paystub of client.accounts.paystubs(accountId, { limit: 50 })) console.log(paystub.id);
 * // or a page at a time, to store where a job got to:
 * for await (const page of client.jobs.list().pages()) save(page.nextCursor);
 * // or at most 200 items:
 * const employers = await client.employers.list().toArray({ limit: 200 });
 */
export class PayrollList<T> implements AsyncIterable<T> {
  readonly #fetchPage: PageFetcher<T>;
  readonly #firstCursor: string | undefined;
  readonly #fail: (fields: PayrollApiErrorFields) => PayrollApiError;

  /** @internal built by the client's list methods; `fail` makes the client's errors. */
  constructor(fetchPage: PageFetcher<T>, firstCursor: string | undefined, fail: (fields: PayrollApiErrorFields) => PayrollApiError) {
    this.#fetchPage = fetchPage;
    this.#firstCursor = firstCursor;
    this.#fail = fail;
  }

  /**
   * Each page in turn, from the list's `cursor` (or the first page) to the last. A `next_cursor` the service already
   * gave in this walk rejects with kind `invalid_response`: following it would loop for ever.
   */
  async *pages(): AsyncGenerator<PayrollPage<T>, void, undefined> {
    let cursor = this.#firstCursor;
    const seen = new Set<string>();
    for (;;) {
      const page = await this.#fetchPage(cursor);
      yield page;
      if (page.nextCursor === null) return;
      if (seen.has(page.nextCursor)) {
        throw this.#fail({
          kind: 'invalid_response',
          requestId: page.requestId,
          message: 'the service gave a next_cursor it had already given in this list; stopped, since following it would loop',
        });
      }
      seen.add(page.nextCursor);
      cursor = page.nextCursor;
    }
  }

  /** Every item of every page, fetched as the loop goes. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /**
   * The items, at most `limit` of them: no more pages are fetched once it has
   * that many. The cap is required, so a list that grows cannot fill memory:
   * without it, rejects with kind `invalid_request`, as other bad input does.
   */
  async toArray(options: { limit: number }): Promise<T[]> {
    const limit = (options as { limit?: unknown } | undefined)?.limit;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
      throw this.#fail({
        kind: 'invalid_request',
        message: 'toArray needs { limit }: a whole number of items, at least 1; nothing fetched',
      });
    }
    const items: T[] = [];
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}
