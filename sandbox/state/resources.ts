/**
 * The shapes of the sandbox's resources and webhooks, as zod schemas; the TypeScript types are inferred from them.
 * Each is the client's schema of `payroll-link/server` (src/server/client/resource-schemas.ts, the rows of
 * `PAYROLL_API_ENDPOINTS`, webhook-events.ts), made exact: every field required, no other field, and, where this
 * file narrows it, the sandbox's formats and value lists where the spec says "not shown" (its choices, documented
 * in `docs/sandbox.md`). So the sandbox cannot answer what the client would refuse, and tests parse responses with
 * these strict schemas, so a shape cannot drift silently. A resource or an event this file does not narrow is
 * still exact (`exactFormOf`, `SandboxWebhookEventSchema`): a new one needs nothing here.
 */
import { z } from 'zod';
import {
  AccountSchema as ClientAccountSchema,
  EmployerSchema as ClientEmployerSchema,
  EmploymentSchema as ClientEmploymentSchema,
  IncomeSchema as ClientIncomeSchema,
  JobSchema as ClientJobSchema,
  PaystubSchema as ClientPaystubSchema,
  PlatformSchema as ClientPlatformSchema,
  ShiftSchema as ClientShiftSchema,
  VoeReportSchema as ClientVoeReportSchema,
  VoieReportSchema as ClientVoieReportSchema,
  AccountAddedPayloadSchema as ClientAccountAddedPayloadSchema,
  AccountConnectionPayloadSchema as ClientAccountConnectionPayloadSchema,
  AvailabilitySchema as ClientAvailabilitySchema,
  MonitoringStatusUpdatedPayloadSchema as ClientMonitoringStatusUpdatedPayloadSchema,
  RecordsAddedPayloadSchema as ClientRecordsAddedPayloadSchema,
  VerificationReportsRefreshedPayloadSchema as ClientVerificationReportsRefreshedPayloadSchema,
  WebhookEventSchema,
  type WebhookEventName,
} from 'payroll-link/server';
import { dateTime, id } from '../../src/server/wire-fields.js';
import { AllocationSchema as LinkAllocationSchema } from '../api/link-api-schemas.js';

const date = () => z.iso.date();
/** Money: integer minor units (cents), with the currency beside it. */
const money = () => z.number().int();
const currency = () => z.string().regex(/^[A-Z]{3}$/);

/**
 * `Ext`, when each of its fields narrows the field of that name in the client's shape `Base`; else its fields that
 * do not are `never` and the call does not compile: a field the client's schema does not type (add it there,
 * optional), or one whose values the client's schema would refuse. (zod ≥ 4.1 checks the second in `safeExtend`;
 * the package accepts zod 4.0.)
 */
type Narrowing<Base extends z.core.$ZodShape, Ext extends z.core.$ZodLooseShape> = {
  [K in keyof Ext]: K extends keyof Base ? (z.output<Ext[K]> extends z.output<Base[K]> ? Ext[K] : never) : never;
};

/** The exact form of each client schema `exact` narrowed, by the client schema (how a row's answer finds its own). */
const NARROWED = new WeakMap<z.ZodObject, z.ZodObject>();

/** The sandbox's exact form of a client resource: `client`'s fields, narrowed by `narrower`, and no other field. */
const exact = <Client extends z.ZodObject, Ext extends z.core.$ZodLooseShape>(
  client: Client,
  narrower: Ext & Narrowing<Client['shape'], Ext>,
): z.ZodObject<z.core.util.Extend<Client['shape'], Ext>, z.core.$strict> => {
  const form = client.extend(narrower).strict();
  NARROWED.set(client, form);
  return form as never;
};

/** `Client` with every field required and no other: the exact form of a client schema this file does not narrow. */
export type ExactForm<Client extends z.ZodObject> = z.ZodObject<
  { -readonly [K in keyof Client['shape']]: z.ZodNonOptional<Client['shape'][K]> },
  z.core.$strict
>;

/**
 * The schema the sandbox's answers of `answer` (a row's client schema) must fit: its exact form here, or, for one
 * this file does not narrow, the client's with every field required and no other ({@link ExactForm}). An answer
 * that is not an object schema (the wire contract's `LinkToken`) is its own.
 */
export const exactFormOf = (answer: unknown): z.ZodType => {
  if (!(answer instanceof z.ZodObject)) return answer as z.ZodType;
  return NARROWED.get(answer) ?? answer.required().strict();
};

/** payroll or time_and_attendance (spec, "Platform"). */
export const PlatformTypeSchema = ClientPlatformSchema.shape.type;

/** A payroll platform. `supports_percentage_allocation` is our name for the spec's unnamed percentage-deposit field. */
export const PlatformSchema = exact(ClientPlatformSchema, { supports_percentage_allocation: z.boolean() });

/** An employer, reached through one platform. */
export const EmployerSchema = exact(ClientEmployerSchema, {
  name: z.string(),
  industry: z.string(),
  platform_id: id(),
  supports_percentage_allocation: z.boolean(),
});

/**
 * Values of `Account.monitoring_status` the sandbox produces (the spec does not list them):
 * `user_action_required` is the sandbox's re-authentication scenario (spec, "Versioning": "sandbox
 * scenarios for on-demand updates re-authentication"): the account stays connected, but on-demand
 * updates are refused (403 ACCOUNT_REAUTH_REQUIRED) until the user logs in again.
 */
export const MonitoringStatusSchema = z.enum(['active', 'disconnected', 'user_action_required']);

/** A connected (or disconnected) payroll account. */
export const AccountSchema = exact(ClientAccountSchema, {
  platform_id: id(),
  platform_name: z.string(),
  platform_type: PlatformTypeSchema,
  employer_id: id().nullable(),
  employer_name: z.string().nullable(),
  end_user_id: z.string().nullable(),
  link_token_id: id(),
  connected: z.boolean(),
  monitoring_status: MonitoringStatusSchema,
  created_at: dateTime(),
  updated_at: dateTime(),
  disconnected_at: dateTime().nullable(),
});

/** Job names: the deposit switch, and the data syncs. */
export const JobNameSchema = z.enum(['direct_deposit_switch', 'paystubs', 'shifts']);

/** Job states. A job waiting for its allocation in Link is `pending` too. */
export const JobStatusSchema = z.enum(['pending', 'success', 'error']);

/** How much of the pay a deposit switch moves (shared with the Link API, where it is written once). */
export const AllocationSchema = LinkAllocationSchema;

/** Why a job failed. */
export const JobErrorSchema = z.strictObject({ code: z.string(), message: z.string() });

/** A job (deposit switch or data sync) on one account. */
export const JobSchema = exact(ClientJobSchema, {
  name: JobNameSchema,
  status: JobStatusSchema,
  account_id: id(),
  link_token_id: id().nullable(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  error: JobErrorSchema.nullable(),
  created_at: dateTime(),
  updated_at: dateTime(),
  completed_at: dateTime().nullable(),
});

/** Employment (spec fields, plus `job_title`). */
export const EmploymentSchema = exact(ClientEmploymentSchema, {
  job_title: z.string(),
  status: z.enum(['active', 'inactive']),
  start_date: date(),
  created_at: dateTime(),
});

/** An income summary for one account. */
export const IncomeSchema = exact(ClientIncomeSchema, {
  account_id: id(),
  currency: currency(),
  pay_frequency: z.enum(['weekly', 'biweekly', 'semimonthly', 'monthly']),
  annual_gross_pay: money(),
  ytd_gross_pay: money(),
  ytd_net_pay: money(),
  hourly_rate: money().nullable(),
  last_pay_date: date(),
  created_at: dateTime(),
});

/** One deduction line of a paystub. */
export const DeductionSchema = z.strictObject({ name: z.string(), amount: money() });

/** One paystub. */
export const PaystubSchema = exact(ClientPaystubSchema, {
  account_id: id(),
  pay_date: date(),
  period_start: date(),
  period_end: date(),
  currency: currency(),
  gross_pay: money(),
  net_pay: money(),
  deductions: z.array(DeductionSchema),
  created_at: dateTime(),
});

/** One worked shift (time_and_attendance platforms only). */
export const ShiftSchema = exact(ClientShiftSchema, {
  account_id: id(),
  date: date(),
  start_time: dateTime(),
  end_time: dateTime(),
  duration_minutes: z.number().int(),
  role: z.string(),
  location: z.string(),
  created_at: dateTime(),
});

const reportFields = {
  id: id(),
  end_user_id: z.string(),
  generated_at: dateTime(),
  employments: z.array(EmploymentSchema),
};

/** Verification of Employment report. */
export const VoeReportSchema = exact(ClientVoeReportSchema, { ...reportFields, type: z.literal('voe') });

/** Verification of Income and Employment report. */
export const VoieReportSchema = exact(ClientVoieReportSchema, { ...reportFields, type: z.literal('voie'), incomes: z.array(IncomeSchema) });

/** The Availability object of verification_reports.refreshed (spec fields). */
export const AvailabilitySchema = exact(ClientAvailabilitySchema, {});

/** The sync-progress value of paystubs.added / shifts.added (the spec does not list its values). */
export const SyncStatusSchema = z.enum(['synced']);

// The webhook payloads below are the receiver's schemas of `payroll-link/server` (webhook-events.ts), made exact
// the same way as the resources: every field the sandbox sends is required, no other field.

const syncPayload = () =>
  exact(ClientRecordsAddedPayloadSchema, {
    account_id: id(),
    job_id: id(),
    link_token_id: id().nullable(),
    end_user_id: z.string().nullable(),
    sync_status: SyncStatusSchema,
    added_count: z.number().int().min(0),
    deleted_count: z.number().int().min(0),
  });

/** Payload of the deprecated account.disconnected / account.reconnected (the spec does not show it). */
const legacyAccountPayload = () =>
  exact(ClientAccountConnectionPayloadSchema, {
    account_id: id(),
    end_user_id: z.string().nullable(),
    updated_at: dateTime(),
  });

/** The receiver's schema of the event `N` (webhook-events.ts): its envelope and payload. */
type ReceiverEvent<N extends WebhookEventName> = Extract<
  (typeof WebhookEventSchema.options)[number],
  { shape: { event: z.ZodLiteral<N> } }
>;

/** The payloads this file narrows, by event: for an event not here, the sandbox sends its receiver schema's exact form. */
const NARROWED_PAYLOADS = {
  'account.added': exact(ClientAccountAddedPayloadSchema, {
    platform_id: id(),
    platform_name: z.string(),
    link_token_id: id(),
    end_user_id: z.string().nullable(),
    job_id: id(),
  }),
  'paystubs.added': syncPayload(),
  'shifts.added': syncPayload(),
  'verification_reports.refreshed': exact(ClientVerificationReportsRefreshedPayloadSchema, {
    end_user_id: z.string(),
    availability: exact(ClientVerificationReportsRefreshedPayloadSchema.shape.availability, {
      voe: AvailabilitySchema,
      voie: AvailabilitySchema,
    }),
  }),
  'account.monitoring_status.updated': exact(ClientMonitoringStatusUpdatedPayloadSchema, {
    account_id: id(),
    end_user_id: z.string().nullable(),
    connected: z.boolean(),
    monitoring_status: MonitoringStatusSchema,
    previous_monitoring_status: MonitoringStatusSchema,
    updated_at: dateTime(),
  }),
  // Deprecated (spec: replaced by account.monitoring_status.updated): sent instead of it, and only,
  // when the sandbox sends webhooks as a version that had them (`webhookVersion` ≤ 2021-07-28).
  'account.disconnected': legacyAccountPayload(),
  'account.reconnected': legacyAccountPayload(),
} satisfies { readonly [N in WebhookEventName]?: z.ZodObject };

/** The envelope of the event `N` as the sandbox sends it, its payload exact. */
type SandboxEventSchema<N extends WebhookEventName> = z.ZodObject<
  {
    event: z.ZodLiteral<N>;
    event_id: ReturnType<typeof id>;
    payload: N extends keyof typeof NARROWED_PAYLOADS ? (typeof NARROWED_PAYLOADS)[N] : ExactForm<ReceiverEvent<N>['shape']['payload']>;
  },
  z.core.$strict
>;
type AnySandboxEventSchema = { [N in WebhookEventName]: SandboxEventSchema<N> }[WebhookEventName];
const narrowedPayloads: { readonly [N in WebhookEventName]?: z.ZodObject } = NARROWED_PAYLOADS;

/**
 * Every webhook the sandbox sends, with its payload (envelope `{ event, event_id, payload }`): one for each event of
 * the receiver's schema (`WebhookEventSchema` of `payroll-link/server`), so a new event there is one here too.
 */
export const SandboxWebhookEventSchema = z.discriminatedUnion(
  'event',
  WebhookEventSchema.options.map(({ shape }) => {
    const name = shape.event.value;
    const payload = narrowedPayloads[name] ?? exactFormOf(shape.payload);
    return z.strictObject({ event: z.literal(name), event_id: id(), payload });
  }) as unknown as [AnySandboxEventSchema, ...AnySandboxEventSchema[]],
);

export type PlatformType = z.infer<typeof PlatformTypeSchema>;
export type Platform = z.infer<typeof PlatformSchema>;
export type Employer = z.infer<typeof EmployerSchema>;
export type MonitoringStatus = z.infer<typeof MonitoringStatusSchema>;
export type Account = z.infer<typeof AccountSchema>;
export type JobName = z.infer<typeof JobNameSchema>;
export type JobStatus = z.infer<typeof JobStatusSchema>;
export type Allocation = z.infer<typeof AllocationSchema>;
export type Job = z.infer<typeof JobSchema>;
export type Employment = z.infer<typeof EmploymentSchema>;
export type Income = z.infer<typeof IncomeSchema>;
export type Paystub = z.infer<typeof PaystubSchema>;
export type Shift = z.infer<typeof ShiftSchema>;
export type VoeReport = z.infer<typeof VoeReportSchema>;
export type VoieReport = z.infer<typeof VoieReportSchema>;
export type Availability = z.infer<typeof AvailabilitySchema>;
/**
 * A webhook as the sandbox sends it: the envelope `{ event, event_id, payload }`, one member per event, each payload
 * strict (the sender's exact shape). Not `WebhookEvent` of `payroll-link/server`, the receiver's loose schema that
 * also lets through fields a later service version adds.
 */
export type SandboxWebhookEvent = z.infer<typeof SandboxWebhookEventSchema>;
/** The name of a webhook event the sandbox sends. */
export type SandboxWebhookEventName = SandboxWebhookEvent['event'];
/** The payload of the sandbox's webhook event `N`. */
export type SandboxWebhookPayload<N extends SandboxWebhookEventName> = Extract<SandboxWebhookEvent, { event: N }>['payload'];
