/** Upper bound for one wait: a server asking for longer is treated as a final answer, not a spinner. */
export const MAX_RETRY_WAIT_MS = 10_000;

/**
 * Delay before retry number `attempt` (1-based): exponential with "equal jitter"
 * (half fixed, half random) so many clients retrying at once spread out.
 */
export function backoffDelay(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = baseMs * 2 ** (attempt - 1);
  return ceiling / 2 + random() * (ceiling / 2);
}

/**
 * Milliseconds asked for by a `Retry-After` header (seconds or an HTTP date),
 * or null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
export function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
