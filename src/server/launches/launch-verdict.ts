/**
 * What a reported success is worth, from what the service said of it: a pure function of the account and the job as the
 * service sent them, and of the `account.added` webhook the launch heard for the Link token. The spec shows no account
 * field but `id`, `connected` and `monitoring_status`, and no job field but `id`: a fact the service does not send is
 * never taken as confirmed (it stays unconfirmed), and one it sends that contradicts the report refuses it.
 */
import type { Account, Job } from '../client/resource-schemas.js';

/** The facts a lender needs before acting on a success; each is confirmed by the service or listed as not. */
export type LaunchFact =
  /** The account is the launch's end user's. */
  | 'end_user_id'
  /** The account came from a Link token minted for this launch. */
  | 'link_token_id'
  /** The job the report names is this flow's, and finished with success. */
  | 'job_status';

/** What the launch keeps of an `account.added` webhook for one of its Link tokens. */
export interface HeardAccount {
  accountId: string;
  jobId: string | null;
  endUserId: string | null;
}

/** Everything the verdict reads. */
export interface VerdictInput {
  /** The launch's end user, and the account a reconnect launch was made for (null for a new connection). */
  launch: { endUserId: string; accountId: string | null };
  /** What the page reported. */
  report: { linkTokenId: string; accountId: string; jobId: string };
  account: Account;
  job: Job;
  /** The `account.added` heard for the report's Link token, if any. */
  heard: HeardAccount | null;
  /** Whether a Link token id is one this launch minted (the report's is: its receipt says so). */
  mintedHere: (linkTokenId: string) => boolean | Promise<boolean>;
  /** The job names the launch's flow runs (its `features`); a job of another name is not the flow's. */
  flowJobs: readonly string[];
}

/**
 * The verdict: refused (and why), or the facts left unconfirmed (none: a success). `jobPending`: the flow's job
 * has not ended yet (its `job_status` is then among the unconfirmed), worth waiting for.
 */
export type Verdict = { refused: string } | { unconfirmed: LaunchFact[]; jobPending: boolean };

/** A value the service sent, as opposed to one it left out (or sent as null). */
const sent = (value: string | null | undefined): value is string => typeof value === 'string';

/** Job states that end a job without success (the spec lists none; the sandbox's is `error`). */
const FAILED = new Set(['error', 'failed', 'cancelled', 'canceled']);

/** Judges a reported success: see the module's comment. */
export async function verdictOf({ launch, report, account, job, heard, mintedHere, flowJobs }: VerdictInput): Promise<Verdict> {
  const unconfirmed = new Set<LaunchFact>();
  if (heard && heard.accountId !== report.accountId) return { refused: 'its Link token connected another account' };
  if (heard?.jobId && heard.jobId !== report.jobId) return { refused: 'its Link token ran another job' };

  if (launch.accountId !== null) {
    // A reconnect: the app named the account at create(), and the service minted the token for that account.
    if (report.accountId !== launch.accountId) return { refused: 'a reconnect launch connected another account' };
  } else {
    const endUser = sent(account.end_user_id) ? account.end_user_id : (heard?.endUserId ?? null);
    if (endUser === null) unconfirmed.add('end_user_id');
    else if (endUser !== launch.endUserId) return { refused: 'the account is another end user’s' };
    if (sent(account.link_token_id)) {
      const ours = account.link_token_id === report.linkTokenId || (await mintedHere(account.link_token_id));
      if (!ours) return { refused: 'the account was connected with a Link token of another launch' };
    } else if (!heard) unconfirmed.add('link_token_id');
  }

  if (sent(job.account_id) && job.account_id !== report.accountId) return { refused: "the job is another account's" };
  if (sent(job.link_token_id) && job.link_token_id !== report.linkTokenId) return { refused: 'the job ran under another Link token' };
  // Sent as null: the service says no Link flow started it (an on-demand job of the account's).
  if (job.link_token_id === null) return { refused: 'the job was not started by Link' };
  if (sent(job.name) && flowJobs.length > 0 && !flowJobs.includes(job.name)) return { refused: `the job is a ${job.name}, not the flow's` };
  if (sent(job.status) && FAILED.has(job.status)) return { refused: `the job ended with ${job.status}` };
  // The job is this flow's when the service ties it to the token (the webhook's job id, or the job's own field), or
  // to an account this token created: a reconnected account is older, and may hold a switch of an earlier flow.
  const tied =
    heard?.jobId === report.jobId ||
    job.link_token_id === report.linkTokenId ||
    (launch.accountId === null && job.account_id === report.accountId);
  if (job.status !== 'success' || !tied) unconfirmed.add('job_status');
  return { unconfirmed: [...unconfirmed], jobPending: tied && job.status === 'pending' };
}
