/**
 * The service's resources as the client reads them (#35), written once: the client checks every answer with these
 * schemas and the sandbox builds its answers from them (sandbox/state/resources.ts narrows each one with
 * `.extend(…).strict()`), so the two cannot drift.
 *
 * What a schema requires is what the spec shows: object ids (UUIDs, spec "Resources and their fields", convention 1),
 * the Employment and Platform fields of its tables. Everything else the service may send passes through untouched
 * (`looseObject`). The fields only the sandbox has (its choices where the spec says "not shown") are optional here,
 * typed by their JSON type only, never by the sandbox's formats or value lists: an answer of the real service must not
 * fail because our sandbox invented a field, a format or a value.
 */
import * as z from 'zod';
import { id } from '../wire-fields.js';
import type { KnownFields } from './known-fields.js';

/** A field the sandbox has and the spec does not show: optional, any string. */
const optionalString = () => z.string().optional();
const optionalNullableString = () => z.string().nullable().optional();
/** Money, as the sandbox sends it: minor units (spec convention 3), the currency in a field beside it. */
const amount = () => z.number().optional();

/** The schema of {@link Platform}. */
export const PlatformSchema = z.looseObject({
  id: id(),
  name: z.string(),
  type: z.enum(['payroll', 'time_and_attendance']),
  supports_percentage_allocation: z.boolean().optional(),
});

/** The schema of {@link Employer}. */
export const EmployerSchema = z.looseObject({
  id: id(),
  name: optionalString(),
  industry: optionalString(),
  platform_id: optionalString(),
  supports_percentage_allocation: z.boolean().optional(),
});

/** The schema of {@link Account}. */
export const AccountSchema = z.looseObject({
  id: id(),
  monitoring_status: z.string().optional(),
  connected: z.boolean().optional(),
  platform_id: optionalString(),
  platform_name: optionalString(),
  platform_type: optionalString(),
  employer_id: optionalNullableString(),
  employer_name: optionalNullableString(),
  end_user_id: optionalNullableString(),
  link_token_id: optionalString(),
  created_at: optionalString(),
  updated_at: optionalString(),
  disconnected_at: optionalNullableString(),
});

/** The schema of {@link Job}. */
export const JobSchema = z.looseObject({
  id: id(),
  name: optionalString(),
  status: optionalString(),
  account_id: optionalString(),
  link_token_id: optionalNullableString(),
  params: z.record(z.string(), z.unknown()).optional(),
  error: z.looseObject({ code: optionalString(), message: optionalString() }).nullable().optional(),
  created_at: optionalString(),
  updated_at: optionalString(),
  completed_at: optionalNullableString(),
});

/** The schema of {@link Employment}. */
export const EmploymentSchema = z.looseObject({
  id: id(),
  employer_name: z.string(),
  status: z.string(),
  start_date: z.string(),
  account_id: id(),
  created_at: z.string(),
  job_title: optionalString(),
});

/** The schema of {@link Income}. */
export const IncomeSchema = z.looseObject({
  id: id(),
  account_id: optionalString(),
  currency: optionalString(),
  pay_frequency: optionalString(),
  annual_gross_pay: amount(),
  ytd_gross_pay: amount(),
  ytd_net_pay: amount(),
  hourly_rate: z.number().nullable().optional(),
  last_pay_date: optionalString(),
  created_at: optionalString(),
});

/** The schema of {@link Paystub}. */
export const PaystubSchema = z.looseObject({
  id: id(),
  account_id: optionalString(),
  pay_date: optionalString(),
  period_start: optionalString(),
  period_end: optionalString(),
  currency: optionalString(),
  gross_pay: amount(),
  net_pay: amount(),
  deductions: z.array(z.looseObject({ name: optionalString(), amount: amount() })).optional(),
  created_at: optionalString(),
});

/** The schema of {@link Shift}. */
export const ShiftSchema = z.looseObject({
  id: id(),
  account_id: optionalString(),
  date: optionalString(),
  start_time: optionalString(),
  end_time: optionalString(),
  duration_minutes: z.number().optional(),
  role: optionalString(),
  location: optionalString(),
  created_at: optionalString(),
});

/**
 * The fields of both reports. The spec shows no field of a report body, so nothing is required, not even in the
 * employments it lists (`partial`): a report of the real service may describe an employment otherwise.
 */
const reportFields = {
  id: optionalString(),
  type: optionalString(),
  end_user_id: optionalString(),
  generated_at: optionalString(),
  employments: z.array(EmploymentSchema.partial()).optional(),
};

/** The schema of {@link VoeReport}. */
export const VoeReportSchema = z.looseObject(reportFields);
/** The schema of {@link VoieReport}. */
export const VoieReportSchema = z.looseObject({ ...reportFields, incomes: z.array(IncomeSchema.partial()).optional() });

/**
 * A payroll platform: `id`, `name` and `type` (`payroll` or `time_and_attendance`) are the spec's;
 * `supports_percentage_allocation` is the sandbox's.
 */
export type Platform = KnownFields<z.infer<typeof PlatformSchema>>;
/**
 * An employer (List Employers): its `id`, and the other fields the schema names; the spec shows none of its fields
 * but the id.
 */
export type Employer = KnownFields<z.infer<typeof EmployerSchema>>;
/**
 * A connected (or disconnected) payroll account: its `id`, and the other fields the schema names. The spec names
 * `monitoring_status` as a field (its values are not shown: any string), but lists it among the additive changes,
 * so an answer under an older version may lack it: optional, like `connected`, a filter whose type is not shown.
 */
export type Account = KnownFields<z.infer<typeof AccountSchema>>;
/**
 * A job (a deposit switch or a data sync) on one account: its `id`, and the other fields the schema names
 * (`status`, `name`, …). `jobs.wait` reads its `status` (`pending` until it ends).
 */
export type Job = KnownFields<z.infer<typeof JobSchema>>;
/**
 * An employment record of an account: every field of the spec's table is required (`employer_name`, `status`,
 * `start_date`, `account_id`, …); `job_title` is the sandbox's.
 */
export type Employment = KnownFields<z.infer<typeof EmploymentSchema>>;
/**
 * An income record of an account: its `id`, and the other fields the schema names (`annual_gross_pay`, `currency`,
 * …); the spec shows none of its fields.
 */
export type Income = KnownFields<z.infer<typeof IncomeSchema>>;
/**
 * One paystub of an account: its `id`, and the other fields the schema names (`pay_date`, `gross_pay`,
 * `deductions`, …); the spec shows none of its fields.
 */
export type Paystub = KnownFields<z.infer<typeof PaystubSchema>>;
/**
 * One shift of an account (time-and-attendance platforms): its `id`, and the other fields the schema names; the
 * spec shows none of its fields.
 */
export type Shift = KnownFields<z.infer<typeof ShiftSchema>>;
/** A Verification of Employment report (`verificationReports.voe`): the fields the schema names. */
export type VoeReport = KnownFields<z.infer<typeof VoeReportSchema>>;
/** A Verification of Income and Employment report (`verificationReports.voie`): the fields the schema names. */
export type VoieReport = KnownFields<z.infer<typeof VoieReportSchema>>;
