/**
 * The service's resources as the client reads them (#35). PLACEHOLDER: each
 * schema requires only its id for now; the resource-schemas work fills them
 * in (what the spec shows required, every other field let through) and makes
 * the sandbox build its answers from them.
 */
import * as z from 'zod';

const resource = () => z.looseObject({ id: z.uuid() });

/** A connected (or disconnected) payroll account. */
export const AccountSchema = resource();
/** An employment record of an account. */
export const EmploymentSchema = resource();
/** An income record of an account. */
export const IncomeSchema = resource();
/** One paystub of an account. */
export const PaystubSchema = resource();
/** One shift of an account (time-and-attendance platforms). */
export const ShiftSchema = resource();
/** A job (a deposit switch or a data sync) on one account. */
export const JobSchema = resource();
/** An employer (List Employers). */
export const EmployerSchema = resource();
/** A payroll platform. */
export const PlatformSchema = resource();
/** A Verification of Employment report. */
export const VoeReportSchema = z.looseObject({});
/** A Verification of Income and Employment report. */
export const VoieReportSchema = z.looseObject({});

export type Account = z.infer<typeof AccountSchema>;
export type Employment = z.infer<typeof EmploymentSchema>;
export type Income = z.infer<typeof IncomeSchema>;
export type Paystub = z.infer<typeof PaystubSchema>;
export type Shift = z.infer<typeof ShiftSchema>;
export type Job = z.infer<typeof JobSchema>;
export type Employer = z.infer<typeof EmployerSchema>;
export type Platform = z.infer<typeof PlatformSchema>;
export type VoeReport = z.infer<typeof VoeReportSchema>;
export type VoieReport = z.infer<typeof VoieReportSchema>;
