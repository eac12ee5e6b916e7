/**
 * What a job needs before it runs, wherever it is started (the Link page, an
 * on-demand update, a Link token's preset allocation): a connected account,
 * and an allocation its employer and platform take.
 *
 * `supports_percentage_allocation` is on both the employer and its platform;
 * an employer can only narrow what its platform offers, so a percentage needs
 * both to say yes. Without an employer (the user picked a platform) the
 * platform alone decides.
 */
import type { Catalogue } from './catalogue.js';
import { apiError } from '../http/errors.js';
import type { Account, Allocation } from './resources.js';

/** Where a deposit goes: a platform, and the employer on it when there is one. */
export type AllocationTarget = Pick<Account, 'platform_id' | 'employer_id'>;

/** True when the target takes a `percentage` allocation. */
export const supportsPercentage = (catalogue: Catalogue, target: AllocationTarget): boolean => {
  const platform = catalogue.platformById.get(target.platform_id);
  const employer = target.employer_id === null ? undefined : catalogue.employerById.get(target.employer_id);
  return (platform?.supports_percentage_allocation ?? false) && (employer?.supports_percentage_allocation ?? true);
};

/**
 * Refuses a `percentage` allocation the target does not take; any other allocation (or none) passes.
 *
 * @throws ApiError 400 PERCENTAGE_ALLOCATION_NOT_SUPPORTED.
 */
export const requireAllocationSupport = (
  catalogue: Catalogue,
  target: AllocationTarget,
  allocation: Allocation | null | undefined,
): void => {
  if (allocation?.type !== 'percentage' || supportsPercentage(catalogue, target)) return;
  const employer = target.employer_id === null ? undefined : catalogue.employerById.get(target.employer_id);
  const name = employer?.name ?? catalogue.platformById.get(target.platform_id)?.name ?? 'this platform';
  throw apiError(
    400,
    'INVALID_REQUEST_PARAMETERS',
    'PERCENTAGE_ALLOCATION_NOT_SUPPORTED',
    `allocation.type: ${name} does not take a percentage allocation (supports_percentage_allocation is false); use amount or remainder`,
  );
};

/**
 * Refuses a job on an account without access to its platform: disconnected (spec, "Account"), or
 * waiting for its user to log in again (the sandbox's re-authentication scenario).
 *
 * @throws ApiError 403 ACCOUNT_DISCONNECTED, 403 ACCOUNT_REAUTH_REQUIRED.
 */
export const requireConnected = (account: Account): void => {
  if (!account.connected) throw apiError(403, 'FORBIDDEN', 'ACCOUNT_DISCONNECTED', 'This account is disconnected: it can run no more jobs');
  if (account.monitoring_status === 'user_action_required') {
    throw apiError(
      403,
      'FORBIDDEN',
      'ACCOUNT_REAUTH_REQUIRED',
      'The payroll platform needs the user to log in again (monitoring_status user_action_required): open Link for this account to reconnect it',
    );
  }
};
