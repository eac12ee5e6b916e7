/** One page of a list: its items, the cursor of the next (null on the last) and the answer's request id. */
export interface PayrollPage<T> {
  data: T[];
  nextCursor: string | null;
  requestId: string | null;
}

/** Fetches the page after `cursor` (undefined: the first). */
export type PageFetcher<T> = (cursor: string | undefined) => Promise<PayrollPage<T>>;

/**
 * A list of the service's resources, paginated the spec's way (`limit`,
 * `cursor`, `meta.next_cursor`). Nothing is fetched until it is read, and then
 * one page at a time.
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

  /** @internal built by the client's list methods. */
  constructor(fetchPage: PageFetcher<T>, firstCursor: string | undefined) {
    this.#fetchPage = fetchPage;
    this.#firstCursor = firstCursor;
  }

  /** Each page in turn, from the list's `cursor` (or the first page) to the last. */
  async *pages(): AsyncGenerator<PayrollPage<T>, void, undefined> {
    let cursor = this.#firstCursor;
    for (;;) {
      const page = await this.#fetchPage(cursor);
      yield page;
      if (page.nextCursor === null) return;
      cursor = page.nextCursor;
    }
  }

  /** Every item of every page, fetched as the loop goes. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /**
   * The items, at most `limit` of them: no more pages are fetched once it has
   * that many. The cap is required, so a list that grows cannot fill memory.
   */
  async toArray({ limit }: { limit: number }): Promise<T[]> {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('toArray needs { limit }: a whole number of items, at least 1');
    const items: T[] = [];
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}
