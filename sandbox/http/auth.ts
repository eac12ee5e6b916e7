/**
 * The x-api-secret check. Secrets are per mode (spec, "Authentication"): the
 * sandbox accepts only its own sandbox secret; a secret of another mode is a 401.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { apiError } from './errors.js';

/** The prefix of every secret the sandbox issues, so a secret says which mode it belongs to. */
export const SANDBOX_SECRET_PREFIX = 'sandbox_';

/** Prefixes of the other modes' secrets, which the sandbox refuses with a clear message. */
const OTHER_MODE_PREFIXES = [
  ['prod_', 'production'],
  ['production_', 'production'],
  ['dev_', 'development'],
  ['development_', 'development'],
] as const;

/** The mode a secret belongs to, judged by its prefix; `null` when it names none. */
export const modeOfSecret = (secret: string): 'sandbox' | 'development' | 'production' | null => {
  if (secret.startsWith(SANDBOX_SECRET_PREFIX)) return 'sandbox';
  for (const [prefix, mode] of OTHER_MODE_PREFIXES) if (secret.startsWith(prefix)) return mode;
  return null;
};

/** A fresh random sandbox secret. */
export const generateSecret = (): string => `${SANDBOX_SECRET_PREFIX}${randomBytes(24).toString('hex')}`;

// Compare digests, so the comparison takes the same time whatever the length of the guess.
const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Checks the x-api-secret header against the sandbox secret.
 *
 * @returns the secret (the rate limiter's key).
 * @throws ApiError 401 MISSING_API_SECRET or INVALID_API_SECRET. The message never repeats the secret.
 */
export const requireSecret = (header: string | null, expected: string): string => {
  if (header === null || header === '') {
    throw apiError(401, 'AUTHENTICATION_ERROR', 'MISSING_API_SECRET', 'The x-api-secret header is required');
  }
  if (timingSafeEqual(digest(header), digest(expected))) return header;
  const mode = modeOfSecret(header);
  const message =
    mode !== null && mode !== 'sandbox'
      ? `This secret belongs to ${mode} mode; the sandbox accepts only sandbox secrets`
      : 'The x-api-secret is not valid for this sandbox';
  throw apiError(401, 'AUTHENTICATION_ERROR', 'INVALID_API_SECRET', message);
};
