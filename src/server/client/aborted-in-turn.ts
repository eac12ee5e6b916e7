/**
 * The signals that aborted a call while it still waited for its turn under
 * the rate limit, with the attempt that waited (1: nothing was sent yet). The
 * call rejects with the signal's reason as any abort does; whoever owns the
 * signal (the token handler's time bound) asks here to say what it was
 * waiting for. A WeakMap: a signal that is gone takes its mark with it.
 */
const abortedInTurn = new WeakMap<AbortSignal, number>();

/** Marks `signal` as having aborted a call whose `attempt` (1 for the first) waited for its turn (the client's transport does). */
export function markAbortedInTurn(signal: AbortSignal, attempt: number): void {
  abortedInTurn.set(signal, attempt);
}

/** The attempt that waited for its turn under the rate limit when `signal` aborted its call (1: nothing was sent), or null. */
export function attemptAbortedInTurn(signal: AbortSignal): number | null {
  return abortedInTurn.get(signal) ?? null;
}
