import { LinkApiError } from './link-api-client.js';

/** The longest pause between two polls, and the pause after a lost connection. */
export const POLL_MAX_MS = 2_000;
/**
 * A wait that polls (the login in the other window, the job) has this time limit per period: at the limit, with no
 * answer from the user, the polling pauses (it never polls forever); "keep waiting" starts another full period.
 */
export const WAIT_LIMIT_MS = 10 * 60_000;
/** How long before the limit the user is warned and asked to keep waiting: at least 20 s (WCAG 2.2.1); a minute. */
export const WAIT_WARNING_MS = 60_000;
/** Consecutive lost connections tolerated before the page gives up on the network. */
const POLL_FAILURES_TOLERATED = 3;

/** How one polling loop asks, when it is done, and whether the screen that polls is still there. */
export interface PollOptions<T, D extends T> {
  /** One request: a long poll, or a look at a job. */
  ask(): Promise<T>;
  /** The answer that ends the polling. */
  done(answer: T): answer is D;
  /** False once the screen that polls has gone (the user went back, or left) or paused: the loop then stops, quietly. */
  current(): boolean;
  /** The pause before the request numbered `attempt` (from 0); `afterFailure` when the last one lost its connection. */
  pause(attempt: number, afterFailure: boolean): number;
}

/** How a polling loop ended: the answer it waited for, a request that failed for good, or gone (its screen, or its period). */
export type PollOutcome<D> = { answer: D } | { failed: unknown } | 'gone';

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The Link page's one polling loop (the job's progress, the OAuth-style login's long poll): tolerant of a few lost
 * connections in a row, and quiet once its screen has gone or stopped waiting for it (its time limit passed: see
 * `WAIT_LIMIT_MS`). The answer it waits for is returned even then: whether it still counts is the flow's call.
 */
export async function poll<T, D extends T>({ ask, done, current, pause }: PollOptions<T, D>): Promise<PollOutcome<D>> {
  let failures = 0;
  for (let attempt = 0; ; attempt++) {
    const ms = pause(attempt, failures > 0);
    if (ms > 0) await wait(ms);
    if (!current()) return 'gone';
    let answer: T;
    try {
      answer = await ask();
      failures = 0;
    } catch (cause) {
      if (++failures < POLL_FAILURES_TOLERATED && cause instanceof LinkApiError && cause.code === 'NETWORK_ERROR') continue;
      return current() ? { failed: cause } : 'gone';
    }
    if (done(answer)) return { answer };
  }
}
