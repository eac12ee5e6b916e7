/**
 * Connecting an account, as a Link login does: the account (with its
 * generated data), its first job, and the `account.added` webhook. Shared by
 * the Link page's login and the sandbox trigger that creates an account
 * without the Link UI, so both produce the same records and the same event.
 */
import type { Employer, JobName, Platform } from './resources.js';
import type { SandboxDeps } from '../sandbox-deps.js';
import type { AccountRecord, JobRecord, LinkTokenRecord, Scenario } from './store.js';

/** What a login connected: the platform, the employer on it (if one was picked), the test user's scenario. */
export interface ConnectInput {
  readonly token: LinkTokenRecord;
  readonly platform: Platform;
  readonly employer: Employer | undefined;
  readonly scenario: Scenario;
  /** The account's first job. */
  readonly jobName: JobName;
}

/** Creates the account and its first (pending, not started) job, and sends `account.added`. */
export const connectAccount = (deps: SandboxDeps, input: ConnectInput): { account: AccountRecord; job: JobRecord } => {
  const { token, platform, employer } = input;
  const account = deps.store.addAccount(
    {
      platform_id: platform.id,
      platform_name: platform.name,
      platform_type: platform.type,
      employer_id: employer?.id ?? null,
      employer_name: employer?.name ?? null,
      end_user_id: token.endUserId,
      link_token_id: token.id,
    },
    input.scenario,
  );
  const job = deps.store.addJob({ name: input.jobName, accountId: account.account.id, linkTokenId: token.id }, false);
  deps.emit('account.added', {
    account_id: account.account.id,
    platform_id: platform.id,
    platform_name: platform.name,
    link_token_id: token.id,
    end_user_id: token.endUserId,
    job_id: job.job.id,
  });
  return { account, job };
};
