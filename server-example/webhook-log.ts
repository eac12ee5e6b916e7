/**
 * The demo page's record of the webhooks the example received (and, with the
 * same code, of its launches' results): the last 50, each numbered, and
 * `GET /api/webhooks?after=N`, which waits for the next one. A real backend
 * acts on its events (see server.ts) and keeps no such list.
 */
import { jsonResponse, simpleErrorResponse, type WebhookEvent } from 'payroll-link/server';

/** A received event as the demo lists it: numbered from 1 in order of arrival. */
export type LoggedWebhook<Event extends object = WebhookEvent> = Event & { received_at: string; seq: number };

/** How long `?after=N` holds the request open when nothing new arrives: under the proxies' and browsers' own idle limits. */
const LONG_POLL_MS = 25_000;
const KEPT = 50;

/** The log: `add` from the webhook handler, `list` for `GET /api/webhooks`, `close` to answer every waiting request. */
export function createWebhookLog<Event extends object = WebhookEvent>() {
  const received: LoggedWebhook<Event>[] = [];
  let last = 0;
  const waiters = new Set<() => void>();
  const wake = () => [...waiters].forEach((done) => done());

  /** Resolves at the next event, at `close`, or after `ms`; the timer never holds the process open. */
  const nextEvent = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => (clearTimeout(timer), waiters.delete(done), resolve());
      const timer = setTimeout(done, ms);
      timer.unref();
      waiters.add(done);
    });

  return {
    add(event: Event): void {
      received.push({ ...event, received_at: new Date().toISOString(), seq: ++last });
      received.splice(0, received.length - KEPT);
      wake();
    },
    /**
     * `GET /api/webhooks`: every event kept, oldest first. With `?after=N`, only those numbered
     * above N, and when there are none yet it waits for one (at most 25 s, then answers none):
     * the page hears of an event as it arrives, without polling on a timer.
     */
    async list(request: Request): Promise<Response> {
      const after = new URL(request.url).searchParams.get('after');
      if (after !== null && !/^(?:0|[1-9]\d{0,15})$/.test(after)) {
        return simpleErrorResponse(
          400,
          'INVALID_REQUEST_PARAMETERS',
          'INVALID_PARAMS',
          'after: must be a whole number (the seq of the last event seen)',
        );
      }
      const newer = () => received.filter((event) => event.seq > Number(after ?? 0));
      if (after !== null && newer().length === 0) await nextEvent(LONG_POLL_MS);
      const data = newer();
      return jsonResponse(200, { data, meta: { count: data.length, last_seq: last } });
    },
    /** Answers every request still waiting, so that the server can close at once. */
    close: wake,
  };
}
