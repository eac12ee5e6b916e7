/**
 * `webhookRequest()`: the request the service sends to a webhook receiver, for an app's unit test of its receiver
 * (`createWebhookHandler` from `payroll-link/server`, or its own): the envelope `{ event, event_id, payload }` of the
 * spec's Events section, checked by the receiver's own schema, so that a test never posts what the service would not.
 */
import type * as z from 'zod';
import { WebhookEventSchema, type WebhookEventName } from '../server/webhooks/webhook-events.js';
import { ScriptError } from './script-error.js';

/** The payload of event `N`, as the receiver's schema takes it (its required fields required). */
export type WebhookRequestPayload<N extends WebhookEventName> = z.input<
  Extract<(typeof WebhookEventSchema.options)[number], { shape: { event: z.ZodLiteral<N> } }>['shape']['payload']
>;

/** Options of {@link webhookRequest}. */
export interface WebhookRequestOptions {
  /** The delivery's `event_id`. Default: a new UUID. The same one again is the same event delivered twice (a retry). */
  eventId?: string;
}

/**
 * The `Request` the service would send to `receiverUrl` (the URL as you registered it, its `?secret=` included) for
 * `event` with `payload`: a JSON POST with a fresh `event_id` unless `eventId` is given. A payload the receiver's
 * schema refuses (a missing `account_id`, a name the spec does not list) throws a {@link ScriptError} saying which
 * field, before any request exists.
 *
 * @example
 * ```ts
 * const request = webhookRequest('https://app.test/api/webhooks?secret=test-secret-0123456789', 'account.added', {
 *   account_id: '3f1a0b62-8e4d-4c1b-9a57-6b2d8e0f4c19',
 * });
 * const response = await handler(request); // 200 { received: true }
 * ```
 */
export function webhookRequest<N extends WebhookEventName>(
  receiverUrl: string | URL,
  event: N,
  payload: WebhookRequestPayload<N>,
  options: WebhookRequestOptions = {},
): Request {
  const url = httpUrl(receiverUrl);
  if (!url) throw new ScriptError(`webhookRequest: ${String(receiverUrl)} is not an http(s) URL.`);
  const delivery = { event, event_id: options.eventId ?? crypto.randomUUID(), payload };
  const checked = WebhookEventSchema.safeParse(delivery);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => `${issue.path.join('.') || '(envelope)'}: ${issue.message}`).join('; ');
    throw new ScriptError(`webhookRequest: ${event} does not fit the receiver's schema: ${problems}`);
  }
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(delivery),
  });
}

/** `url` as an http(s) URL, or null. */
function httpUrl(url: string | URL): URL | null {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) ? parsed : null;
  } catch {
    return null;
  }
}
