/**
 * A launch's results: what the page reports, what `account.added` adds, and what the service confirms
 * ({@link verdictOf}), settled into one `onResult` per outcome. A success is final: its claim is done on the store
 * every instance shares.
 */
import { AccountAddedPayloadSchema } from '../webhooks/webhook-events.js';
import { HttpError } from '../handler/http-error.js';
import { isPayrollApiError } from '../client/payroll-api-error.js';
import type { PayrollClient } from '../client/payroll-client.js';
import type { Logger } from '../logger.js';
import type { EventRunner } from '../webhooks/once-per-event.js';
import { ANSWERS } from './launch-answers.js';
import { isDone, KEYS, readJson, storeCall, writeJson, type LaunchStorage } from './launch-records.js';
import type { LaunchFields } from './launch-seal.js';
import type { LaunchResult } from './launch-options.js';
import { verdictOf, type HeardAccount, type LaunchFact } from './launch-verdict.js';

/** How long a reported success waits for its job to end before it is `unconfirmed` (`job_status`). */
export const JOB_WAIT_MS = 60_000;
/** Success checks per launch per minute: each reads the account and the job once, so a flood of reports costs the service little. */
export const MAX_CHECKS_PER_MINUTE = 12;

/** What the launch keeps of the Link token it minted: for which launch, and until when its results count. */
export interface MintedToken {
  launch: LaunchFields;
  /** Whole seconds since 1970 (UTC). */
  acceptUntil: number;
}

/** A reported success not confirmed yet, for `confirm()` and `recheck()`; `firstAt` starts its job's wait. */
interface ReportedSuccess {
  linkTokenId: string;
  accountId: string;
  jobId: string;
  /** Milliseconds since 1970. */
  firstAt: number;
}

/**
 * What a check of a launch's success came to: `success` (confirmed, `onResult` ran once), `unconfirmed` (its
 * `onResult` ran once for this Link token; still open), `waiting` (its job has not ended), `refused` (the service
 * contradicts it), `revoked`; for `confirm()` also `recorded` (kept until the page's report) and `not-a-launch` (an
 * event of no Link token these launches minted, or one past its time), and for `recheck()` `not-reported`.
 */
export type LaunchCheck = 'success' | 'unconfirmed' | 'waiting' | 'refused' | 'revoked' | 'recorded' | 'not-a-launch' | 'not-reported';

/** What the results need from `createLinkLaunches`. */
export interface ResultParts {
  client: PayrollClient;
  storage: LaunchStorage;
  runOnce: EventRunner;
  onResult: (result: LaunchResult) => void | Promise<void>;
  flowJobs: readonly string[];
  log: Logger;
}

/** The results of the launches: settling a success, and its two later confirmations. */
export function launchResults({ client, storage, runOnce, onResult, flowJobs, log }: ResultParts) {
  const { claims, records } = storage;
  const base = (launch: LaunchFields, linkTokenId: string) => ({
    launchId: launch.id,
    endUserId: launch.endUserId,
    state: launch.state,
    linkTokenId,
  });

  /** Runs `onResult` once under `id`; a run that could not be recorded is the 503 the page retries. */
  async function once(id: string, result: LaunchResult): Promise<void> {
    const outcome = await runOnce(id, () => onResult(result));
    if (outcome === 'handled' || outcome === 'duplicate') return;
    // The runner has logged why.
    if (outcome === 'busy' || outcome === 'timed-out') throw new HttpError(ANSWERS.resultBusy);
    if (outcome === 'store-unavailable') throw new HttpError(ANSWERS.storeUnavailable);
    throw new HttpError(ANSWERS.internal);
  }

  /** Counts one check against the launch's bound: a flood of reports from one URL costs a handful of reads a minute. */
  async function countCheck(launch: LaunchFields): Promise<void> {
    const minute = Math.floor(Date.now() / 60_000);
    const count = await storeCall(() => records.increment(KEYS.checks(launch.id, minute), (minute + 2) * 60_000));
    if (count <= MAX_CHECKS_PER_MINUTE) return;
    const retryAfter = String(Math.max(1, Math.ceil(((minute + 1) * 60_000 - Date.now()) / 1000)));
    throw new HttpError(
      { ...ANSWERS.checkLimit, headers: { 'retry-after': retryAfter } },
      { level: 'warn', message: 'link launch: success checks over their bound; answering 429', fields: { launchId: launch.id } },
    );
  }

  /** The account and the job as the service has them; a service that cannot say now is the 503 the page retries. */
  async function read(launch: LaunchFields, accountId: string, jobId: string) {
    try {
      const [account, job] = await Promise.all([client.accounts.get(accountId), client.jobs.get(jobId)]);
      return { account, job };
    } catch (error) {
      if (!isPayrollApiError(error)) throw error;
      if (error.status === 404) return null;
      throw new HttpError(ANSWERS.uncheckable, {
        level: 'error',
        message: `link launch: the result could not be checked: ${error.message}; answering 503`,
        fields: { launchId: launch.id },
      });
    }
  }

  /** Settles a reported success (from the page, a webhook, or a recheck). Throws only what is worth a retry. */
  async function settle(launch: LaunchFields, report: ReportedSuccess, acceptUntil: number): Promise<LaunchCheck> {
    // Both asked at once: one round trip to the store.
    const [revoked, succeeded] = await Promise.all([isDone(claims, KEYS.revoked(launch.id)), isDone(claims, KEYS.success(launch.id))]);
    if (revoked) return 'revoked';
    if (succeeded) return 'success';
    await countCheck(launch);
    const [found, heard] = await Promise.all([
      read(launch, report.accountId, report.jobId),
      readJson<HeardAccount>(records, KEYS.heard(report.linkTokenId)),
    ]);
    const refuse = (why: string): LaunchCheck => {
      log.warn(`link launch: a success was refused: ${why}`, { launchId: launch.id, accountId: report.accountId });
      return 'refused';
    };
    if (!found) return refuse('the service does not know that account or job');
    const verdict = await verdictOf({
      launch,
      report,
      ...found,
      heard,
      flowJobs,
      mintedHere: async (id) => (await readJson<MintedToken>(records, KEYS.token(id)))?.launch.id === launch.id,
    });
    if ('refused' in verdict) return refuse(verdict.refused);
    const { linkTokenId, accountId, jobId } = report;
    if (verdict.unconfirmed.length === 0) {
      await once(KEYS.success(launch.id), { ...base(launch, linkTokenId), status: 'success', accountId, jobId });
      return 'success';
    }
    await writeJson(records, KEYS.report(launch.id), report, acceptUntil * 1000);
    if (verdict.jobPending && Date.now() - report.firstAt < JOB_WAIT_MS) return 'waiting';
    const unconfirmed: LaunchFact[] = verdict.unconfirmed;
    await once(KEYS.unconfirmed(linkTokenId), { ...base(launch, linkTokenId), status: 'unconfirmed', accountId, jobId, unconfirmed });
    return 'unconfirmed';
  }

  /** The page's success report: settled, its job's wait counted from the first report of the same success. */
  async function reported(launch: LaunchFields, success: Omit<ReportedSuccess, 'firstAt'>, acceptUntil: number) {
    const earlier = await readJson<ReportedSuccess>(records, KEYS.report(launch.id));
    const same = earlier?.linkTokenId === success.linkTokenId && earlier.accountId === success.accountId && earlier.jobId === success.jobId;
    return settle(launch, { ...success, firstAt: same ? earlier.firstAt : Date.now() }, acceptUntil);
  }

  /** The page's exit report: once per Link token, and nothing after the launch's success. */
  async function exited(launch: LaunchFields, linkTokenId: string, exitReason: string | undefined): Promise<'success' | 'exit'> {
    if (await isDone(claims, KEYS.success(launch.id))) return 'success';
    await once(KEYS.exit(linkTokenId), { ...base(launch, linkTokenId), status: 'exit', ...(exitReason && { exitReason }) });
    return 'exit';
  }

  /** See `LinkLaunches.confirm`. */
  async function confirm(event: unknown): Promise<LaunchCheck> {
    const envelope = event as { event?: unknown; payload?: unknown } | null;
    if (typeof envelope !== 'object' || envelope === null || envelope.event !== 'account.added') return 'not-a-launch';
    const payload = AccountAddedPayloadSchema.safeParse(envelope.payload);
    if (!payload.success || !payload.data.link_token_id) return 'not-a-launch';
    const linkTokenId = payload.data.link_token_id;
    const minted = await readJson<MintedToken>(records, KEYS.token(linkTokenId));
    if (!minted || Date.now() / 1000 > minted.acceptUntil) return 'not-a-launch';
    const heard: HeardAccount = {
      accountId: payload.data.account_id,
      jobId: payload.data.job_id ?? null,
      endUserId: payload.data.end_user_id ?? null,
    };
    await writeJson(records, KEYS.heard(linkTokenId), heard, minted.acceptUntil * 1000);
    const report = await readJson<ReportedSuccess>(records, KEYS.report(minted.launch.id));
    if (!report || report.linkTokenId !== linkTokenId) return 'recorded';
    return settle(minted.launch, report, minted.acceptUntil);
  }

  /** See `LinkLaunches.recheck`. */
  async function recheck(launchId: string): Promise<LaunchCheck> {
    if (await isDone(claims, KEYS.success(launchId))) return 'success';
    const report = await readJson<ReportedSuccess>(records, KEYS.report(launchId));
    const minted = report && (await readJson<MintedToken>(records, KEYS.token(report.linkTokenId)));
    if (!report || !minted || minted.launch.id !== launchId) return 'not-reported';
    return settle(minted.launch, report, minted.acceptUntil);
  }

  return { reported, exited, confirm, recheck };
}
