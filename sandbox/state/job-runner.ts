/**
 * Runs jobs to their end on timers, by the account's sandbox scenario:
 * user_good and user_mfa succeed after `jobDelayMs`; user_error fails
 * (JOB_FAILED) after `jobDelayMs`; user_pending stays pending for
 * `pendingJobDelayMs`, then fails (JOB_TIMEOUT). On success it sends
 * `paystubs.added` (or `shifts.added`) and, for a known end user,
 * `verification_reports.refreshed`. A failure sends no event: the spec has
 * none for it (the job's `error` says why).
 */
import type { SandboxWebhookEvent } from './resources.js';
import type { AccountRecord, JobRecord, SandboxStore } from './store.js';
import { emitReportsRefreshed } from './verification-reports.js';
import type { Emit } from './webhooks.js';

/** Timings of {@link JobRunner}. */
export interface JobTimings {
  readonly jobDelayMs: number;
  readonly pendingJobDelayMs: number;
}

/** Finishes started jobs on timers; `close()` cancels what is left. */
export class JobRunner {
  readonly #store: SandboxStore;
  readonly #emit: Emit;
  readonly #timings: JobTimings;
  /** The timer of each started job still running. */
  readonly #timers = new Map<JobRecord, NodeJS.Timeout>();

  constructor(store: SandboxStore, emit: Emit, timings: JobTimings) {
    this.#store = store;
    this.#emit = emit;
    this.#timings = timings;
  }

  /** Starts a pending job; it finishes later, on its own. */
  start(record: JobRecord): void {
    record.started = true;
    const account = this.#store.account(record.job.account_id);
    const scenario = account?.scenario ?? 'good';
    const delay = scenario === 'pending' ? this.#timings.pendingJobDelayMs : this.#timings.jobDelayMs;
    const timer = setTimeout(() => {
      this.#timers.delete(record);
      this.#finish(record);
    }, delay);
    this.#timers.set(record, timer);
  }

  /**
   * Ends a pending job now, as failed, whether it was started or still waits
   * for its allocation. Its timer goes too, so it cannot end a second time.
   */
  fail(record: JobRecord, error: { code: string; message: string }): void {
    clearTimeout(this.#timers.get(record));
    this.#timers.delete(record);
    this.#store.finishJob(record, { status: 'error', ...error });
  }

  /**
   * Ends a pending job now as a success, whatever its account's scenario, and sends what a
   * successful sync sends: what the sandbox triggers do.
   *
   * @returns the events sent.
   */
  succeed(record: JobRecord): SandboxWebhookEvent[] {
    clearTimeout(this.#timers.get(record));
    this.#timers.delete(record);
    record.started = true;
    const accountRecord = this.#store.account(record.job.account_id);
    return accountRecord ? this.#succeed(record, accountRecord) : [];
  }

  /** Cancels every job still running (they stay pending). */
  close(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  #finish(record: JobRecord): void {
    const accountRecord = this.#store.account(record.job.account_id);
    if (!accountRecord) return;
    if (accountRecord.scenario === 'error') {
      this.#store.finishJob(record, {
        status: 'error',
        code: 'JOB_FAILED',
        message: 'The payroll platform refused the job (sandbox user_error)',
      });
      return;
    }
    if (accountRecord.scenario === 'pending') {
      this.#store.finishJob(record, {
        status: 'error',
        code: 'JOB_TIMEOUT',
        message: 'The payroll platform did not answer in time (sandbox user_pending)',
      });
      return;
    }
    this.#succeed(record, accountRecord);
  }

  #succeed(record: JobRecord, accountRecord: AccountRecord): SandboxWebhookEvent[] {
    this.#store.finishJob(record, { status: 'success' });
    const { account, data } = accountRecord;
    const isShifts = record.job.name === 'shifts';
    const total = isShifts ? data.shifts.length : data.paystubs.length;
    const payload = {
      account_id: account.id,
      job_id: record.job.id,
      link_token_id: record.job.link_token_id,
      end_user_id: account.end_user_id,
      sync_status: 'synced' as const,
      // The first sync reports every record as added; later syncs find nothing new in the mock data.
      added_count: accountRecord.synced ? 0 : total,
      deleted_count: 0,
    };
    accountRecord.synced = true;
    const sent = [this.#emit(isShifts ? 'shifts.added' : 'paystubs.added', payload)];
    if (account.end_user_id !== null) sent.push(emitReportsRefreshed(this.#store, this.#emit, account.end_user_id));
    return sent;
  }
}
