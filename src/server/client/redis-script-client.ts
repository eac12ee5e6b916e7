/**
 * What the Redis-backed pieces (the event store of `payroll-link/server/redis` and its rate limiter) need of a client:
 * node-redis's `eval(script, { keys, arguments })`. A `createClient()` client or a `createCluster()` cluster fits
 * (every script touches one key). A module of its own so that the limiter and the entry that re-exports it do not
 * import each other.
 */
export interface RedisScriptClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}
