/**
 * Where the launches keep what they know: the store they were given, sorted into claims (what makes a success final and
 * `onResult` run once) and records (the Link tokens a launch minted, what was confirmed of them, its counters), with
 * every call bounded in time and every failure the 503 the page retries.
 */
import { describeError } from '../describe-error.js';
import { HttpError } from '../handler/http-error.js';
import { withinTimeOrThrow } from '../handler/time-bound.js';
import type { Logger } from '../logger.js';
import { hasMethods } from '../handler/function-schema.js';
import type { EventClaimStore } from '../webhooks/event-claim-store.js';
import { ANSWERS } from './launch-answers.js';
import { isInOneProcess, LAUNCH_STORE_METHODS, LaunchStoreFullError, type ExpiresAt, type LaunchStore } from './store/launch-store.js';
import { memoryLaunchStore } from './store/memory-launch-store.js';
import { ConfigError } from '../config-error.js';
import { MAX_TTL_IN_ONE_PROCESS } from './launch-options.js';
import { RESULT_GRACE_SECONDS } from './launch-seal.js';

/** Bound of one store call. */
export const STORE_TIMEOUT_MS = 5_000;

/** The store's keys of a launch's records. */
export const KEYS = {
  /** A claim: `done` once the launch's success ran `onResult` (final). */
  success: (launchId: string) => `launch:${launchId}`,
  /** A claim: `done` once the launch was revoked (final). */
  revoked: (launchId: string) => `launch-revoked:${launchId}`,
  /** A claim per Link token: its exit's `onResult`. */
  exit: (linkTokenId: string) => `launch-exit:${linkTokenId}`,
  /** A claim per Link token: its `unconfirmed` result's `onResult`. */
  unconfirmed: (linkTokenId: string) => `launch-unconfirmed:${linkTokenId}`,
  /** A counter: the Link tokens the launch minted. */
  tokens: (launchId: string) => `launch-tokens:${launchId}`,
  /** A counter: the success checks of the launch in one minute (each reads the service). */
  checks: (launchId: string, minute: number) => `launch-checks:${launchId}:${minute}`,
  /** A record: the launch a Link token was minted for (JSON {@link MintedToken}). */
  token: (linkTokenId: string) => `launch-token:${linkTokenId}`,
  /** A record: what an `account.added` webhook said of a Link token (JSON `HeardAccount`). */
  heard: (linkTokenId: string) => `launch-heard:${linkTokenId}`,
  /** A record: the launch's latest reported success that is not confirmed yet (JSON `PendingReport`). */
  report: (launchId: string) => `launch-report:${launchId}`,
};

/** The stores the launches work on, and whether they are shared by every instance. */
export interface LaunchStorage {
  claims: EventClaimStore;
  records: LaunchStore;
  /** Whether the records are one store shared by every instance (else counters and tokens are per instance). */
  sharedRecords: boolean;
  /** Whether the claims are (else a success is final only in this process, until it restarts). */
  sharedClaims: boolean;
}

const isLaunchStore = (store: object): store is LaunchStore => hasMethods(store, LAUNCH_STORE_METHODS);

/**
 * Claims on a launch store: a claim is a value only its holder's token can remove, expiring with its lease; done is
 * the value `done`, kept for `doneForMs` (as long as any launch made now can be used).
 */
export function claimsOn(records: LaunchStore, doneForMs: number): EventClaimStore {
  const held = (token: string) => `claim:${token}`;
  return {
    async claim(id, token, leaseMs) {
      if (await records.add(id, held(token), Date.now() + leaseMs)) return 'claimed';
      return (await records.get(id)) === 'done' ? 'done' : 'busy';
    },
    markDone: (id) => records.set(id, 'done', Date.now() + doneForMs),
    release: (id, token) => records.remove(id, held(token)),
    isDone: async (id) => (await records.get(id)) === 'done',
  };
}

/**
 * Sorts the integrator's `store` (or none) into claims and records; see `docs/native-apps.md` for each case. Without
 * a shared store it refuses a `ttlSeconds` over {@link MAX_TTL_IN_ONE_PROCESS}, and warns once of what it cannot do.
 */
export function launchStorage(store: EventClaimStore | LaunchStore | undefined, ttlSeconds: number, log: Logger): LaunchStorage {
  const storage = sortStore(store, (ttlSeconds + RESULT_GRACE_SECONDS) * 1000);
  if (!storage.sharedClaims && ttlSeconds > MAX_TTL_IN_ONE_PROCESS) {
    throw new ConfigError(
      `createLinkLaunches options: ttlSeconds: is at most ${MAX_TTL_IN_ONE_PROCESS} without a shared store (a completed launch would open again after a restart); give store: redisEventStore(redis), postgresEventStore(pool) or d1EventStore(env.DB)`,
    );
  }
  warnOfStorage(storage, ttlSeconds, log);
  return storage;
}

/** `doneForMs`: a done mark lasts as long as any launch made now can be used, its grace included. */
function sortStore(store: EventClaimStore | LaunchStore | undefined, doneForMs: number): LaunchStorage {
  if (store && !isInOneProcess(store) && isLaunchStore(store)) {
    return { claims: claimsOn(store, doneForMs), records: store, sharedRecords: true, sharedClaims: true };
  }
  const records = memoryLaunchStore();
  if (store && !isInOneProcess(store)) return { claims: store as EventClaimStore, records, sharedRecords: false, sharedClaims: true };
  return { claims: claimsOn(records, doneForMs), records, sharedRecords: false, sharedClaims: false };
}

/** The store failed or hung: the 503 the page retries, with the log line the boundary writes. */
export const storeUnavailable = (why: string) =>
  new HttpError(ANSWERS.storeUnavailable, { level: 'error', message: `link launch: ${why}; answering 503` });

/** One store call, bounded in time: its value, or the 503 the page retries (a full memory store: its own 503). */
export function storeCall<T>(call: () => T | Promise<T>): Promise<T> {
  return withinTimeOrThrow(call, STORE_TIMEOUT_MS, {
    failed: (error) =>
      error instanceof LaunchStoreFullError
        ? new HttpError(ANSWERS.storeFull, { level: 'error', message: `link launch: ${error.message}; answering 503` })
        : storeUnavailable(`the store failed: ${describeError(error)}`),
    timedOut: () => storeUnavailable(`the store did not answer within ${STORE_TIMEOUT_MS} ms`),
  });
}

/**
 * Whether claim `id` is done: asked with `isDone`, or by a claim of 1 ms given back at once (a custom store without
 * it). Bounded like every store call.
 */
export function isDone(claims: EventClaimStore, id: string): Promise<boolean> {
  return storeCall(async () => {
    if (claims.isDone) return await claims.isDone(id);
    const token = crypto.randomUUID();
    const claim = await claims.claim(id, token, 1);
    if (claim === 'claimed') await claims.release(id, token);
    return claim === 'done';
  });
}

/** A JSON record, or null (none, expired, or not JSON: a record we did not write). */
export async function readJson<T>(records: LaunchStore, key: string): Promise<T | null> {
  const text = await storeCall(() => records.get(key));
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** Writes a JSON record until `expiresAt`. */
export const writeJson = (records: LaunchStore, key: string, value: unknown, expiresAt: ExpiresAt) =>
  storeCall(() => records.set(key, JSON.stringify(value), expiresAt));

/** Logs once, at start-up, what the store given cannot do across instances. */
function warnOfStorage(storage: LaunchStorage, ttlSeconds: number, log: Logger): void {
  if (!storage.sharedClaims) {
    log.warn(
      `link launches: no shared store, so a launch's completion and its token limit live in this process and die with it (ttlSeconds is at most 900). A texted link needs a shared store: createLinkLaunches({ store: redisEventStore(redis) }) (or postgresEventStore, d1EventStore)`,
      { ttlSeconds },
    );
  } else if (!storage.sharedRecords) {
    log.warn(
      'link launches: the store is a custom EventClaimStore: a success is final across instances, but the token limit, the success-check limit and the Link tokens confirm() looks up are counted per instance. The built-in stores (payroll-link/server/redis, /postgres, /d1) share them.',
    );
  }
}
