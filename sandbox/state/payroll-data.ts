/**
 * Mock payroll data for one account: employment, an income summary, and a list for each kind of records a row of
 * `PAYROLL_API_ENDPOINTS` reads (`GET /v1/accounts/{id}/<kind>`): paystubs (payroll platforms), shifts
 * (time_and_attendance platforms). Seeded by the account id, so the same account always has the same data.
 */
import type { PAYROLL_API_ENDPOINTS } from 'payroll-link/server';
import type { z } from 'zod';
import { seededRandom } from './random.js';
import type { Account, Employment, ExactForm, Income, Paystub, Shift } from './resources.js';
import { serviceDate, serviceDateTime } from './service-time.js';

type AccountRows = typeof PAYROLL_API_ENDPOINTS.accounts;

/** The kinds of an account's records: each paginated read of the rows at `/v1/accounts/{id}/<kind>`, by its name. */
export type RecordKind = {
  [K in keyof AccountRows & string]: AccountRows[K] extends { returns: 'list'; path: `/v1/accounts/{id}/${K}` } ? K : never;
}[keyof AccountRows & string];

/** Everything readable for one account; a list of each kind of records, its row's answer made exact (a kind without one is a type error). */
export type PayrollData = { readonly employment: Employment; readonly income: Income } & {
  readonly [K in RecordKind]: readonly z.output<ExactForm<AccountRows[K]['answer']>>[];
};

const DAY_MS = 86_400_000;
const JOB_TITLES = ['Associate', 'Shift Supervisor', 'Registered Nurse', 'Warehouse Lead', 'Analyst', 'Driver', 'Technician', 'Cashier'];
const ROLES = ['Cashier', 'Stocker', 'Line Cook', 'Server', 'Picker', 'Cleaner'];
const LOCATIONS = ['Store 12', 'Store 31', 'Warehouse B', 'Downtown', 'Airport', 'North Plaza'];
/** Paystubs per payroll account and shifts per time-tracking account. */
export const PAYSTUB_COUNT = 12;
export const SHIFT_COUNT = 20;

/** Generates the data of `account`, dated back from `now`. */
export const generatePayrollData = (account: Account, now: Date): PayrollData => {
  const random = seededRandom(account.id);
  const createdAt = serviceDateTime(now);
  const employerName = account.employer_name ?? `${account.platform_name} customer`;
  const startDate = new Date(now.getTime() - random.int(400, 3000) * DAY_MS);
  const employment: Employment = {
    id: random.uuid(),
    employer_name: employerName,
    job_title: random.pick(JOB_TITLES),
    status: 'active',
    start_date: serviceDate(startDate),
    account_id: account.id,
    created_at: createdAt,
  };

  const hourlyRate = random.int(1500, 4500); // cents per hour
  const paystubs: Paystub[] = [];
  const shifts: Shift[] = [];
  let ytdGross = 0;
  let ytdNet = 0;
  const yearStart = Date.UTC(now.getUTCFullYear(), 0, 1);
  let lastPay = new Date(now.getTime() - random.int(1, 13) * DAY_MS);

  if (account.platform_type === 'payroll') {
    for (let index = 0; index < PAYSTUB_COUNT; index += 1) {
      const payDate = new Date(lastPay.getTime() - index * 14 * DAY_MS);
      const gross = hourlyRate * random.int(70, 85);
      const deductions = [
        { name: 'Federal income tax', amount: Math.round(gross * 0.12) },
        { name: 'Social Security', amount: Math.round(gross * 0.062) },
        { name: 'Medicare', amount: Math.round(gross * 0.0145) },
      ];
      const net = gross - deductions.reduce((sum, line) => sum + line.amount, 0);
      if (payDate.getTime() >= yearStart) {
        ytdGross += gross;
        ytdNet += net;
      }
      paystubs.push({
        id: random.uuid(),
        account_id: account.id,
        pay_date: serviceDate(payDate),
        period_start: serviceDate(new Date(payDate.getTime() - 18 * DAY_MS)),
        period_end: serviceDate(new Date(payDate.getTime() - 5 * DAY_MS)),
        currency: 'USD',
        gross_pay: gross,
        net_pay: net,
        deductions,
        created_at: createdAt,
      });
    }
  } else {
    for (let index = 0; index < SHIFT_COUNT; index += 1) {
      const day = new Date(now.getTime() - (index + 1) * DAY_MS);
      const start = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), random.int(6, 14)));
      const minutes = random.int(16, 40) * 15;
      if (start.getTime() >= yearStart) ytdGross += Math.round((hourlyRate * minutes) / 60);
      shifts.push({
        id: random.uuid(),
        account_id: account.id,
        date: serviceDate(start),
        start_time: serviceDateTime(start),
        end_time: serviceDateTime(new Date(start.getTime() + minutes * 60_000)),
        duration_minutes: minutes,
        role: random.pick(ROLES),
        location: random.pick(LOCATIONS),
        created_at: createdAt,
      });
    }
    ytdNet = Math.round(ytdGross * 0.8);
    lastPay = new Date(now.getTime() - random.int(1, 6) * DAY_MS);
  }

  const income: Income = {
    id: random.uuid(),
    account_id: account.id,
    currency: 'USD',
    pay_frequency: 'biweekly',
    annual_gross_pay: hourlyRate * 2080,
    ytd_gross_pay: ytdGross,
    ytd_net_pay: ytdNet,
    hourly_rate: hourlyRate,
    last_pay_date: serviceDate(lastPay),
    created_at: createdAt,
  };
  return { employment, income, paystubs, shifts };
};
