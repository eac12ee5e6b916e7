import * as z from 'zod';
import { invalidParamsAnswer, jsonResponse, type ErrorAnswer } from '../error-response.js';
import type { EventClaimStore } from './event-claim-store.js';
import { asClaimStore, memoryEventIdStore, STORE_METHODS, type EventIdStore } from './event-id-store.js';
import { functionSchema, hasMethods } from '../handler/function-schema.js';
import { BodyTimeoutMsSchema } from '../json-request.js';
import { HttpError } from '../handler/http-error.js';
import { parseOptions, postHandler } from '../handler/post-handler.js';
import { LoggerSchema, redactingLogger } from '../logger.js';
import { describeError } from '../describe-error.js';
import { oncePerEvent, type EventOutcome } from './once-per-event.js';
import { requestsAreIsolated } from '../handler/request-isolation.js';
import { urlCarriesSecret } from '../handler/url-secret.js';
import { WebhookEnvelopeSchema, WebhookEventSchema, type UnknownWebhookEvent, type WebhookEvent } from './webhook-events.js';

/** Added to the callback's bound to make the default lease: time for the store calls around it. */
const LEASE_MARGIN_MS = 5_000;
/** Bound of one store call: a store that hangs (a client queueing commands while it reconnects) gets a 503. */
const STORE_TIMEOUT_MS = 5_000;

/** Options of {@link createWebhookHandler}; checked when the handler is created. */
export const WebhookHandlerOptionsSchema = z
  .object({
    /**
     * Your work for each new event, typed by its name (store the account id, fetch the new paystubs...). Runs before
     * the delivery is acknowledged and once per `event_id`; if it throws, the answer is a 500 and the service delivers
     * the event again. Keep it quick: queue long work.
     */
    onEvent: functionSchema<(event: WebhookEvent, request: Request) => void | Promise<void>>(),
    /**
     * Called, under the same rules, with events this package does not know yet (the service adds events over time).
     * Without it they are acknowledged and logged. Never refused: a refusal would make the service retry an event that
     * no version of this code will understand.
     */
    onUnknownEvent: functionSchema<(event: UnknownWebhookEvent, request: Request) => void | Promise<void>>().optional(),
    /**
     * The shared secret you put in the webhook URL you register with the service, as `?secret=…` or as the last path
     * segment. Deliveries without it get 401. At least 16 characters; generate it (`openssl rand -hex 32`).
     */
    secret: z.string().min(16, 'must be at least 16 characters (generate one: openssl rand -hex 32)').max(512).optional(),
    /**
     * Your own check of a delivery (a signature header, an IP allow-list behind your proxy), given the request and its
     * raw body. Returning false (or throwing) answers 401. Runs after the `secret` check when both are set.
     */
    verify: functionSchema<(request: Request, rawBody: string) => boolean | Promise<boolean>>().optional(),
    /** Accept deliveries that nothing verifies. Only for a local sandbox; required to run with neither `secret` nor `verify`. */
    allowUnverified: z.boolean().default(false),
    /**
     * Who handles which event id. Default: in memory, one process (the last 10,000 ids). With more than one instance,
     * give a shared {@link EventClaimStore}: `redisEventStore` from `payroll-link/server/redis` or `postgresEventStore`
     * from `payroll-link/server/postgres`. A `{ has, add }` {@link EventIdStore} still works, for one process only.
     */
    store: z
      .custom<EventClaimStore | EventIdStore>((value) => hasMethods(value, STORE_METHODS.claim) || hasMethods(value, STORE_METHODS.id), {
        message: 'must be an object with claim, markDone and release methods (or, for one process, has and add)',
      })
      .optional(),
    /**
     * Time bound of one run of your callback, in milliseconds. Past it the delivery gets a 503 with `Retry-After: 1` so
     * that the service delivers it again, and one line is logged. Your callback is not stopped (nothing can stop a
     * promise), so its claim is kept until it settles (then marked done, or released if it failed) or until the lease
     * ends: copies get 503 `EVENT_IN_PROGRESS` meanwhile instead of running the same work beside it. Make your own work
     * time out before this.
     */
    callbackTimeoutMs: z.int().min(1).max(600_000).default(10_000),
    /**
     * How long a claim holds an event against other instances, in milliseconds; default `callbackTimeoutMs` + 5 s.
     * Longer than the callback's bound, so that a live instance never loses its claim mid-callback; as short as that
     * allows, since an instance that dies mid-callback holds the event that long before a copy can run it.
     */
    leaseMs: z.int().min(1).max(3_600_000).optional(),
    /** Cap on one delivery's body, in bytes. */
    maxBodyBytes: z.int().min(256).max(10_485_760).default(262_144),
    /** {@link BodyTimeoutMsSchema}, for one delivery's body (after a 408 the service delivers again). */
    bodyTimeoutMs: BodyTimeoutMsSchema,
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

/** The 500 for a callback that threw, and for any other failure: the service delivers the event again. */
const NOT_HANDLED: ErrorAnswer = {
  status: 500,
  type: 'INTERNAL_ERROR',
  code: 'INTERNAL_ERROR',
  message: 'The event could not be handled; deliver it again.',
};

/** A 503 asking for a later delivery. */
const retryLater = (code: string, message: string, seconds: number): ErrorAnswer => ({
  status: 503,
  type: 'SERVICE_UNAVAILABLE',
  code,
  message,
  headers: { 'retry-after': String(seconds) },
});

/**
 * Creates the webhook receiver: a Web-standard handler for the service's deliveries (`POST`). For each one it checks
 * authenticity (`secret`, `verify`), reads the envelope and the payload of a known event with zod, runs your callback
 * once per `event_id`, and only then answers `200 { received, duplicate }`. A known event whose payload does not fit
 * goes to `onUnknownEvent`, with a warning. Bad input gets the service's error body: 405, 415, 413, 408, 400 (a
 * malformed envelope), 401 (unverified), 500 (your callback threw: the service delivers again). 503 with `Retry-After`
 * asks for a later delivery: `EVENT_IN_PROGRESS` (another instance holds the event's claim), `CALLBACK_TIMEOUT` (your
 * callback passed `callbackTimeoutMs`), `STORE_UNAVAILABLE` (the store failed or did not answer). An event is never
 * acknowledged unless its callback ran to success. See docs/backend.md.
 *
 * Throws a `ConfigError` naming the field when the options are wrong.
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
  const settings = parseOptions(WebhookHandlerOptionsSchema, options, 'webhook handler options');
  const { onEvent, onUnknownEvent, secret, verify, callbackTimeoutMs } = settings;
  const leaseMs = settings.leaseMs ?? callbackTimeoutMs + LEASE_MARGIN_MS;
  const log = redactingLogger(settings.log ?? console, secret === undefined ? [] : [secret]);
  const store = asClaimStore(settings.store ?? memoryEventIdStore());
  const runOnce = oncePerEvent({
    store,
    leaseMs,
    callbackTimeoutMs,
    storeTimeoutMs: STORE_TIMEOUT_MS,
    log,
    isolatedRequests: requestsAreIsolated(),
  });

  // Keyed by the runner's outcomes: an outcome added there without an answer here does not type-check.
  const answers: Record<Exclude<EventOutcome, 'handled' | 'duplicate'>, ErrorAnswer> = {
    failed: NOT_HANDLED,
    'timed-out': retryLater('CALLBACK_TIMEOUT', 'The event was not handled in time; deliver it again.', 1),
    busy: retryLater('EVENT_IN_PROGRESS', 'Another instance is handling this event; deliver it again later.', Math.ceil(leaseMs / 1000)),
    'store-unavailable': retryLater(
      'STORE_UNAVAILABLE',
      'The event could not be checked; deliver it again.',
      Math.ceil(STORE_TIMEOUT_MS / 1000),
    ),
  };
  const answer = (outcome: EventOutcome): Response => {
    if (outcome === 'handled' || outcome === 'duplicate')
      return jsonResponse(200, { received: true, duplicate: outcome === 'duplicate' } satisfies WebhookAcknowledgement);
    // The runner has logged why.
    throw new HttpError(answers[outcome]);
  };

  const unverified = (reason: string): HttpError =>
    new HttpError(
      { status: 401, type: 'UNAUTHORIZED', code: 'WEBHOOK_UNVERIFIED', message: 'The delivery could not be verified.' },
      { level: 'warn', message: `webhook refused: ${reason}` },
    );

  async function handleUnknown(event: UnknownWebhookEvent, request: Request): Promise<void> {
    if (onUnknownEvent) return onUnknownEvent(event, request);
    log.info(`webhook ${event.event}: an event this version does not know; acknowledged`, { eventId: event.event_id });
  }

  return postHandler({
    subject: 'webhook',
    log,
    postOnly: 'Deliver events with POST.',
    maxBodyBytes: settings.maxBodyBytes,
    bodyTimeoutMs: settings.bodyTimeoutMs,
    internalError: NOT_HANDLED,
    // The secret is checked before the body is read: a stranger's upload costs nothing.
    async beforeBody(request) {
      if (secret !== undefined && !(await urlCarriesSecret(request, secret))) throw unverified('the URL does not carry the webhook secret');
    },
    async handle(request, body) {
      if (verify !== undefined) {
        let verified = false;
        try {
          verified = (await verify(request, body.text)) === true;
        } catch (error) {
          log.error(`webhook: verify threw: ${describeError(error)}`);
        }
        if (!verified) throw unverified('verify() refused it');
      }
      const envelope = WebhookEnvelopeSchema.safeParse(body.value);
      if (!envelope.success) throw new HttpError(invalidParamsAnswer(envelope.error));
      const known = WebhookEventSchema.safeParse(body.value);
      if (!known.success && isKnownName(envelope.data.event)) {
        // The service changed a known event: refusing would only make it deliver again and again; handing it over
        // typed would be a lie.
        log.warn(`webhook ${envelope.data.event}: payload does not match this version's schema; handed over as unknown`, {
          eventId: envelope.data.event_id,
          problems: known.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
        });
      }
      const work = () => (known.success ? onEvent(known.data, request) : handleUnknown(envelope.data, request));
      return answer(await runOnce(envelope.data.event_id, work));
    },
  });
}
