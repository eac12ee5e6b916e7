import { LinkApiError } from './link-api-client.js';

/** The longest pause between two polls, and the pause after a lost connection. */
export const POLL_MAX_MS = 2_000;
/** The page stops polling after this long and reports a timeout, so it never polls forever. */
const POLL_LIMIT_MS = 10 * 60_000;
/** Consecutive lost connections tolerated before the page gives up on the network. */
const POLL_FAILURES_TOLERATED = 3;

/** How one polling loop asks, when it is done, and whether the screen that polls is still there. */
export interface PollOptions<T, D extends T> {
  /** One request: a long poll, or a look at a job. */
  ask(): Promise<T>;
  /** The answer that ends the polling. */
  done(answer: T): answer is D;
  /** False once the screen that polls has gone (the user went back, or left): the loop then stops, quietly. */
  current(): boolean;
  /** The pause before the request numbered `attempt` (from 0); `afterFailure` when the last one lost its connection. */
  pause(attempt: number, afterFailure: boolean): number;
}

/** How a polling loop ended: the answer it waited for, a request that failed for good, the time limit, or gone. */
export type PollOutcome<D> = { answer: D } | { failed: unknown } | 'timeout' | 'gone';

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The Link page's one polling loop (the job's progress, the OAuth-style login's long poll): bounded by a time
 * limit, tolerant of a few lost connections in a row, and quiet once its screen has gone.
 */
export async function poll<T, D extends T>({ ask, done, current, pause }: PollOptions<T, D>): Promise<PollOutcome<D>> {
  const deadline = Date.now() + POLL_LIMIT_MS;
  let failures = 0;
  for (let attempt = 0; ; attempt++) {
    const ms = pause(attempt, failures > 0);
    if (ms > 0) await wait(ms);
    if (!current()) return 'gone';
    if (Date.now() > deadline) return 'timeout';
    let answer: T;
    try {
      answer = await ask();
      failures = 0;
    } catch (cause) {
      if (++failures < POLL_FAILURES_TOLERATED && cause instanceof LinkApiError && cause.code === 'NETWORK_ERROR') continue;
      return current() ? { failed: cause } : 'gone';
    }
    if (!current()) return 'gone';
    if (done(answer)) return { answer };
  }
}
