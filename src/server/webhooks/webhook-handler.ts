import * as z from 'zod';
import { ConfigError } from '../config-error.js';
import { invalidParamsResponse, jsonResponse, simpleErrorResponse } from '../error-response.js';
import type { EventClaimStore } from './event-claim-store.js';
import { memoryEventIdStore, type EventIdStore } from './event-id-store.js';
import { readJsonBody } from '../json-request.js';
import { LoggerSchema, redactingLogger } from '../logger.js';
import { describeError } from '../describe-error.js';
import { withinTime } from '../time-bound.js';
import { urlCarriesSecret } from '../url-secret.js';
import { WebhookEnvelopeSchema, WebhookEventSchema, type UnknownWebhookEvent, type WebhookEvent } from './webhook-events.js';

const isFunction = (value: unknown) => typeof value === 'function';
const hasMethods = (value: unknown, names: string[]) =>
  typeof value === 'object' && value !== null && names.every((name) => isFunction((value as Record<string, unknown>)[name]));
const isClaimStore = (value: unknown): value is EventClaimStore => hasMethods(value, ['claim', 'markDone', 'release']);
const isIdStore = (value: unknown): value is EventIdStore => hasMethods(value, ['has', 'add']);

/** Added to the callback's bound to make the default lease: time for the store calls around it. */
const LEASE_MARGIN_MS = 5_000;
/** Bound of one store call: a store that hangs (a client queueing commands while it reconnects) gets a 503. */
const STORE_TIMEOUT_MS = 5_000;

/**
 * A `{ has, add }` store as a claim store, for one process: `has` stands in
 * for the claim (not atomic; the handler's own in-process wait keeps copies
 * apart), `add` marks done, and there is nothing to release.
 */
function claimStoreOf(store: EventClaimStore | EventIdStore): EventClaimStore {
  if (isClaimStore(store)) return store;
  return {
    claim: async (eventId) => ((await store.has(eventId)) ? 'done' : 'claimed'),
    markDone: (eventId) => store.add(eventId),
    release: () => {},
  };
}

/** How one run for an event id ended; copies that waited on it answer from it. */
type Outcome = 'handled' | 'duplicate' | 'failed' | 'timed-out' | 'busy' | 'store-unavailable';

const fn = <T>(message = 'must be a function') => z.custom<T>(isFunction, { message });

/** Options of {@link createWebhookHandler}; checked when the handler is created. */
export const WebhookHandlerOptionsSchema = z
  .object({
    /**
     * Your work for each new event, typed by its name (store the account id,
     * fetch the new paystubs...). Runs before the delivery is acknowledged and
     * once per `event_id`; if it throws, the answer is a 500 and the service
     * delivers the event again. Keep it quick: queue long work.
     */
    onEvent: fn<(event: WebhookEvent, request: Request) => void | Promise<void>>(),
    /**
     * Called, under the same rules, with events this package does not know yet
     * (the service adds events over time). Without it they are acknowledged
     * and logged. Never refused: a refusal would make the service retry an
     * event that no version of this code will understand.
     */
    onUnknownEvent: fn<(event: UnknownWebhookEvent, request: Request) => void | Promise<void>>().optional(),
    /**
     * The shared secret you put in the webhook URL you register with the
     * service, as `?secret=…` or as the last path segment. Deliveries without
     * it get 401. At least 16 characters; generate it (`openssl rand -hex 32`).
     */
    secret: z.string().min(16, 'must be at least 16 characters (generate one: openssl rand -hex 32)').max(512).optional(),
    /**
     * Your own check of a delivery (a signature header, an IP allow-list behind
     * your proxy), given the request and its raw body. Returning false (or
     * throwing) answers 401. Runs after the `secret` check when both are set.
     */
    verify: fn<(request: Request, rawBody: string) => boolean | Promise<boolean>>().optional(),
    /** Accept deliveries that nothing verifies. Only for a local sandbox; required to run with neither `secret` nor `verify`. */
    allowUnverified: z.boolean().default(false),
    /**
     * Who handles which event id. Default: in memory, one process (the last
     * 10,000 ids). With more than one instance, give a shared
     * {@link EventClaimStore}: `redisEventStore` from `payroll-link/server/redis`
     * or `postgresEventStore` from `payroll-link/server/postgres`. A
     * `{ has, add }` {@link EventIdStore} still works, for one process only.
     */
    store: z
      .custom<EventClaimStore | EventIdStore>((value) => isClaimStore(value) || isIdStore(value), {
        message: 'must be an object with claim, markDone and release methods (or, for one process, has and add)',
      })
      .optional(),
    /**
     * Time bound of one run of your callback, in milliseconds. Past it the
     * delivery gets a 503 with `Retry-After: 1` so that the service delivers
     * it again, and one line is logged. Your callback is not stopped (nothing
     * can stop a promise), so its claim is kept until it settles (then marked
     * done, or released if it failed) or until the lease ends: copies get 503
     * `EVENT_IN_PROGRESS` meanwhile instead of running the same work beside
     * it. Make your own work time out before this.
     */
    callbackTimeoutMs: z.int().min(1).max(600_000).default(10_000),
    /**
     * How long a claim holds an event against other instances, in
     * milliseconds; default `callbackTimeoutMs` + 5 s. Longer than the
     * callback's bound, so that a live instance never loses its claim
     * mid-callback; as short as that allows, since an instance that dies
     * mid-callback holds the event that long before a copy can run it.
     */
    leaseMs: z.int().min(1).max(3_600_000).optional(),
    /** Cap on one delivery's body, in bytes. */
    maxBodyBytes: z.int().min(256).max(10_485_760).default(262_144),
    /** Defaults to `console`. */
    log: LoggerSchema.optional(),
  })
  .refine((options) => options.secret !== undefined || options.verify !== undefined || options.allowUnverified, {
    path: ['secret'],
    message: 'is required: set secret (or verify), or allowUnverified: true for a local sandbox only',
  })
  .refine((options) => options.leaseMs === undefined || options.leaseMs > options.callbackTimeoutMs, {
    path: ['leaseMs'],
    message: 'must be longer than callbackTimeoutMs, or a live instance could lose its claim mid-callback',
  });

/** What {@link createWebhookHandler} accepts. */
export type WebhookHandlerOptions = z.input<typeof WebhookHandlerOptionsSchema>;

/** The answer to a delivery the handler accepted. */
export interface WebhookAcknowledgement {
  received: true;
  /** True when this `event_id` was handled before: nothing ran this time. */
  duplicate: boolean;
}

const isKnownName = (name: string) => WebhookEventSchema.options.some((option) => option.shape.event.value === name);

const internalError = (message: string) => simpleErrorResponse(500, 'INTERNAL_ERROR', 'INTERNAL_ERROR', message);
const retryLater = (code: string, message: string, seconds: number) =>
  simpleErrorResponse(503, 'SERVICE_UNAVAILABLE', code, message, { 'retry-after': String(seconds) });

/**
 * Creates the webhook receiver: a Web-standard handler for the service's
 * deliveries (`POST`). For each one it checks authenticity (`secret`, `verify`),
 * reads the envelope and the payload of a known event with zod, runs your
 * callback once per `event_id`, and only then answers `200 { received, duplicate }`.
 * A known event whose payload does not fit goes to `onUnknownEvent`, with a
 * warning. Bad input gets the service's error body: 405, 415, 413, 400 (a
 * malformed envelope), 401 (unverified), 500 (your callback threw: the
 * service delivers again). 503 with `Retry-After` asks for a later delivery:
 * `EVENT_IN_PROGRESS` (another instance holds the event's claim),
 * `CALLBACK_TIMEOUT` (your callback passed `callbackTimeoutMs`),
 * `STORE_UNAVAILABLE` (the store failed or did not answer). An event is never
 * acknowledged unless its callback ran to success.
 *
 * Throws a {@link ConfigError} naming the field when the options are wrong.
 *
 * @example
 * const handleWebhook = createWebhookHandler({
 *   secret: process.env.PAYROLL_WEBHOOK_SECRET!,
 *   onEvent: async (event) => {
 *     if (event.event === 'account.added') await saveAccount(event.payload.account_id);
 *   },
 * });
 */
export function createWebhookHandler(options: WebhookHandlerOptions): (request: Request) => Promise<Response> {
  const parsed = WebhookHandlerOptionsSchema.safeParse(options);
  if (!parsed.success) throw ConfigError.fromZod('webhook handler options', parsed.error);
  const { onEvent, onUnknownEvent, secret, verify, maxBodyBytes, callbackTimeoutMs } = parsed.data;
  const leaseMs = parsed.data.leaseMs ?? callbackTimeoutMs + LEASE_MARGIN_MS;
  const store = claimStoreOf(parsed.data.store ?? memoryEventIdStore());
  const log = redactingLogger(parsed.data.log ?? console, secret === undefined ? [] : [secret]);
  /** Ids being handled in this process, with how that run ends. */
  const inFlight = new Map<string, Promise<Outcome>>();

  async function handle(request: Request): Promise<Response> {
    if (request.method !== 'POST') {
      return simpleErrorResponse(405, 'INVALID_REQUEST', 'METHOD_NOT_ALLOWED', 'Deliver events with POST.', { allow: 'POST' });
    }
    // The secret is checked before the body is read: a stranger's upload costs nothing.
    if (secret !== undefined && !(await urlCarriesSecret(request, secret))) return unverified('the URL does not carry the webhook secret');
    const body = await readJsonBody(request, maxBodyBytes);
    if (!body.ok) return body.response;
    if (verify !== undefined) {
      let verified = false;
      try {
        verified = (await verify(request, body.text)) === true;
      } catch (error) {
        log.error(`webhook: verify threw: ${describeError(error)}`);
      }
      if (!verified) return unverified('verify() refused it');
    }
    const envelope = WebhookEnvelopeSchema.safeParse(body.value);
    if (!envelope.success) return invalidParamsResponse(envelope.error);
    const known = WebhookEventSchema.safeParse(body.value);
    if (!known.success && isKnownName(envelope.data.event)) {
      // A known name whose payload does not fit: the service changed it. Refusing would only make it deliver
      // again and again; handing it over typed would be a lie. So it goes to onUnknownEvent, untyped, and is logged.
      log.warn(`webhook ${envelope.data.event}: payload does not match this version's schema; handed over as unknown`, {
        eventId: envelope.data.event_id,
        problems: known.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
      });
    }
    return deliverOnce(envelope.data.event_id, () =>
      known.success ? onEvent(known.data, request) : handleUnknown(envelope.data, request),
    );
  }

  function unverified(reason: string): Response {
    log.warn(`webhook refused: ${reason}`);
    return simpleErrorResponse(401, 'UNAUTHORIZED', 'WEBHOOK_UNVERIFIED', 'The delivery could not be verified.');
  }

  async function handleUnknown(event: UnknownWebhookEvent, request: Request): Promise<void> {
    if (onUnknownEvent) return onUnknownEvent(event, request);
    log.info(`webhook ${event.event}: an event this version does not know; acknowledged`, { eventId: event.event_id });
  }

  /**
   * Runs `work` once per id. Within this process, a copy that arrives while
   * the first is running waits for it, then answers as a duplicate if it
   * succeeded, or runs the work itself if it failed: answering "duplicate" at
   * once would lose the event when the first then fails on a connection the
   * sender gave up on. Across processes the store's claim decides.
   */
  async function deliverOnce(eventId: string, work: () => void | Promise<void>): Promise<Response> {
    for (let running = inFlight.get(eventId); running; running = inFlight.get(eventId)) {
      const outcome = await running;
      // A failure is worth a try of our own; any other end is this copy's answer too.
      if (outcome !== 'failed') return answer(outcome === 'handled' ? 'duplicate' : outcome);
    }
    const attempt: Promise<Outcome> = runOnce(eventId, work).finally(() => {
      if (inFlight.get(eventId) === attempt) inFlight.delete(eventId);
    });
    inFlight.set(eventId, attempt);
    return answer(await attempt);
  }

  async function runOnce(eventId: string, work: () => void | Promise<void>): Promise<Outcome> {
    const token = crypto.randomUUID();
    const claim = await storeCall('claim', eventId, () => store.claim(eventId, token, leaseMs));
    if (!claim.ok) return 'store-unavailable';
    if (claim.value === 'done') return 'duplicate';
    if (claim.value === 'busy') {
      log.info('webhook: another instance is handling this event; asking for a later delivery', { eventId });
      return 'busy';
    }
    const running = Promise.resolve().then(work);
    let run;
    try {
      run = await withinTime(() => running, callbackTimeoutMs);
    } catch (error) {
      log.error(`webhook: the callback failed, answering 500 so that the event is delivered again: ${describeError(error)}`, { eventId });
      await storeCall('release', eventId, () => store.release(eventId, token));
      return 'failed';
    }
    if (!run.settled) {
      log.error(`webhook: the callback did not settle within ${callbackTimeoutMs} ms (callbackTimeoutMs); answering 503 so that the event is delivered again`, {
        eventId,
      });
      // The claim is kept while the callback may still finish its work, and given up when it settles: done if it
      // succeeded late, released if it failed. Released at once, a copy would run the same work beside it. One that
      // never settles holds the event until the lease ends (callbackTimeoutMs + 5 s by default), not for good.
      running.then(
        () => storeCall('markDone', eventId, () => store.markDone(eventId, token)),
        () => storeCall('release', eventId, () => store.release(eventId, token)),
      );
      return 'timed-out';
    }
    // The work is done; a failed record only means a redelivery may run it again, which beats losing it.
    await storeCall('markDone', eventId, () => store.markDone(eventId, token));
    return 'handled';
  }

  /** One store call, bounded in time; a throw or a hang is logged and reported as not ok. */
  async function storeCall<T>(operation: string, eventId: string, call: () => T | Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
    try {
      const result = await withinTime(call, STORE_TIMEOUT_MS);
      if (result.settled) return { ok: true, value: result.value };
      log.error(`webhook: store.${operation} did not answer within ${STORE_TIMEOUT_MS} ms`, { eventId });
    } catch (error) {
      log.error(`webhook: store.${operation} failed: ${describeError(error)}`, { eventId });
    }
    return { ok: false };
  }

  function answer(outcome: Outcome): Response {
    switch (outcome) {
      case 'handled':
      case 'duplicate':
        return jsonResponse(200, { received: true, duplicate: outcome === 'duplicate' } satisfies WebhookAcknowledgement);
      case 'failed':
        return internalError('The event could not be handled; deliver it again.');
      case 'timed-out':
        return retryLater('CALLBACK_TIMEOUT', 'The event was not handled in time; deliver it again.', 1);
      case 'busy':
        return retryLater('EVENT_IN_PROGRESS', 'Another instance is handling this event; deliver it again later.', Math.ceil(leaseMs / 1000));
      case 'store-unavailable':
        return retryLater('STORE_UNAVAILABLE', 'The event could not be checked; deliver it again.', Math.ceil(STORE_TIMEOUT_MS / 1000));
    }
  }

  return async function handleWebhookRequest(request: Request): Promise<Response> {
    try {
      return await handle(request);
    } catch (error) {
      log.error(`webhook: unexpected failure: ${describeError(error)}`);
      return internalError('The event could not be handled; deliver it again.');
    }
  };
}
