/**
 * Whether this runtime keeps each request to what it made itself: Cloudflare
 * Workers (workerd) cancels a request's timers and I/O when it ends, and
 * warns (then hangs) when one request settles a promise another awaits. There,
 * nothing one request waits on may come from another; elsewhere (Node, Deno,
 * Bun) requests of one process may share a run in progress. workerd names
 * itself in `navigator.userAgent`.
 */
export function requestsAreIsolated(): boolean {
  return (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers';
}
