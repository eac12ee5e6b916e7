import { ConfigError } from '../../config-error.js';
import { IN_ONE_PROCESS, LaunchStoreFullError, type ExpiresAt, type LaunchStore } from './launch-store.js';

/** A record: a value (null for a counter) or a count, until `expiresAt`. */
interface MemoryRecord {
  value: string | null;
  count: number;
  expiresAt: ExpiresAt;
}

/**
 * A {@link LaunchStore} in a Map, for one process (marked {@link IN_ONE_PROCESS}): its records die with the process
 * and no other instance sees them. Full, it refuses new keys rather than evicting: dropping a live record would
 * bring a revoked launch back, or let a used one be used again.
 */
export function memoryLaunchStore(
  options: {
    /** How many unexpired records it holds at most (default 100,000); past that, a new key throws {@link LaunchStoreFullError}. */
    capacity?: number;
  } = {},
): LaunchStore & { readonly [IN_ONE_PROCESS]: true } {
  const capacity = options.capacity ?? 100_000;
  if (!Number.isInteger(capacity) || capacity < 1) throw new ConfigError('memoryLaunchStore: capacity must be a positive integer');
  const records = new Map<string, MemoryRecord>();

  // Expiry is lazy: a record past its time is dropped when it is read, or when room is needed.
  const alive = (key: string): MemoryRecord | undefined => {
    const record = records.get(key);
    if (!record || record.expiresAt > Date.now()) return record;
    records.delete(key);
    return undefined;
  };
  const write = (key: string, record: MemoryRecord) => {
    // Written already expired: as if written and gone at once, so it takes no room.
    if (record.expiresAt <= Date.now()) return void records.delete(key);
    if (!records.has(key) && records.size >= capacity) {
      for (const [held, { expiresAt }] of records) if (expiresAt <= Date.now()) records.delete(held);
      if (records.size >= capacity) throw new LaunchStoreFullError(`memoryLaunchStore: ${capacity} unexpired records, the capacity`);
    }
    records.set(key, record);
  };

  return {
    [IN_ONE_PROCESS]: true,
    get: (key) => alive(key)?.value ?? null,
    add(key, value, expiresAt) {
      if (alive(key)) return false;
      write(key, { value, count: 0, expiresAt });
      return true;
    },
    set(key, value, expiresAt) {
      write(key, { value, count: 0, expiresAt });
    },
    remove(key, value) {
      if (records.get(key)?.value === value) records.delete(key);
    },
    increment(key, expiresAt) {
      const record = alive(key);
      if (record) return ++record.count;
      write(key, { value: null, count: 1, expiresAt });
      return 1;
    },
  };
}
