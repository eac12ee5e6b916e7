/**
 * What {@link EventClaimStore.claim} answers: `claimed` (this caller now holds
 * the event for the lease and runs the callback), `done` (handled before:
 * nothing to run), or `busy` (another caller holds an unexpired lease).
 */
export type ClaimResult = 'claimed' | 'done' | 'busy';

/**
 * Where the webhook handler records, atomically, who handles which `event_id`: what makes each event handled once
 * across processes. Before the callback the handler claims the id with a lease; after it succeeds it marks the id done;
 * when it fails or passes its time bound it releases the claim. A process that dies mid-callback releases nothing: its
 * lease runs out, and a later copy of the event claims it again.
 *
 * `claim` must be atomic (one caller gets `claimed` for an unexpired lease, however many ask at once).
 * `payroll-link/server/redis` and `payroll-link/server/postgres` are stores on those engines; {@link memoryEventIdStore}
 * is one for a single process.
 */
export interface EventClaimStore {
  /**
   * Claims `eventId` for `leaseMs` under `token` (unique per attempt), unless
   * it is done or another unexpired lease holds it.
   */
  claim(eventId: string, token: string, leaseMs: number): ClaimResult | Promise<ClaimResult>;
  /** Records `eventId` as handled for good; called only after the callback succeeded. */
  markDone(eventId: string, token: string): void | Promise<void>;
  /** Gives the claim up so that a copy may claim it at once; only if `token` still holds it. */
  release(eventId: string, token: string): void | Promise<void>;
  /**
   * Whether `eventId` is marked done, asked without claiming it (a launch's page asks whether its launch has
   * succeeded). Optional: without it, the asker claims the id and releases the claim at once. The built-in
   * stores have it.
   */
  isDone?(eventId: string): boolean | Promise<boolean>;
}
