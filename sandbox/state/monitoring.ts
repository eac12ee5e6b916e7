/**
 * Moving an account between monitoring statuses, wherever the move comes from
 * (the disconnect endpoint, the sandbox triggers): the account changes, the
 * jobs it still had pending fail (they can no longer reach the platform), and
 * the webhook of the sandbox's webhook version goes out:
 * `account.monitoring_status.updated`, or for versions up to 2021-07-28 the
 * deprecated `account.disconnected` / `account.reconnected` it replaced.
 */
import type { MonitoringStatus, SandboxWebhookEvent } from './resources.js';
import type { SandboxDeps } from '../sandbox-deps.js';
import type { AccountRecord } from './store.js';
import { LAST_LEGACY_ACCOUNT_EVENTS_VERSION, isAtOrBefore } from '../http/versions.js';

/** Why pending jobs end when their account moves to a status without platform access. */
const JOB_FAILURES: Partial<Record<MonitoringStatus, { code: string; message: string }>> = {
  disconnected: { code: 'ACCOUNT_DISCONNECTED', message: 'The account was disconnected before the job finished' },
  user_action_required: {
    code: 'ACCOUNT_REAUTH_REQUIRED',
    message: 'The payroll platform asked the user to log in again before the job finished',
  },
};

/**
 * Moves `record` to `to`.
 *
 * @returns the webhook event sent, or null when the account already had `to` (nothing changes, nothing is sent).
 */
export const changeMonitoringStatus = (deps: SandboxDeps, record: AccountRecord, to: MonitoringStatus): SandboxWebhookEvent | null => {
  const previous = deps.store.setMonitoringStatus(record, to);
  if (previous === null) return null;
  const { account } = record;
  const failure = JOB_FAILURES[to];
  if (failure) {
    for (const job of deps.store.jobs()) {
      if (job.job.account_id === account.id && job.job.status === 'pending') deps.runner.fail(job, failure);
    }
  }
  if (isAtOrBefore(deps.webhookVersion, LAST_LEGACY_ACCOUNT_EVENTS_VERSION)) {
    const payload = { account_id: account.id, end_user_id: account.end_user_id, updated_at: account.updated_at };
    return deps.emit(to === 'active' ? 'account.reconnected' : 'account.disconnected', payload);
  }
  return deps.emit('account.monitoring_status.updated', {
    account_id: account.id,
    end_user_id: account.end_user_id,
    connected: account.connected,
    monitoring_status: account.monitoring_status,
    previous_monitoring_status: previous,
    updated_at: account.updated_at,
  });
};
