/**
 * The heart of the webhook handler, apart from HTTP: each event id's work runs once, under the claims of an
 * {@link EventClaimStore}. What each run ended with is an {@link EventOutcome}; the handler turns it into an answer.
 */
import { describeError } from '../describe-error.js';
import type { Logger } from '../logger.js';
import { withinTime } from '../handler/time-bound.js';
import type { EventClaimStore } from './event-claim-store.js';

/**
 * How one run for an event id ended: `handled` (the work ran to success), `duplicate` (done before: nothing ran),
 * `failed` (the work threw: the claim is released), `timed-out` (the work passed its bound: the claim is kept until it
 * settles or the lease ends), `busy` (another caller holds the claim), `store-unavailable` (a store call failed or
 * hung). Copies that waited on a run answer from its outcome.
 */
export type EventOutcome = 'handled' | 'duplicate' | 'failed' | 'timed-out' | 'busy' | 'store-unavailable';

/** What {@link oncePerEvent} needs. */
export interface OncePerEventOptions {
  /** Who handles which event id, across processes. */
  store: EventClaimStore;
  /** How long a claim holds an event against other callers; longer than `callbackTimeoutMs`. */
  leaseMs: number;
  /** Time bound of one run of the work, in milliseconds. */
  callbackTimeoutMs: number;
  /** Time bound of one store call, in milliseconds: a hung store is `store-unavailable`. */
  storeTimeoutMs: number;
  /** Already redacted. */
  log: Logger;
  /**
   * Requests may not wait on one another (Cloudflare Workers): a copy never awaits another request's run, and
   * the store's claim alone decides, `busy` while the first holds it, as it does across processes.
   */
  isolatedRequests: boolean;
}

/** What one store call gave: its value, or nothing (it failed or hung, and was logged). */
type StoreAnswer<T> = { ok: true; value: T } | { ok: false };

/** Runs an event's work once per id, and says how that ended. */
export type EventRunner = (eventId: string, work: () => void | Promise<void>) => Promise<EventOutcome>;

/**
 * Makes a runner. Within this process, a copy that arrives while the first is running waits for it, then takes the
 * first's outcome (`duplicate` for a success), unless the first failed: then it runs the work itself. Answering
 * "duplicate" at once would lose the event when the first then fails on a connection the sender gave up on. Across
 * processes the store's claim decides, and so it does within one where requests are isolated (`isolatedRequests`).
 */
export function oncePerEvent({
  store,
  leaseMs,
  callbackTimeoutMs,
  storeTimeoutMs,
  log,
  isolatedRequests,
}: OncePerEventOptions): EventRunner {
  /** Ids being handled in this process, with how that run ends. */
  const inFlight = new Map<string, Promise<EventOutcome>>();

  /** One store call, bounded in time; a throw or a hang is logged and reported as not ok. */
  async function storeCall<T>(operation: string, eventId: string, call: () => T | Promise<T>): Promise<StoreAnswer<T>> {
    try {
      const result = await withinTime(call, storeTimeoutMs);
      if (result.settled) return { ok: true, value: result.value };
      log.error(`webhook: store.${operation} did not answer within ${storeTimeoutMs} ms`, { eventId });
    } catch (error) {
      log.error(`webhook: store.${operation} failed: ${describeError(error)}`, { eventId });
    }
    return { ok: false };
  }

  async function runOnce(eventId: string, work: () => void | Promise<void>): Promise<EventOutcome> {
    const token = crypto.randomUUID();
    const claim = await storeCall('claim', eventId, () => store.claim(eventId, token, leaseMs));
    if (!claim.ok) return 'store-unavailable';
    if (claim.value === 'done') return 'duplicate';
    if (claim.value === 'busy') {
      log.info('webhook: another instance is handling this event; asking for a later delivery', { eventId });
      return 'busy';
    }
    const markDone = () => storeCall('markDone', eventId, () => store.markDone(eventId, token));
    const release = () => storeCall('release', eventId, () => store.release(eventId, token));
    const running = Promise.resolve().then(work);
    let run;
    try {
      run = await withinTime(() => running, callbackTimeoutMs);
    } catch (error) {
      log.error(`webhook: the callback failed, answering 500 so that the event is delivered again: ${describeError(error)}`, { eventId });
      await release();
      return 'failed';
    }
    if (!run.settled) {
      const bound = `${callbackTimeoutMs} ms (callbackTimeoutMs)`;
      log.error(`webhook: the callback did not settle within ${bound}; answering 503 so that the event is delivered again`, { eventId });
      // The claim is kept while the callback may still finish its work, and given up when it settles: done if it
      // succeeded late, released if it failed. Released at once, a copy would run the same work beside it. One that
      // never settles holds the event until the lease ends (callbackTimeoutMs + 5 s by default), not for good.
      running.then(markDone, release);
      return 'timed-out';
    }
    // The work is done; a failed record only means a redelivery may run it again, which beats losing it.
    await markDone();
    return 'handled';
  }

  if (isolatedRequests) {
    // Plain data, never a promise another request awaits: a copy of an id in flight here is busy, as across
    // processes, even with a `{ has, add }` store whose claim is not atomic.
    const running = new Set<string>();
    return async function deliverOnceIsolated(eventId, work) {
      if (running.has(eventId)) {
        log.info('webhook: this event is being handled; asking for a later delivery', { eventId });
        return 'busy';
      }
      running.add(eventId);
      try {
        return await runOnce(eventId, work);
      } finally {
        running.delete(eventId);
      }
    };
  }
  return async function deliverOnce(eventId, work) {
    for (let running = inFlight.get(eventId); running; running = inFlight.get(eventId)) {
      const outcome = await running;
      // A failure is worth a try of our own; any other end is this copy's outcome too.
      if (outcome !== 'failed') return outcome === 'handled' ? 'duplicate' : outcome;
    }
    const attempt: Promise<EventOutcome> = runOnce(eventId, work).finally(() => {
      if (inFlight.get(eventId) === attempt) inFlight.delete(eventId);
    });
    inFlight.set(eventId, attempt);
    return attempt;
  };
}
