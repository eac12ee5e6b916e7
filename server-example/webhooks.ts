import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { invalidParamsResponse, jsonResponse, simpleErrorResponse } from './error-body.js';
import { readJsonBody } from './json-request.js';
import { LoggerSchema } from './logger.js';

/**
 * The event envelope (spec, "Events"). Extra top-level fields are tolerated
 * (the service adds fields over versions); the three known ones are checked.
 */
export const WebhookEventSchema = z.object({
  event: z.string().min(1).max(200),
  event_id: z.uuid(),
  payload: z.record(z.string(), z.unknown()),
});

/** What the example reads from `account.added`: the ids to store against your own user. */
export const AccountAddedPayloadSchema = z.looseObject({
  account_id: z.uuid(),
  link_token_id: z.uuid().optional(),
  platform_name: z.string().optional(),
  end_user_id: z.string().optional(),
  job_id: z.uuid().optional(),
});

/** An event as delivered. */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
/** An event as kept for the demo page, with the time it arrived. */
export type ReceivedWebhook = WebhookEvent & { received_at: string };

/** Options of {@link createWebhookReceiver}. */
export const WebhookReceiverOptionsSchema = z.object({
  /** Defaults to `console`. */
  log: LoggerSchema.optional(),
  /** How many event ids to remember for de-duplication; the oldest are forgotten first. */
  rememberIds: z.int().min(1).max(1_000_000).default(10_000),
  /** How many events to keep for `GET` (the demo page's list). */
  keepEvents: z.int().min(0).max(10_000).default(50),
  /** Cap on one delivery's body, in bytes. */
  maxBodyBytes: z.int().min(256).max(10_485_760).default(65_536),
  /**
   * Your work for each new event (store the account id against your user...),
   * called once per `event_id`. If it throws, the delivery is answered 500 and
   * the id forgotten, so the service's retry is handled afresh. Keep it quick:
   * queue long work.
   */
  onEvent: z
    .custom<(event: WebhookEvent) => void | Promise<void>>((value) => typeof value === 'function', { message: 'must be a function' })
    .optional(),
});

/** What {@link createWebhookReceiver} accepts; every field may be left out. */
export type WebhookReceiverOptions = z.input<typeof WebhookReceiverOptionsSchema>;

/** The receiver: one Web-standard handler for `POST` (deliveries) and `GET` (recent events), and the events themselves. */
export interface WebhookReceiver {
  handler: (request: Request) => Promise<Response>;
  /** The last `keepEvents` distinct events, oldest first. */
  events(): ReceivedWebhook[];
}

/**
 * Creates a webhook receiver: `POST` validates the envelope, runs `onEvent`,
 * answers 200, and handles each `event_id` only once (the service may deliver an
 * event more than once, e.g. when a retry crosses our answer); `account.added` is
 * logged with its `account_id` and `link_token_id`, the ids a real backend
 * stores against its user. `GET` lists the recent events, for the demo page.
 *
 * The spec does not show how deliveries are signed, so nothing is verified
 * here: a real backend must check whatever authenticity the service offers.
 */
export function createWebhookReceiver(options: WebhookReceiverOptions = {}): WebhookReceiver {
  const parsed = WebhookReceiverOptionsSchema.safeParse(options);
  if (!parsed.success) throw ConfigError.fromZod('webhook receiver options', parsed.error);
  const { rememberIds, keepEvents, maxBodyBytes, onEvent } = parsed.data;
  const log = parsed.data.log ?? console;
  // A Set iterates in insertion order, so its first entry is the oldest id: a bounded FIFO memory.
  const seen = new Set<string>();
  /** Ids whose `onEvent` is running, with whether it succeeded. */
  const inFlight = new Map<string, Promise<boolean>>();
  const recent: ReceivedWebhook[] = [];

  function remember(id: string): void {
    seen.add(id);
    if (seen.size > rememberIds) seen.delete(seen.values().next().value!);
  }

  function receive(event: WebhookEvent): void {
    recent.push({ ...event, received_at: new Date().toISOString() });
    if (recent.length > keepEvents) recent.splice(0, recent.length - keepEvents);
    if (event.event !== 'account.added') {
      log.info(`webhook ${event.event}`, { eventId: event.event_id });
      return;
    }
    const payload = AccountAddedPayloadSchema.safeParse(event.payload);
    if (!payload.success) {
      log.warn('webhook account.added without a valid account_id', { eventId: event.event_id });
      return;
    }
    log.info('webhook account.added: store these ids against your user', {
      eventId: event.event_id,
      accountId: payload.data.account_id,
      linkTokenId: payload.data.link_token_id ?? null,
      platformName: payload.data.platform_name ?? null,
      endUserId: payload.data.end_user_id ?? null,
    });
  }

  async function handler(request: Request): Promise<Response> {
    if (request.method === 'GET') return jsonResponse(200, { data: recent, meta: { count: recent.length } });
    if (request.method !== 'POST') {
      return simpleErrorResponse(405, 'INVALID_REQUEST', 'METHOD_NOT_ALLOWED', 'Use POST to deliver, GET to list.', {
        allow: 'GET, POST',
      });
    }
    const body = await readJsonBody(request, maxBodyBytes);
    if (!body.ok) return body.response;
    const event = WebhookEventSchema.safeParse(body.value);
    if (!event.success) return invalidParamsResponse(event.error);
    return deliver(event.data);
  }

  /**
   * Handles one delivery. A copy that arrives while the first is still being
   * handled waits for it: if the first succeeded the copy is a duplicate, if it
   * failed the copy handles the event itself. Answering "duplicate" at once
   * would lose the event when the first then fails on a connection the sender
   * has already given up on.
   */
  async function deliver(event: WebhookEvent): Promise<Response> {
    const id = event.event_id;
    const running = inFlight.get(id);
    if (running) {
      await running;
      return deliver(event);
    }
    if (seen.has(id)) {
      log.info(`webhook ${event.event} again: already handled, ignored`, { eventId: id });
      return jsonResponse(200, { received: true, duplicate: true });
    }
    remember(id);
    const attempt = handleOnce(event);
    inFlight.set(id, attempt);
    const handled = await attempt;
    inFlight.delete(id);
    if (!handled) {
      return simpleErrorResponse(500, 'INTERNAL_ERROR', 'INTERNAL_ERROR', 'The event could not be handled; deliver it again.');
    }
    receive(event);
    return jsonResponse(200, { received: true, duplicate: false });
  }

  /** Runs `onEvent`; on failure forgets the id, so that the next delivery handles the event afresh. */
  async function handleOnce(event: WebhookEvent): Promise<boolean> {
    try {
      await onEvent?.(event);
      return true;
    } catch (error) {
      seen.delete(event.event_id);
      log.error(`webhook ${event.event}: onEvent failed, answering 500 so that it is delivered again`, {
        eventId: event.event_id,
        error: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
  }

  return { handler, events: () => [...recent] };
}
