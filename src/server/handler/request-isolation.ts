/**
 * Whether this runtime keeps each request to what it made itself: Cloudflare Workers (workerd) cancels a request's
 * timers and I/O when it ends, and warns (then hangs) when one request settles a promise another awaits. There, nothing
 * one request waits on may come from another; elsewhere (Node, Deno, Bun) requests of one process may share a run in
 * progress. workerd names itself in `navigator.userAgent` from compatibility date 2022-03-21 on (the `global_navigator`
 * flag); before that, its own `WebSocketPair` global tells.
 */
export function requestsAreIsolated(): boolean {
  const scope = globalThis as { navigator?: { userAgent?: unknown }; WebSocketPair?: unknown };
  return scope.navigator?.userAgent === 'Cloudflare-Workers' || typeof scope.WebSocketPair === 'function';
}
