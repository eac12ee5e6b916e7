/**
 * What the service's API specification promises of each answer and each webhook payload, field by field: the one
 * table behind `startSandbox({ fields: 'spec' })` (`--fields spec`), where the service API and the webhooks carry
 * these fields and no other (`spec-projection.ts` applies it; the sandbox's state stays whole).
 *
 * Why: the sandbox answers more than the spec shows (an account's `end_user_id` and `link_token_id`, a job's
 * `status`, …). Code that relies on such a field passes every test against the full sandbox, then fails open
 * against a service that does not send it.
 *
 * Each number is a line of the spec (`payroll-service-api.md`): the line that names the field; each resource and
 * payload also gives the line that describes it, which says "not shown" where it keeps nothing. What each
 * endpoint answers comes from its row of `PAYROLL_API_ENDPOINTS` (the schema it answers with, a resource's
 * `schema` here; `one-or-nothing` where the spec shows no answer), so a new endpoint of a known resource needs
 * nothing here. A resource or an event the table does not list keeps the fields its package schema requires
 * ({@link specFieldsOfAnswer}, {@link specFieldsOfEvent}): those schemas require what the spec shows and nothing
 * else (resource-schemas.ts, webhook-events.ts), so a new one needs nothing here either; list it to cite the spec's
 * lines, or to keep more (a field the spec names that the package leaves optional, as an account's
 * `monitoring_status`, or one kept only `when`). A test reads the spec and checks that each line names what
 * cites it (test/node/sandbox-spec-fields-table.test.ts).
 */
import { z } from 'zod';
import {
  AccountSchema,
  EmployerSchema,
  EmploymentSchema,
  IncomeSchema,
  JobSchema,
  PAYROLL_API_ENDPOINTS,
  PaystubSchema,
  PlatformSchema,
  ShiftSchema,
  VoeReportSchema,
  VoieReportSchema,
  WebhookEventSchema,
} from 'payroll-link/server';
import type { SandboxWebhookEventName } from './resources.js';

/** Which fields the service API's answers and the webhooks carry: all the sandbox has (`full`), or only the spec's. */
export const SandboxFieldsSchema = z.enum(['full', 'spec']);

/** A value of {@link SandboxFieldsSchema}. */
export type SandboxFields = z.infer<typeof SandboxFieldsSchema>;

/**
 * One kept field: the spec line that names it; for an object, that line and what the object keeps; or a field the
 * spec promises only in some payloads, kept `when` its value is `set` (not null) or the event is `link-initiated`.
 */
export type SpecField =
  number | { readonly line: number; readonly fields: SpecFieldTable } | { readonly line: number; readonly when: 'set' | 'link-initiated' };

/** The fields an object keeps, by name. */
export interface SpecFieldTable {
  readonly [field: string]: SpecField;
}

/** A resource or a payload: the spec line that describes it, and the fields it keeps. */
export interface SpecShape {
  readonly line: number;
  readonly fields: SpecFieldTable;
}

/** A resource: also the client's schema of it, which the rows of `PAYROLL_API_ENDPOINTS` that answer it name (`answer`). */
export interface SpecResource extends SpecShape {
  readonly schema: unknown;
}

/** Convention 1, "Object ids are UUIDs": all a resource keeps whose fields the spec does not show. */
const ID = 26;

/** The Availability object of verification_reports.refreshed. */
const AVAILABILITY = { status: 189, updated_at: 190, refreshed_at: 191 } as const;

/**
 * paystubs.added and shifts.added: sync_status and the added and deleted records (the spec names neither field:
 * these are the package's names). "Link-initiated events carry the Link token id and job id" (204): the sync
 * Link's login started, not an on-demand one, which names no Link token.
 */
const RECORDS_ADDED = {
  sync_status: 198,
  added_count: 198,
  deleted_count: 198,
  link_token_id: { line: 204, when: 'link-initiated' },
  job_id: { line: 204, when: 'link-initiated' },
} as const;

/** Each resource an endpoint answers, by the name of its type in `payroll-link/server`. */
const RESOURCES = {
  LinkToken: { schema: PAYROLL_API_ENDPOINTS.linkTokens.create.answer, line: 38, fields: { id: 42, token: 43, expires: 44, mode: 45 } },
  Employer: { schema: EmployerSchema, line: 78, fields: { id: ID } },
  Platform: { schema: PlatformSchema, line: 58, fields: { id: 62, name: 63, type: 64 } },
  // Both are list filters (124-129), so they are fields of the account.
  Account: { schema: AccountSchema, line: 68, fields: { id: 70, monitoring_status: 71, connected: 72 } },
  Employment: {
    schema: EmploymentSchema,
    line: 47,
    fields: { id: 51, employer_name: 52, status: 53, start_date: 54, account_id: 55, created_at: 56 },
  },
  Income: { schema: IncomeSchema, line: 79, fields: { id: ID } },
  Paystub: { schema: PaystubSchema, line: 79, fields: { id: ID } },
  Shift: { schema: ShiftSchema, line: 79, fields: { id: ID } },
  Job: { schema: JobSchema, line: 77, fields: { id: 77 } },
  // "fields of the report body: not shown" (also 140, "Response body: not shown").
  VoeReport: { schema: VoeReportSchema, line: 80, fields: {} },
  VoieReport: { schema: VoieReportSchema, line: 80, fields: {} },
} as const satisfies Record<string, SpecResource>;

/** A resource of {@link SPEC_FIELDS}. */
export type SpecResourceName = keyof typeof RESOURCES;

/**
 * The table: what each resource keeps (each item of a list alike), and what each webhook payload keeps. Envelopes
 * (`data`, `meta.count`, `meta.next_cursor`; `event`, `event_id`, `payload`) and error bodies stay whole.
 */
export const SPEC_FIELDS = {
  resources: RESOURCES,
  events: {
    'account.added': {
      line: 197,
      fields: {
        account_id: 197,
        platform_name: 197,
        link_token_id: 197,
        job_id: 204,
        // "an end_user_id supplied at connection time is echoed in events": none supplied, none echoed.
        end_user_id: { line: 10, when: 'set' },
      },
    },
    'paystubs.added': { line: 198, fields: RECORDS_ADDED },
    'shifts.added': { line: 199, fields: RECORDS_ADDED },
    'verification_reports.refreshed': {
      line: 174,
      fields: {
        end_user_id: 180,
        availability: { line: 181, fields: { voe: { line: 182, fields: AVAILABILITY }, voie: { line: 183, fields: AVAILABILITY } } },
      },
    },
    'account.monitoring_status.updated': { line: 200, fields: {} },
    'account.disconnected': { line: 201, fields: {} },
    'account.reconnected': { line: 202, fields: {} },
  } satisfies { readonly [N in SandboxWebhookEventName]?: SpecShape },
} as const;

/** The "line" of a field the table does not cite: kept because its package schema requires it. */
const REQUIRED_BY_SCHEMA = 0;

/** The fields an object schema requires, each kept whole: what the spec shows of a shape the table does not list. */
const requiredBy = (schema: unknown): SpecFieldTable =>
  schema instanceof z.ZodObject
    ? Object.fromEntries(
        Object.entries(schema.shape as Record<string, z.ZodType>)
          .filter(([, field]) => !field.safeParse(undefined).success)
          .map(([name]) => [name, REQUIRED_BY_SCHEMA]),
      )
    : {};

const resources: readonly SpecResource[] = Object.values(RESOURCES);
const events: { readonly [N in SandboxWebhookEventName]?: SpecShape } = SPEC_FIELDS.events;

/** What the spec promises of each item a row answers (its `answer` schema): the table's entry, or what the schema requires. */
export const specFieldsOfAnswer = (answer: unknown): SpecFieldTable =>
  resources.find((resource) => resource.schema === answer)?.fields ?? requiredBy(answer);

/** What the spec promises of the payload of the event `name`: the table's entry, or what its receiver schema requires. */
export const specFieldsOfEvent = (name: SandboxWebhookEventName): SpecFieldTable =>
  events[name]?.fields ?? requiredBy(WebhookEventSchema.options.find((option) => option.shape.event.value === name)?.shape.payload);
