import { timeLimit } from '../../shared/time-limit.js';
import { untilAborted } from '../../shared/until-aborted.js';

/** What {@link withinTime} saw: the work's value, or that its time ran out first. */
export type TimeBoundResult<T> = { settled: true; value: T } | { settled: false };

/**
 * Runs the integrator's `work` (a callback or hook), and stops waiting for it after `ms`: a promise that never settles
 * must not hold a request, an event id or the memory of every copy that waits on it. The work itself cannot be stopped;
 * it is only no longer waited for. A throw (sync or async) rejects. A {@link timeLimit} with no signal of the caller's,
 * in the shape the stores' and hooks' callers branch on.
 */
export async function withinTime<T>(work: () => T | Promise<T>, ms: number): Promise<TimeBoundResult<T>> {
  const [signal, timedOut, dispose] = timeLimit(ms);
  try {
    return { settled: true, value: await untilAborted((async () => await work())(), signal) };
  } catch (error) {
    if (timedOut()) return { settled: false };
    throw error;
  } finally {
    dispose();
  }
}

/**
 * A store's call, bounded in time: `work`'s value within `ms`, else the error `timedOut()` makes; a throw of
 * `work` becomes `failed(error)`. The one shape of the launches' records and the Redis limiter's script, which
 * answer a failing or silent store with an error of their own.
 */
export async function withinTimeOrThrow<T>(
  work: () => T | Promise<T>,
  ms: number,
  errors: { failed: (error: unknown) => Error; timedOut: () => Error },
): Promise<T> {
  let answer: TimeBoundResult<T>;
  try {
    answer = await withinTime(work, ms);
  } catch (error) {
    throw errors.failed(error);
  }
  if (!answer.settled) throw errors.timedOut();
  return answer.value;
}
