/**
 * The order in which a rate limiter's callers take their turn, kept as plain
 * data that every caller reads on its own wake-up. Nothing here is a promise or
 * a timer another caller settles: on Cloudflare Workers (workerd) a request may
 * not wait on what another request created, and the runtime cancels a
 * request's timers when it ends. A caller whose request ended that way never
 * wakes again, so it is dropped from the line once it has slept past its
 * wake-up by {@link LATE_WAKE_GRACE_MS}: first come, first served holds among
 * live callers only, and a dead one holds the others up by that grace at most.
 * Nobody is woken early either: when a caller ahead aborts, the ones behind go
 * at their own next look, so a turn may stay unused for up to that long.
 */

/**
 * How long past its wake-up a caller may stay asleep before the others count
 * it gone. A live caller late by more (a busy event loop) only loses its place
 * until it wakes: it then takes its place back, and the limit itself is
 * counted apart from the line, so lateness can reorder turns but never add one.
 */
export const LATE_WAKE_GRACE_MS = 200;

/** One caller's place: when it came, and when it will look again. */
export interface Place {
  readonly arrival: number;
  /** When the caller's own timer will wake it (on the limiter's clock); the time it woke while it is awake. */
  wakeAt: number;
}

/**
 * How soon the callers behind one whose wake-up has come look again: it is about to go (its timer is due, or it
 * waits on a short call), and a caller that goes later than its turn crowds the window the turns after it were
 * counted in (the Redis limiter's bookings).
 */
export const DUE_POLL_MS = 5;

/** Callers in the order they came (see the module's note). */
export class WaitingLine {
  #places: Place[] = [];
  #arrivals = 0;

  /** A new caller at the back of the line, awake at `now`. */
  join(now: number): Place {
    const place = { arrival: this.#arrivals++, wakeAt: now };
    this.#places.push(place);
    return place;
  }

  /** The caller took its turn or left. */
  leave(place: Place): void {
    const index = this.#places.indexOf(place);
    if (index >= 0) this.#places.splice(index, 1);
  }

  /**
   * The live callers ahead of `place`, in order, at `now`. Drops the callers
   * that slept past their wake-up by more than the grace, and puts `place` back
   * in its order if the others had dropped it while it was late.
   */
  ahead(place: Place, now: number): Place[] {
    this.#places = this.#places.filter((other) => other === place || now <= other.wakeAt + LATE_WAKE_GRACE_MS);
    if (!this.#places.includes(place)) {
      const after = this.#places.findIndex((other) => other.arrival > place.arrival);
      this.#places.splice(after < 0 ? this.#places.length : after, 0, place);
    }
    return this.#places.slice(0, this.#places.indexOf(place));
  }

  /**
   * When to look again for `callers` (ahead of the one asking) at `now`: just after the first of their wake-ups
   * still to come; soon ({@link DUE_POLL_MS}) for one whose wake-up has come, which goes any moment or, past the
   * grace, counts as gone.
   */
  static nextLook(callers: readonly Place[], now: number): number {
    return Math.min(...callers.map((caller) => (caller.wakeAt >= now ? caller.wakeAt + 1 : now + DUE_POLL_MS)));
  }
}
