import type { ErrorCode } from '../error-body.js';

/**
 * What went wrong, to branch on: a status class of the service's answer, or what happened when there was none.
 * `invalid_response` covers a success body that does not fit its schema and a redirect to another origin.
 */
export type PayrollApiErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'invalid_response';

/** What {@link PayrollApiError} is built from. */
export interface PayrollApiErrorFields {
  kind: PayrollApiErrorKind;
  message: string;
  status?: number | null;
  type?: string | null;
  errorCodes?: readonly { errorCode: string; message: string }[];
  requestId?: string | null;
  version?: string | null;
  retryAfterMs?: number | null;
}

// Symbol.for: the same key in every copy of the package, so two copies (a dependency's and the app's) still recognise
// each other's errors.
const BRAND = Symbol.for('payroll-link.PayrollApiError');

/** The kind of an HTTP error status (spec, "Errors"). */
export function kindOfStatus(status: number): PayrollApiErrorKind {
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'invalid_request';
}

/**
 * Every failure of a {@link PayrollClient} call: the service's error answer, or no usable answer at all (`status`
 * null). It never holds the API secret, in its message, fields, `cause` or stack.
 *
 * @example
 * try {
 *   await client.accounts.get(id);
 * } catch (error) {
 *   if (isPayrollApiError(error) && error.kind === 'not_found') return null;
 *   throw error;
 * }
 */
export class PayrollApiError extends Error {
  override readonly name = 'PayrollApiError';
  /** What went wrong; see {@link PayrollApiErrorKind}. */
  readonly kind: PayrollApiErrorKind;
  /** The HTTP status, or null when nothing answered (connection, timeout, a limiter failure). */
  readonly status: number | null;
  /** The error body's `type` (e.g. `INVALID_REQUEST_PARAMETERS`), null when the body was not the spec's. */
  readonly type: string | null;
  /** The error body's `error_codes`, empty when the body was not the spec's. */
  readonly errorCodes: readonly { errorCode: string; message: string }[];
  /** The service's `x-service-request-id`: quote it to the service's support. */
  readonly requestId: string | null;
  /** The `Service-Version` of the call. */
  readonly version: string | null;
  /** How long the service asked to wait (`Retry-After`), in milliseconds; null when it did not say. */
  readonly retryAfterMs: number | null;

  constructor(fields: PayrollApiErrorFields) {
    super(fields.message);
    this.kind = fields.kind;
    this.status = fields.status ?? null;
    this.type = fields.type ?? null;
    this.errorCodes = fields.errorCodes ?? [];
    this.requestId = fields.requestId ?? null;
    this.version = fields.version ?? null;
    this.retryAfterMs = fields.retryAfterMs ?? null;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True when the service answered with this `error_code` among its `error_codes`. */
  hasCode(code: string): boolean {
    return this.errorCodes.some((entry) => entry.errorCode === code);
  }
}

/** True for a {@link PayrollApiError}, also one made by another copy of this package (where `instanceof` says no). */
export function isPayrollApiError(value: unknown): value is PayrollApiError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** The error body's codes in the client's shape. */
export const toErrorCodes = (codes: readonly ErrorCode[]) =>
  codes.map((entry) => ({ errorCode: entry.error_code, message: entry.message }));
