/**
 * The service's webhook events as the receiving side reads them: the envelope `{ event, event_id, payload }` and one
 * payload schema per event the spec lists. Only what the spec states is required; every other field is typed where we
 * know it (from the sandbox) and optional, because older versions and the real service may leave it out. Payloads are
 * loose objects: the service adds fields over time. A node test parses every event the sandbox sends with these
 * schemas, so the two cannot drift apart unnoticed.
 */
import * as z from 'zod';
import { dateTime, id } from '../wire-fields.js';

const endUserId = () => z.string().min(1).max(255).nullable().optional();

/** `account.added`: sent right after the user logs in through Link. Store `account_id` against your user. */
export const AccountAddedPayloadSchema = z.looseObject({
  account_id: id(),
  /** Added in a later version: older deliveries lack it. */
  platform_name: z.string().optional(),
  platform_id: id().optional(),
  /** Link-initiated events carry the Link token id and the job id; an account made by a sandbox trigger has none. */
  link_token_id: id().nullable().optional(),
  job_id: id().nullable().optional(),
  end_user_id: endUserId(),
});

/** `paystubs.added` and `shifts.added`: new records synced for an account, with the sync's progress. */
export const RecordsAddedPayloadSchema = z.looseObject({
  account_id: id().optional(),
  /** The sync's progress; the spec does not list its values (the sandbox sends `synced`). Added in a later version. */
  sync_status: z.string().min(1).optional(),
  /** Added and deleted records: the spec does not name these fields; these are the sandbox's names. */
  added_count: z.int().min(0).optional(),
  deleted_count: z.int().min(0).optional(),
  job_id: id().nullable().optional(),
  link_token_id: id().nullable().optional(),
  end_user_id: endUserId(),
});

/** `account.monitoring_status.updated`: the account's monitoring status moved (disconnected, needs the user, back). */
export const MonitoringStatusUpdatedPayloadSchema = z.looseObject({
  /** The spec does not show this payload: these are the sandbox's fields, all optional. */
  account_id: id().optional(),
  /** The spec does not list the values; new ones may come, so any string is accepted. */
  monitoring_status: z.string().min(1).optional(),
  previous_monitoring_status: z.string().min(1).optional(),
  connected: z.boolean().optional(),
  updated_at: dateTime().optional(),
  end_user_id: endUserId(),
});

/** `account.disconnected` and `account.reconnected`: deprecated, sent only to integrations on the versions that had them. */
export const AccountConnectionPayloadSchema = z.looseObject({
  /** The spec does not show this payload: these are the sandbox's fields, all optional. */
  account_id: id().optional(),
  end_user_id: endUserId(),
  updated_at: dateTime().optional(),
});

/** One report's availability in `verification_reports.refreshed`. */
export const AvailabilitySchema = z.looseObject({
  status: z.enum(['available', 'unavailable']),
  updated_at: dateTime(),
  refreshed_at: dateTime(),
});

/** `verification_reports.refreshed`: fetch the reports again with `end_user_id`. */
export const VerificationReportsRefreshedPayloadSchema = z.looseObject({
  /** "If provided" when the user connected, says the spec. */
  end_user_id: z.string().min(1).max(255).optional(),
  availability: z.looseObject({ voe: AvailabilitySchema, voie: AvailabilitySchema }),
});

const event = <N extends string, P extends z.ZodType>(name: N, payload: P) => z.object({ event: z.literal(name), event_id: id(), payload });

/** Every event the spec lists, discriminated by `event`. */
export const WebhookEventSchema = z.discriminatedUnion('event', [
  event('account.added', AccountAddedPayloadSchema),
  event('paystubs.added', RecordsAddedPayloadSchema),
  event('shifts.added', RecordsAddedPayloadSchema),
  event('account.monitoring_status.updated', MonitoringStatusUpdatedPayloadSchema),
  event('account.disconnected', AccountConnectionPayloadSchema),
  event('account.reconnected', AccountConnectionPayloadSchema),
  event('verification_reports.refreshed', VerificationReportsRefreshedPayloadSchema),
]);

/** A known event, typed by its name: `if (event.event === 'account.added') event.payload.account_id`. */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
/** The name of a known event. */
export type WebhookEventName = WebhookEvent['event'];

/** The names of the events the spec lists. */
export const WEBHOOK_EVENT_NAMES: readonly WebhookEventName[] = WebhookEventSchema.options.map((option) => option.shape.event.value);

/** The envelope every delivery has; an event whose name we do not know is read this far and no further. */
export const WebhookEnvelopeSchema = z.object({
  event: z.string().min(1).max(200),
  event_id: id(),
  payload: z.record(z.string(), z.unknown()),
});

/** An event the spec did not list when this package was built: acknowledged, and handed over untyped. */
export type UnknownWebhookEvent = z.infer<typeof WebhookEnvelopeSchema>;
