/** What {@link withinTime} saw: the work's value, or that its time ran out first. */
export type TimeBoundResult<T> = { settled: true; value: T } | { settled: false };

/**
 * Runs the integrator's `work` (a callback or hook), and stops waiting for it
 * after `ms`: a promise that never settles must not hold a request, an event
 * id or the memory of every copy that waits on it. The work itself cannot be
 * stopped; it is only no longer waited for. A throw (sync or async) rejects.
 */
export async function withinTime<T>(work: () => T | Promise<T>, ms: number): Promise<TimeBoundResult<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<TimeBoundResult<T>>((resolve) => {
    timer = setTimeout(() => resolve({ settled: false }), ms);
  });
  try {
    return await Promise.race([(async () => ({ settled: true as const, value: await work() }))(), timeUp]);
  } finally {
    clearTimeout(timer);
  }
}
