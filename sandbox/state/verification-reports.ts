/**
 * Verification reports (VOE, VOIE) of an end user, built from the accounts
 * that user connected. VOE needs one account; VOIE also needs income data
 * from a payroll platform (a time-tracking account alone has no paystubs).
 */
import { randomUUID } from 'node:crypto';
import type { AccountRecord, SandboxStore } from './store.js';
import type { Availability, VoeReport, VoieReport, SandboxWebhookEvent } from './resources.js';
import { serviceDateTime } from './service-time.js';
import type { Emit } from './webhooks.js';

/** Availability of both reports for these accounts. */
export const reportAvailability = (accounts: readonly AccountRecord[], now: Date): { voe: Availability; voie: Availability } => {
  const updated =
    accounts
      .map((record) => record.account.updated_at)
      .sort()
      .at(-1) ?? serviceDateTime(now);
  const refreshed = serviceDateTime(now);
  const voeReady = accounts.length > 0;
  const voieReady = accounts.some((record) => record.account.platform_type === 'payroll');
  return {
    voe: { status: voeReady ? 'available' : 'unavailable', updated_at: updated, refreshed_at: refreshed },
    voie: { status: voieReady ? 'available' : 'unavailable', updated_at: updated, refreshed_at: refreshed },
  };
};

/** Sends `verification_reports.refreshed` for an end user, with the availability of their reports now. */
export const emitReportsRefreshed = (store: SandboxStore, emit: Emit, endUserId: string): SandboxWebhookEvent =>
  emit('verification_reports.refreshed', {
    end_user_id: endUserId,
    availability: reportAvailability(store.accountsOfEndUser(endUserId), store.now()),
  });

/** The VOE report of an end user with at least one account. */
export const buildVoeReport = (endUserId: string, accounts: readonly AccountRecord[], now: Date): VoeReport => ({
  id: randomUUID(),
  type: 'voe',
  end_user_id: endUserId,
  generated_at: serviceDateTime(now),
  employments: accounts.map((record) => record.data.employment),
});

/** The VOIE report: employments, plus incomes from payroll accounts. */
export const buildVoieReport = (endUserId: string, accounts: readonly AccountRecord[], now: Date): VoieReport => ({
  ...buildVoeReport(endUserId, accounts, now),
  type: 'voie',
  incomes: accounts.filter((record) => record.account.platform_type === 'payroll').map((record) => record.data.income),
});
