/**
 * A wait bounded in time (see {@link timeLimit}): the signal that ends it, whether the time ran out (rather than the
 * caller's signal aborting), and what clears the timer and lets go of the caller's signal once the wait is over. A
 * tuple, destructured by each caller: an object's property names would stay in the browser's bundle.
 */
export type TimeLimit = [signal: AbortSignal, timedOut: () => boolean, dispose: () => void];

/**
 * The one way to bound a wait: a signal that aborts with `outer`'s reason (an already aborted `outer` carries over at
 * once) or, after `ms`, with `reason()`. Pass the signal to what waits (a `fetch`, a wait for the rate limiter), or
 * wrap a promise that heeds no signal in `untilAborted`.
 *
 * Plain timer and controller, not `AbortSignal.timeout` + `AbortSignal.any`: older ESR browsers lack `any`, and
 * Node 20 can collect a timeout signal that only `AbortSignal.any` refers to, so that the bound silently never fires.
 * Each limit has its own timer, made and cleared by the one who waits: on workerd nothing a request waits on may come
 * from another request.
 *
 * @example
 * const [signal, timedOut, dispose] = timeLimit(5_000, callerSignal);
 * try {
 *   return await fetch(url, { signal });
 * } catch (error) {
 *   if (timedOut()) throw new Error('no answer within 5 s');
 *   throw error;
 * } finally {
 *   dispose();
 * }
 */
export function timeLimit(
  ms: number,
  outer?: AbortSignal,
  reason: () => unknown = () => new DOMException('timed out', 'TimeoutError'),
): TimeLimit {
  const controller = new AbortController();
  let expired = false;
  const onAbort = () => controller.abort(outer!.reason);
  // An already aborted signal fires no 'abort' event: carry its state over now.
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(reason());
  }, ms);
  return [
    controller.signal,
    () => expired,
    () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  ];
}
