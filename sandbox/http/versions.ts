/**
 * The API versions the sandbox knows (spec, "Versioning") and the
 * Service-Version header rule: required on every request, one of these.
 */
import type { WebhookEventName } from 'payroll-link/server';
import { z } from 'zod';
import { apiError } from './errors.js';

/** Every known version, oldest first. */
export const KNOWN_VERSIONS = ['2021-04-29', '2021-07-28', '2022-03-02', '2022-06-22', '2025-07-08'] as const;

/** A known version. */
export const ServiceVersionSchema = z.enum(KNOWN_VERSIONS);

/** A known version string. */
export type ServiceVersion = z.infer<typeof ServiceVersionSchema>;

/** The newest version; named in the response header when the request named none (or a bad one). */
export const LATEST_VERSION: ServiceVersion = '2025-07-08';

/** Versions the spec marks deprecated; answers to them carry a `Deprecation` header. */
export const DEPRECATED_VERSIONS: ReadonlySet<ServiceVersion> = new Set(['2021-04-29', '2021-07-28']);

/** The last version in which `POST /link_tokens` takes `required_jobs` instead of `features` + `solution`. */
export const LAST_REQUIRED_JOBS_VERSION: ServiceVersion = '2021-07-28';

/** True when `version` is `bound` or earlier (the dates compare as strings). */
export const isAtOrBefore = (version: ServiceVersion, bound: ServiceVersion): boolean => version <= bound;

/**
 * Reads the Service-Version header.
 *
 * @throws ApiError 400 MISSING_SERVICE_VERSION when absent, 400 INVALID_SERVICE_VERSION when not a known version.
 */
export const requireVersion = (header: string | null): ServiceVersion => {
  if (header === null || header.trim() === '') {
    throw apiError(
      400,
      'INVALID_REQUEST_HEADERS',
      'MISSING_SERVICE_VERSION',
      `The Service-Version header is required (YYYY-MM-DD), e.g. ${LATEST_VERSION}`,
    );
  }
  const parsed = ServiceVersionSchema.safeParse(header.trim());
  if (!parsed.success) {
    throw apiError(
      400,
      'INVALID_REQUEST_HEADERS',
      'INVALID_SERVICE_VERSION',
      `Unknown Service-Version; known versions: ${KNOWN_VERSIONS.join(', ')}`,
    );
  }
  return parsed.data;
};

/**
 * The last version whose webhooks are the deprecated `account.disconnected` / `account.reconnected`;
 * later versions get `account.monitoring_status.updated` instead (the spec says it replaces them but
 * not since when; the sandbox takes the first non-deprecated version, 2022-03-02).
 */
export const LAST_LEGACY_ACCOUNT_EVENTS_VERSION: ServiceVersion = '2021-07-28';

/** The deprecated events those versions send instead of `account.monitoring_status.updated` (and later ones never). */
export const LEGACY_ACCOUNT_EVENTS: readonly WebhookEventName[] = ['account.disconnected', 'account.reconnected'];
