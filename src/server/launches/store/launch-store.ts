/**
 * What `createLinkLaunches` keeps between requests and instances: a few small records per launch (revoked, succeeded,
 * the Link tokens it minted and what has been confirmed of each, its counters), each gone once its launch can no longer
 * be used. Five atomic operations on string keys are the whole contract, so that each engine implements it in a few
 * lines.
 */

/** When a record stops existing: milliseconds since 1970 (UTC), as `Date.now()` counts. */
export type ExpiresAt = number;

/**
 * A launch store: string values and counters under string keys, each with an expiry. A record past its expiry is as if
 * it had never been written. Every method must be atomic on its key across all the instances that share the store; a
 * method that fails throws (the launch routes answer 503 and the page tries again).
 */
export interface LaunchStore {
  /** The value at `key`, or null when there is none (or it has expired). */
  get(key: string): string | null | Promise<string | null>;
  /** Sets `key` to `value` until `expiresAt`, only if it holds no unexpired value: true when this call set it. */
  add(key: string, value: string, expiresAt: ExpiresAt): boolean | Promise<boolean>;
  /** Sets `key` to `value` until `expiresAt`, whatever it held. */
  set(key: string, value: string, expiresAt: ExpiresAt): void | Promise<void>;
  /** Removes `key`, only if it holds `value`. */
  remove(key: string, value: string): void | Promise<void>;
  /**
   * Adds 1 to the counter at `key` and answers the new count: 1 when the key held nothing (or had expired), the
   * expiry then set to `expiresAt`; a later call keeps the first expiry. A counter is a key of its own, never one
   * written by `add` or `set`.
   */
  increment(key: string, expiresAt: ExpiresAt): number | Promise<number>;
}

/**
 * The mark of a store that lives in one process ({@link memoryLaunchStore}, `memoryEventIdStore`): whatever it
 * holds dies with the process and is not seen by another instance, so `createLinkLaunches` does not count it as
 * shared. A symbol, so that no store of another kind carries it by accident.
 */
export const IN_ONE_PROCESS: unique symbol = Symbol.for('payroll-link.store-in-one-process');

/** Whether `store` says it lives in one process. */
export const isInOneProcess = (store: object): boolean => (store as { [IN_ONE_PROCESS]?: unknown })[IN_ONE_PROCESS] === true;

/** The method names of a {@link LaunchStore}: what `createLinkLaunches` checks a `store` for. */
export const LAUNCH_STORE_METHODS = ['get', 'add', 'set', 'remove', 'increment'] as const;

/** Thrown by {@link memoryLaunchStore} when it holds `capacity` unexpired records: it never drops one early. */
export class LaunchStoreFullError extends Error {
  override readonly name = 'LaunchStoreFullError';
}
