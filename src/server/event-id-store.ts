/**
 * Where the webhook handler remembers which `event_id`s it has handled, so that
 * an event delivered twice is handled once. The default keeps a bounded number
 * of ids in memory; give a store of your own (a database table with a unique
 * key, Redis `SET NX`) when you run more than one process or want the memory to
 * survive a restart.
 */
export interface EventIdStore {
  /** Whether `eventId` was handled before. */
  has(eventId: string): boolean | Promise<boolean>;
  /** Records `eventId` as handled; called only after your callback succeeded. */
  add(eventId: string): void | Promise<void>;
}

/** An {@link EventIdStore} in memory that forgets its oldest ids once it holds `capacity`. */
export function memoryEventIdStore(capacity = 10_000): EventIdStore {
  // A Set iterates in insertion order, so its first entry is the oldest id: a bounded FIFO memory.
  const seen = new Set<string>();
  return {
    has: (eventId) => seen.has(eventId),
    add(eventId) {
      seen.add(eventId);
      if (seen.size > capacity) seen.delete(seen.values().next().value!);
    },
  };
}
