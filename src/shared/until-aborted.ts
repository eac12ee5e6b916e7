/**
 * Settles like `promise`, or rejects with the signal's reason as soon as it aborts (at once if it has): for work that
 * might not heed the signal (an injected `fetch`, an integrator's `fetchToken`, a Redis call). The work itself goes on,
 * only no longer waited for; a rejection it ends with later is handled here, never an unhandled rejection.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
