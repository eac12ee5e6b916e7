/** What the token handler answers the browser when it does not answer a token, and what it logs then. */
import type { PayrollApiError } from '../client/payroll-api-error.js';
import type { ErrorAnswer } from '../error-response.js';
import { HttpError } from '../handler/http-error.js';

/** The handler's error answers but the 400 of a bad body (one entry per issue). */
export const LINK_TOKEN_ANSWERS = {
  /** A hook that failed, or a throw nothing else caught: the reason goes to the log only. */
  internal: { status: 500, type: 'INTERNAL_ERROR', code: 'INTERNAL_ERROR', message: 'The server could not create a Link token.' },
  hookTimeout: {
    status: 503,
    type: 'SERVICE_UNAVAILABLE',
    code: 'HOOK_TIMEOUT',
    message: 'The server could not create a Link token in time; try again.',
    headers: { 'retry-after': '1' },
  },
  accountIdNotAccepted: {
    status: 400,
    type: 'INVALID_REQUEST_PARAMETERS',
    code: 'ACCOUNT_ID_NOT_ACCEPTED',
    message: 'account_id is not accepted here: the server must set authorizeAccount to let users reconnect their accounts.',
  },
  accountNotAuthorized: {
    status: 403,
    type: 'FORBIDDEN',
    code: 'ACCOUNT_NOT_AUTHORIZED',
    message: 'This account cannot be reconnected by this user.',
  },
  upstreamInvalid: {
    status: 502,
    type: 'UPSTREAM_ERROR',
    code: 'UPSTREAM_INVALID_RESPONSE',
    message: 'The payroll service answered unexpectedly; the server log has the details.',
  },
  upstreamRejected: {
    status: 502,
    type: 'UPSTREAM_ERROR',
    code: 'UPSTREAM_REJECTED',
    message: 'The payroll service refused the request; the server log has the details.',
  },
} satisfies Record<string, ErrorAnswer>;

/** 503 with `Retry-After`: the service is unavailable, the browser may ask again then. */
export function unavailableAnswer(retryAfterSeconds: number): ErrorAnswer {
  return {
    status: 503,
    type: 'SERVICE_UNAVAILABLE',
    code: 'UPSTREAM_UNAVAILABLE',
    message: 'The payroll service is unavailable right now; try again shortly.',
    headers: { 'retry-after': String(retryAfterSeconds) },
  };
}

/** The longest `Retry-After` (seconds) passed on to the browser when the service is unavailable. */
const MAX_BROWSER_RETRY_AFTER_S = 60;

/** Why a refused call happened, in words an integrator can act on. */
const REJECTION_HINTS: Record<number, string> = {
  400: 'the service refused the request body or headers: check version, orgName, solution and features',
  401: 'the API secret is missing or wrong: it must belong to the mode that baseUrl serves',
  403: 'the service understood the request but refused it: see its error codes',
  404: 'no such endpoint: check baseUrl',
};

/**
 * The browser's answer for a service call that did not succeed, with the log line that says what the integrator needs:
 * 502 when the service refused or answered nonsense (the detail only in the log), 503 with `Retry-After` when it was
 * unavailable or may have failed midway (a 500, a 504 or a timeout of the POST, which is not sent again: the widget's
 * own retry then asks for a new token).
 */
export function upstreamFailure(error: PayrollApiError, baseUrl: string | undefined): HttpError {
  const fields = {
    kind: error.kind,
    status: error.status,
    requestId: error.requestId,
    type: error.type,
    errorCodes: error.errorCodes.map((entry) => entry.errorCode),
    messages: error.errorCodes.map((entry) => entry.message),
  };
  if (error.kind === 'invalid_response') {
    return new HttpError(LINK_TOKEN_ANSWERS.upstreamInvalid, { level: 'error', message: `payroll service ${error.message}`, fields });
  }
  if (error.status !== null && error.status < 500 && error.status !== 429) {
    return new HttpError(LINK_TOKEN_ANSWERS.upstreamRejected, {
      level: 'error',
      message: `payroll service POST /link_tokens: refused with HTTP ${error.status}: ${REJECTION_HINTS[error.status] ?? 'unexpected status'}`,
      fields,
    });
  }
  const hint = error.message.includes('ECONNREFUSED')
    ? `: nothing listens at ${baseUrl ?? "the client's baseUrl"}; is the service running? (the local sandbox: npx payroll-link-sandbox)`
    : '';
  // Passed on to the browser: bounded, so an upstream's "Retry-After: 3600" (or 1e25) never parks a user for an hour.
  const retryAfterSeconds = Math.min(MAX_BROWSER_RETRY_AFTER_S, Math.max(1, Math.ceil((error.retryAfterMs ?? 1000) / 1000)));
  return new HttpError(unavailableAnswer(retryAfterSeconds), {
    level: 'error',
    message: `payroll service ${error.message}; unavailable${hint}`,
    fields,
  });
}
