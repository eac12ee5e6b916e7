import { hasMethods } from '../handler/function-schema.js';
import type { ClaimResult, EventClaimStore } from './event-claim-store.js';
import { IN_ONE_PROCESS } from '../launches/store/launch-store.js';

/** The methods that make an {@link EventClaimStore}, and those of the older {@link EventIdStore}. */
export const STORE_METHODS = { claim: ['claim', 'markDone', 'release'], id: ['has', 'add'] } as const;

/**
 * The first store interface: `has` before the callback, `add` after it. Still accepted, for one process only: between
 * `has` and `add` nothing stops another process from running the same event, so two instances that receive copies of
 * one event at the same moment both run the callback. With more than one instance use an {@link EventClaimStore}
 * (`payroll-link/server/redis`, `payroll-link/server/postgres`).
 *
 * @deprecated for new code: implement {@link EventClaimStore}.
 */
export interface EventIdStore {
  /** Whether `eventId` was handled before. */
  has(eventId: string): boolean | Promise<boolean>;
  /** Records `eventId` as handled; called only after your callback succeeded. */
  add(eventId: string): void | Promise<void>;
}

/**
 * The default store: in memory, one process, forgetting its oldest ids once it holds `capacity`. It is both an
 * {@link EventClaimStore} (what the handler uses) and, for code written against it before, an {@link EventIdStore}.
 */
export function memoryEventIdStore(capacity = 10_000): EventClaimStore & EventIdStore & { readonly [IN_ONE_PROCESS]: true } {
  // A Set iterates in insertion order, so its first entry is the oldest id: a bounded FIFO memory.
  const seen = new Set<string>();
  const leases = new Map<string, { token: string; until: number }>();
  const add = (eventId: string) => {
    seen.add(eventId);
    if (seen.size > capacity) seen.delete(seen.values().next().value!);
  };
  return {
    [IN_ONE_PROCESS]: true,
    has: (eventId) => seen.has(eventId),
    add,
    claim(eventId, token, leaseMs): ClaimResult {
      if (seen.has(eventId)) return 'done';
      const lease = leases.get(eventId);
      if (lease && lease.until > Date.now()) return 'busy';
      leases.set(eventId, { token, until: Date.now() + leaseMs });
      // Leases are short-lived; dropping expired ones here keeps the map as small as the work in flight.
      if (leases.size > capacity) for (const [id, held] of leases) if (held.until <= Date.now()) leases.delete(id);
      return 'claimed';
    },
    markDone(eventId) {
      leases.delete(eventId);
      add(eventId);
    },
    release(eventId, token) {
      if (leases.get(eventId)?.token === token) leases.delete(eventId);
    },
    isDone: (eventId) => seen.has(eventId),
  };
}

const isClaimStore = (store: EventClaimStore | EventIdStore): store is EventClaimStore => hasMethods(store, STORE_METHODS.claim);

/**
 * The store as the handler uses it: an {@link EventClaimStore} as it is, or a `{ has, add }` store for one process,
 * whose `has` stands in for the claim (not atomic; the handler's own in-process wait keeps copies apart), `add` marks
 * done, and there is nothing to release.
 */
export function asClaimStore(store: EventClaimStore | EventIdStore): EventClaimStore {
  if (isClaimStore(store)) return store;
  return {
    claim: async (eventId) => ((await store.has(eventId)) ? 'done' : 'claimed'),
    markDone: (eventId) => store.add(eventId),
    release: () => {},
  };
}
