/**
 * What the demo page shows of a connected account, read with the example's one
 * `PayrollClient` (the secret stays on the server): `GET /api/accounts/{id}/summary`
 * (employment, income, the latest paystubs) and `GET /api/end-users/{id}/verification-reports`
 * (VOE and VOIE, which the page asks for when `verification_reports.refreshed` arrives).
 * A real backend reads the same way, for its signed-in user's own accounts only.
 */
import { isPayrollApiError, jsonResponse, simpleErrorResponse, type Logger, type PayrollClient } from 'payroll-link/server';
import { z } from 'zod';

/** How many paystubs the summary shows. */
const LATEST_PAYSTUBS = 3;

/**
 * The browser's answer for a failed read. The service's own refusals of what was asked (404 for
 * an unknown account, 400, 403, 409) come back with their status and error codes, which hold no
 * secret; a refused secret (401) or a nonsense answer is a 502, an unavailable service a 503,
 * with the detail only in the log. Anything but a `PayrollApiError` is a bug: rethrown.
 */
export function readFailure(error: unknown, what: string, log: Logger): Response {
  if (!isPayrollApiError(error)) throw error;
  const fields = {
    kind: error.kind,
    status: error.status,
    requestId: error.requestId,
    errorCodes: error.errorCodes.map((entry) => entry.errorCode),
  };
  const [first, ...rest] = error.errorCodes.map((entry) => ({ error_code: entry.errorCode, message: entry.message }));
  if (error.status !== null && error.status < 500 && error.status !== 401 && error.status !== 429 && first) {
    return jsonResponse(error.status, {
      error: { status_code: error.status, message: first.message, type: error.type ?? 'INVALID_REQUEST', error_codes: [first, ...rest] },
    });
  }
  log.error(`payroll service: ${what}: ${error.message}`, fields);
  if (error.kind === 'server' || error.kind === 'connection' || error.kind === 'timeout' || error.kind === 'rate_limited') {
    const seconds = Math.min(30, Math.max(1, Math.ceil((error.retryAfterMs ?? 1_000) / 1_000)));
    return simpleErrorResponse(
      503,
      'SERVICE_UNAVAILABLE',
      'UPSTREAM_UNAVAILABLE',
      `${what}: the payroll service is unavailable; try again.`,
      { 'retry-after': String(seconds) },
    );
  }
  return simpleErrorResponse(
    502,
    'UPSTREAM_ERROR',
    'UPSTREAM_ERROR',
    `${what}: the payroll service refused or answered unexpectedly; the server log has the details.`,
  );
}

/** `GET /api/accounts/{id}/summary`: `{ data: { account, employment, income, paystubs } }`, the latest paystubs first. */
export function createAccountSummaryRoute(client: PayrollClient, log: Logger): (request: Request, accountId: string) => Promise<Response> {
  return async (request, accountId) => {
    if (request.method !== 'GET') return simpleErrorResponse(405, 'INVALID_REQUEST', 'METHOD_NOT_ALLOWED', 'Use GET.', { allow: 'GET' });
    if (!z.uuid().safeParse(accountId).success) {
      return simpleErrorResponse(
        400,
        'INVALID_REQUEST_PARAMETERS',
        'INVALID_PARAMS',
        'The account id must be a UUID, like the accountId of onSuccess.',
      );
    }
    try {
      const account = await client.accounts.get(accountId);
      // A time-and-attendance account has shifts, not paystubs (the service refuses to list them).
      const hasPaystubs = account['platform_type'] !== 'time_and_attendance';
      const [employment, income, paystubs] = await Promise.all([
        client.accounts.employment(accountId),
        client.accounts.income(accountId),
        hasPaystubs ? client.accounts.paystubs(accountId, { limit: 100 }).toArray({ limit: 100 }) : [],
      ]);
      // The spec does not say in which order paystubs come: newest first by pay date, where there is one.
      const payDate = (paystub: { [key: string]: unknown }) => String(paystub['pay_date'] ?? '');
      const latest = [...paystubs].sort((a, b) => payDate(b).localeCompare(payDate(a))).slice(0, LATEST_PAYSTUBS);
      return jsonResponse(200, { data: { account, employment, income, paystubs: latest } });
    } catch (error) {
      return readFailure(error, `account ${accountId}`, log);
    }
  };
}

/**
 * `GET /api/end-users/{id}/verification-reports`: `{ data: { end_user_id, voe, voie } }`, the most
 * recent reports; one the service has not got (404 `REPORT_UNAVAILABLE`: VOIE needs a payroll
 * account) is null. An end user with no account is a 404 `END_USER_NOT_FOUND`.
 */
export function createVerificationReportsRoute(
  client: PayrollClient,
  log: Logger,
): (request: Request, endUserId: string) => Promise<Response> {
  return async (request, endUserId) => {
    if (request.method !== 'GET') return simpleErrorResponse(405, 'INVALID_REQUEST', 'METHOD_NOT_ALLOWED', 'Use GET.', { allow: 'GET' });
    if (!z.string().min(1).max(255).safeParse(endUserId).success) {
      return simpleErrorResponse(400, 'INVALID_REQUEST_PARAMETERS', 'INVALID_PARAMS', 'The end user id must be 1 to 255 characters.');
    }
    const unlessUnavailable = async <T>(read: () => Promise<T>): Promise<T | null> => {
      try {
        return await read();
      } catch (error) {
        if (isPayrollApiError(error) && error.hasCode('REPORT_UNAVAILABLE')) return null;
        throw error;
      }
    };
    try {
      const [voe, voie] = await Promise.all([
        unlessUnavailable(() => client.verificationReports.voe(endUserId)),
        unlessUnavailable(() => client.verificationReports.voie(endUserId)),
      ]);
      return jsonResponse(200, { data: { end_user_id: endUserId, voe, voie } });
    } catch (error) {
      return readFailure(error, `end user ${endUserId}`, log);
    }
  };
}
