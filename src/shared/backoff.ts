import { untilAborted } from './until-aborted.js';

/** Upper bound for one wait: a server asking for longer is treated as a final answer, not a spinner. */
export const MAX_RETRY_WAIT_MS = 10_000;

/**
 * The wait before retry number `attempt` (1-based): exponential from `baseMs`, capped at `maxMs`, with "equal jitter"
 * (half fixed, half random) so that many clients hit by the same outage spread their retries instead of returning in
 * step. Shared by the browser's token fetch and the server's service calls.
 */
export function backoffDelay(
  attempt: number,
  baseMs: number,
  maxMs = Number.POSITIVE_INFINITY,
  random: () => number = Math.random,
): number {
  const step = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return step / 2 + random() * (step / 2);
}

/** Milliseconds a `Retry-After` header asks for (RFC 9110: seconds or an HTTP date); null if absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // HTTP dates start with the day's name; checking it keeps Date.parse's leniency ("5.5" is a date to V8) out.
  if (!/^[A-Za-z]{3}/.test(trimmed)) return null;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts (and the timer is cleared). */
export function wait(ms: number, signal: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return untilAborted(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), signal).finally(() => clearTimeout(timer));
}
