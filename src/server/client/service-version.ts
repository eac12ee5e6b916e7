import * as z from 'zod';

/**
 * The `Service-Version` dates the service is known to accept (spec, "Versioning"), oldest first. 2021-04-29 and
 * 2021-07-28 are deprecated but still answered. A version outside this list is a configuration mistake, caught at
 * start-up rather than on the first user's click.
 */
export const SERVICE_VERSIONS = ['2021-04-29', '2021-07-28', '2022-03-02', '2022-06-22', '2025-07-08'] as const;

/** One of {@link SERVICE_VERSIONS}. */
export const ServiceVersionSchema = z.enum(SERVICE_VERSIONS, {
  error: (issue) =>
    typeof issue.input === 'string' && !/^\d{4}-\d{2}-\d{2}$/.test(issue.input)
      ? `must be a date written YYYY-MM-DD, one of ${SERVICE_VERSIONS.join(', ')}`
      : `must be one of the known service versions ${SERVICE_VERSIONS.join(', ')}`,
});

/** A known `Service-Version` date. */
export type ServiceVersion = z.infer<typeof ServiceVersionSchema>;

/** The last version whose `POST /link_tokens` takes `required_jobs` instead of `features` and `solution`. */
export const LAST_REQUIRED_JOBS_VERSION = '2021-07-28' satisfies ServiceVersion;

/** True when `POST /link_tokens` of this version takes `required_jobs` (YYYY-MM-DD dates order as strings). */
export function usesRequiredJobs(version: ServiceVersion): boolean {
  return version <= LAST_REQUIRED_JOBS_VERSION;
}
