import { ConfigError } from '../config-error.js';
import { type Place, WaitingLine } from './waiting-line.js';

/**
 * What paces a client's calls under the service's rate limit (spec, "Limits":
 * 10 requests per second in sandbox and development, 50 in production). The
 * client asks it before every attempt, retries included. One limiter may be
 * shared by several clients (the token handler and the app's own reads), or,
 * through `redisRateLimiter` (`payroll-link/server/redis`), by several processes.
 */
export interface RateLimiter {
  /**
   * Resolves when one request may be sent now, having counted it; callers that
   * arrive while the limit is reached wait their turn, in order. Rejects with
   * `signal.reason` when `signal` aborts while waiting (the request is then not
   * counted and never sent).
   *
   * It may resolve with a function, {@link RequestAnswered}, which the client
   * calls once the request's attempt has ended (answered, failed or timed out).
   */
  acquire(signal?: AbortSignal): Promise<void | RequestAnswered>;
}

/**
 * Called by the client once a request's attempt has ended (answered, failed or
 * timed out); more calls change nothing. The service counted the request at
 * some time between its send and its answer, so an answer tells the limiter
 * the latest: the built-in limiters then count the request for the service's
 * one second from its answer, when that ends later than its window from the
 * send. A request that took long to reach the service (a stalled machine on
 * the way, a burst on cold TLS connections) then leaves the next second its
 * room, where counting from the send alone met 429s. What it cannot cover: a
 * request still unanswered when its window from the send has passed (held on
 * its way longer than that), and an attempt given up (a timeout) whose request
 * arrives later still. A slow answer holds its place longer than a fast one.
 * Not calling it is allowed (a limiter used without a client): the request
 * counts from when it went, as it did before.
 */
export type RequestAnswered = () => void;

/**
 * Added to the one-second window: a request sent at the edge of our window
 * may arrive at the service a little later, and the service's own sliding
 * second must still never see more than the limit.
 */
export const RATE_LIMIT_MARGIN_MS = 100;

/** The service's sliding window: its limit counts the requests of any one second. */
export const RATE_LIMIT_WINDOW_MS = 1000;

/**
 * The in-process {@link RateLimiter}: at most `perSecond` requests in any
 * window of one second plus {@link RATE_LIMIT_MARGIN_MS}, callers served in
 * the order they came. For one process; several processes share
 * `redisRateLimiter` instead.
 *
 * Safe to share across requests on every runtime, Cloudflare Workers included:
 * what callers share is plain data (the requests counted, the order of the
 * callers), and each waiting caller sleeps on a timer of its own, so that no
 * request waits on a timer or a promise another request made. A caller whose
 * request ended while it waited (a runtime that cancels an ended request's
 * timers) is passed over within `LATE_WAKE_GRACE_MS` (200 ms) of its turn.
 *
 * @example
 * const limiter = inProcessRateLimiter({ perSecond: 10 });
 * const client = createPayrollClient({ ...options, rateLimit: limiter });
 */
export function inProcessRateLimiter({ perSecond }: { perSecond: number }, now: () => number = Date.now): RateLimiter {
  if (!Number.isSafeInteger(perSecond) || perSecond < 1)
    throw new ConfigError('inProcessRateLimiter: perSecond must be a whole number of at least 1');
  /** The requests the window holds: each counts from when it went, or from its answer once that came. */
  let counted: { at: number }[] = [];
  const line = new WaitingLine();
  const span = RATE_LIMIT_WINDOW_MS + RATE_LIMIT_MARGIN_MS;

  /** Counts a request that goes now, and gives back what the client calls at its answer. */
  const take = (time: number): RequestAnswered => {
    const request = { at: time };
    counted.push(request);
    let answered = false;
    return () => {
      if (answered) return;
      answered = true;
      // The service counted it by now: it holds the window for one second from here (the margin is for sends,
      // whose arrival is unknown), put back if it had left it meanwhile (an answer slower than the window).
      request.at = Math.max(request.at, now() - RATE_LIMIT_MARGIN_MS);
      if (!counted.includes(request)) counted.push(request);
    };
  };

  /**
   * Whether the caller at `place` may go at `time` (the callers ahead of it that are still waiting each keep
   * a place in the window for themselves), or else when it should look again: when enough counted requests
   * have left the window for its turn, or soon after a caller ahead was due (it went, or counts as gone).
   */
  const turn = (place: Place, time: number): 'now' | number => {
    counted = counted.filter((request) => request.at > time - span);
    const ahead = line.ahead(place, time);
    const room = perSecond - counted.length;
    if (ahead.length < room) return 'now';
    const leaving = counted.map((request) => request.at).sort((a, b) => a - b);
    // The count whose leaving makes room for this caller; past the last one, the callers ahead count anew.
    const freeing = leaving[ahead.length - room] ?? leaving.at(-1) ?? time;
    return Math.max(time + 1, Math.min(freeing + span + 1, WaitingLine.nextLook(ahead, time)));
  };

  return {
    acquire(signal?: AbortSignal): Promise<void | RequestAnswered> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      const place = line.join(now());
      return new Promise<RequestAnswered>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const onAbort = () => {
          clearTimeout(timer);
          line.leave(place);
          reject(signal!.reason);
        };
        // Runs in this caller's own context only: on acquire, then on its own timer.
        const look = () => {
          const time = now();
          const next = turn(place, time);
          if (next === 'now') {
            line.leave(place);
            signal?.removeEventListener('abort', onAbort);
            resolve(take(time));
            return;
          }
          place.wakeAt = next;
          timer = setTimeout(look, next - time);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        look();
      });
    },
  };
}
