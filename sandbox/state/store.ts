/**
 * The sandbox's in-memory state: Link tokens, Link sessions, accounts with
 * their mock data, jobs, and every webhook event emitted. Nothing persists
 * across restarts.
 *
 * Each mutation is one synchronous step, so no request can see (or leave) a
 * half-written record.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { buildCatalogue, type Catalogue } from './catalogue.js';
import { generatePayrollData, type PayrollData } from './payroll-data.js';
import type { Account, Allocation, Job, JobName, MonitoringStatus, SandboxWebhookEvent } from './resources.js';
import { serviceDateTime } from './service-time.js';
import type { ServiceVersion } from '../http/versions.js';

/** The sandbox test users: what the Link login of each leads to. */
export type Scenario = 'good' | 'mfa' | 'error' | 'pending';

/** A Link token and what it was created with. */
export interface LinkTokenRecord {
  readonly id: string;
  /** The opaque token. Never logged. */
  readonly token: string;
  readonly expires: string;
  readonly expiresAtMs: number;
  readonly createdAt: string;
  /** The version that created it (it decides which request fields were used). */
  readonly version: ServiceVersion;
  readonly orgName: string;
  readonly jobs: readonly JobName[];
  readonly solution: string | null;
  readonly endUserId: string | null;
  readonly employerId: string | null;
  readonly platformId: string | null;
  readonly accountId: string | null;
  readonly language: string | null;
  readonly skipIntroScreen: boolean;
  readonly allocation: Allocation | null;
  /** Set when a Link session consumed it (tokens are single use). */
  used: boolean;
}

/** A Link session: one consumed token, the account and job it produced. */
export interface LinkSessionRecord {
  /** Random, unguessable; the page sends it as x-link-session. */
  readonly id: string;
  readonly linkToken: LinkTokenRecord;
  accountId: string | null;
  jobId: string | null;
}

/** An account and its data. `seq` orders the account list. */
export interface AccountRecord {
  readonly seq: number;
  account: Account;
  readonly scenario: Scenario;
  readonly data: PayrollData;
  /** True once a sync job has reported the account's records as added. */
  synced: boolean;
}

/** A job. `started` is false while a Link job waits for its allocation. */
export interface JobRecord {
  readonly seq: number;
  job: Job;
  started: boolean;
}

/** Input of {@link SandboxStore.addLinkToken}. */
export type NewLinkToken = Omit<LinkTokenRecord, 'id' | 'token' | 'expires' | 'expiresAtMs' | 'createdAt' | 'used'>;

/** Why a token cannot start a session. */
export type TokenRefusal = 'unknown' | 'used' | 'expired';

/** The in-memory state of one sandbox. */
export class SandboxStore {
  /** The generated catalogue of employers and platforms. */
  readonly catalogue: Catalogue;
  /**
   * Every webhook event emitted, in order (also when no webhook URL is configured), as it was sent: with
   * `fields: 'spec'`, each payload holds the spec's fields only, though its type names the full payload's.
   */
  readonly events: SandboxWebhookEvent[] = [];
  readonly #tokens = new Map<string, LinkTokenRecord>();
  readonly #sessions = new Map<string, LinkSessionRecord>();
  readonly #accounts = new Map<string, AccountRecord>();
  readonly #jobs = new Map<string, JobRecord>();
  /** Who waits for which pending job to finish (see {@link whenJobFinished}). */
  readonly #jobWaiters = new Map<string, ((job: Job) => void)[]>();
  readonly #now: () => Date;
  #seq = 0;

  constructor(options: { now?: () => Date; catalogue?: Catalogue } = {}) {
    this.#now = options.now ?? (() => new Date());
    this.catalogue = options.catalogue ?? buildCatalogue();
  }

  /** Current time, from the store's clock. */
  now(): Date {
    return this.#now();
  }

  /** Creates a Link token that expires `ttlSeconds` from now. */
  addLinkToken(input: NewLinkToken, ttlSeconds: number): LinkTokenRecord {
    const now = this.#now();
    const expiresAtMs = now.getTime() + ttlSeconds * 1000;
    const record: LinkTokenRecord = {
      ...input,
      id: randomUUID(),
      token: `link-sandbox-${randomBytes(24).toString('base64url')}`,
      expires: serviceDateTime(new Date(expiresAtMs)),
      expiresAtMs,
      createdAt: serviceDateTime(now),
      used: false,
    };
    this.#tokens.set(record.token, record);
    return record;
  }

  /** Every Link token, oldest first. */
  linkTokens(): LinkTokenRecord[] {
    return [...this.#tokens.values()];
  }

  /**
   * Consumes a token and opens a Link session with it, in one step.
   *
   * @returns the session, or why the token was refused.
   */
  openSession(token: string): LinkSessionRecord | TokenRefusal {
    const record = this.#tokens.get(token);
    if (!record) return 'unknown';
    if (record.used) return 'used';
    if (record.expiresAtMs <= this.#now().getTime()) return 'expired';
    record.used = true;
    const session: LinkSessionRecord = { id: randomBytes(24).toString('base64url'), linkToken: record, accountId: null, jobId: null };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The Link session with this id, if any. */
  session(id: string): LinkSessionRecord | undefined {
    return this.#sessions.get(id);
  }

  /** Adds an account (with its generated data) in one step. */
  addAccount(
    input: Omit<Account, 'id' | 'created_at' | 'updated_at' | 'connected' | 'monitoring_status' | 'disconnected_at'>,
    scenario: Scenario,
  ): AccountRecord {
    const now = this.#now();
    const account: Account = {
      id: randomUUID(),
      ...input,
      connected: true,
      monitoring_status: 'active',
      created_at: serviceDateTime(now),
      updated_at: serviceDateTime(now),
      disconnected_at: null,
    };
    const record: AccountRecord = { seq: this.#seq++, account, scenario, data: generatePayrollData(account, now), synced: false };
    this.#accounts.set(account.id, record);
    return record;
  }

  /** The account record with this id, if any. */
  account(id: string): AccountRecord | undefined {
    return this.#accounts.get(id);
  }

  /** Every account record, oldest first. */
  accounts(): AccountRecord[] {
    return [...this.#accounts.values()];
  }

  /**
   * Moves an account to another monitoring status in one step: `disconnected` (no recurring access,
   * monitoring stopped, data kept), `user_action_required` (still connected, but the platform wants
   * the user to log in again before on-demand updates run) or back to `active`.
   *
   * @returns the previous monitoring status, or null when the account already had `to` (nothing changed).
   */
  setMonitoringStatus(record: AccountRecord, to: MonitoringStatus): MonitoringStatus | null {
    const previous = record.account.monitoring_status;
    if (previous === to) return null;
    const now = serviceDateTime(this.#now());
    const disconnected = to === 'disconnected';
    record.account = {
      ...record.account,
      connected: !disconnected,
      monitoring_status: to,
      updated_at: now,
      disconnected_at: disconnected ? now : null,
    };
    return previous;
  }

  /** Adds a pending job. */
  addJob(input: { name: JobName; accountId: string; linkTokenId: string | null; params?: Job['params'] }, started: boolean): JobRecord {
    const now = serviceDateTime(this.#now());
    const job: Job = {
      id: randomUUID(),
      name: input.name,
      status: 'pending',
      account_id: input.accountId,
      link_token_id: input.linkTokenId,
      params: input.params ?? {},
      error: null,
      created_at: now,
      updated_at: now,
      completed_at: null,
    };
    const record: JobRecord = { seq: this.#seq++, job, started };
    this.#jobs.set(job.id, record);
    return record;
  }

  /** The job record with this id, if any. */
  job(id: string): JobRecord | undefined {
    return this.#jobs.get(id);
  }

  /** Every job record, oldest first. */
  jobs(): JobRecord[] {
    return [...this.#jobs.values()];
  }

  /** Moves a job to its final state. */
  finishJob(record: JobRecord, outcome: { status: 'success' } | { status: 'error'; code: string; message: string }): void {
    const now = serviceDateTime(this.#now());
    record.job = {
      ...record.job,
      status: outcome.status,
      error: outcome.status === 'error' ? { code: outcome.code, message: outcome.message } : null,
      updated_at: now,
      completed_at: now,
    };
    const waiters = this.#jobWaiters.get(record.job.id) ?? [];
    this.#jobWaiters.delete(record.job.id);
    for (const resolve of waiters) resolve(record.job);
  }

  /**
   * Resolves with the job once it has left `pending` (at once when it already has), so tests and
   * tools wait for the job itself instead of polling or sleeping. The job runner emits a job's
   * events in the same synchronous step that finishes it, and a promise resumes its awaiter only
   * after that step: when this resolves, the job's events are in {@link events} too.
   *
   * @throws Error for an unknown job id (waiting for it would never end).
   */
  whenJobFinished(id: string): Promise<Job> {
    const record = this.#jobs.get(id);
    if (!record) return Promise.reject(new Error(`no job ${id}`));
    if (record.job.status !== 'pending') return Promise.resolve(record.job);
    return new Promise((resolve) => {
      const waiters = this.#jobWaiters.get(id) ?? [];
      waiters.push(resolve);
      this.#jobWaiters.set(id, waiters);
    });
  }

  /** Accounts of one end user, oldest first. */
  accountsOfEndUser(endUserId: string): AccountRecord[] {
    return this.accounts().filter((record) => record.account.end_user_id === endUserId);
  }
}
