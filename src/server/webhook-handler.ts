import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { invalidParamsResponse, jsonResponse, simpleErrorResponse } from './error-body.js';
import { memoryEventIdStore, type EventIdStore } from './event-id-store.js';
import { readJsonBody } from './json-request.js';
import { LoggerSchema, redactingLogger } from './logger.js';
import { describeError } from './service-client.js';
import { urlCarriesSecret } from './url-secret.js';
import { WebhookEnvelopeSchema, WebhookEventSchema, type UnknownWebhookEvent, type WebhookEvent } from './webhook-events.js';

const isFunction = (value: unknown) => typeof value === 'function';
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
    /** Which event ids were handled. Default: the last 10,000 ids, in memory (one process). */
    store: z
      .custom<EventIdStore>(
        (value) => typeof value === 'object' && value !== null && isFunction((value as EventIdStore).has) && isFunction((value as EventIdStore).add),
        { message: 'must be an object with has(eventId) and add(eventId) methods' },
      )
      .optional(),
    /** Cap on one delivery's body, in bytes. */
    maxBodyBytes: z.int().min(256).max(10_485_760).default(262_144),
    /** Defaults to `console`. */
    log: LoggerSchema.optional(),
  })
  .refine((options) => options.secret !== undefined || options.verify !== undefined || options.allowUnverified, {
    path: ['secret'],
    message: 'is required: set secret (or verify), or allowUnverified: true for a local sandbox only',
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

/**
 * Creates the webhook receiver: a Web-standard handler for the service's
 * deliveries (`POST`). For each one it checks authenticity (`secret`, `verify`),
 * reads the envelope and the payload of a known event with zod, runs your
 * callback once per `event_id`, and only then answers `200 { received, duplicate }`.
 * A known event whose payload does not fit goes to `onUnknownEvent`, with a
 * warning. Bad input gets the service's error body: 405, 415, 413, 400 (a
 * malformed envelope), 401 (unverified), 500 (your callback or store threw:
 * the service delivers again).
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
  const { onEvent, onUnknownEvent, secret, verify, maxBodyBytes } = parsed.data;
  const store = parsed.data.store ?? memoryEventIdStore();
  const log = redactingLogger(parsed.data.log ?? console, secret === undefined ? [] : [secret]);
  /** Ids whose callback is running in this process, with whether it succeeded. */
  const inFlight = new Map<string, Promise<Response>>();

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
   * Runs `work` once per id. A copy that arrives while the first is still
   * running waits for it, then answers as a duplicate if it succeeded, or runs
   * the work itself if it failed: answering "duplicate" at once would lose the
   * event when the first then fails on a connection the sender gave up on.
   */
  async function deliverOnce(eventId: string, work: () => void | Promise<void>): Promise<Response> {
    for (let running = inFlight.get(eventId); running; running = inFlight.get(eventId)) await running;
    const attempt = runOnce(eventId, work);
    inFlight.set(eventId, attempt);
    try {
      return await attempt;
    } finally {
      inFlight.delete(eventId);
    }
  }

  async function runOnce(eventId: string, work: () => void | Promise<void>): Promise<Response> {
    try {
      if (await store.has(eventId)) return jsonResponse(200, { received: true, duplicate: true } satisfies WebhookAcknowledgement);
    } catch (error) {
      log.error(`webhook: store.has failed: ${describeError(error)}`, { eventId });
      return internalError('The event could not be checked; deliver it again.');
    }
    try {
      await work();
    } catch (error) {
      log.error(`webhook: the callback failed, answering 500 so that the event is delivered again: ${describeError(error)}`, { eventId });
      return internalError('The event could not be handled; deliver it again.');
    }
    try {
      await store.add(eventId);
    } catch (error) {
      // The work is done; a failed record only means a redelivery may run it again, which beats losing it.
      log.error(`webhook: store.add failed after the callback ran: ${describeError(error)}`, { eventId });
    }
    return jsonResponse(200, { received: true, duplicate: false } satisfies WebhookAcknowledgement);
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
