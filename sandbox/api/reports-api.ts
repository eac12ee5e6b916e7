/**
 * `GET /v1/end_users/{id}/verification_reports/voe` and `/voie`: the most
 * recent report for the end user (the integrator's `end_user_id`). 404
 * END_USER_NOT_FOUND when no account carries that id; 404 REPORT_UNAVAILABLE
 * when the report lacks required data (VOIE needs a payroll account).
 */
import { z } from 'zod';
import { PAYROLL_API_ENDPOINTS } from 'payroll-link/server';
import { addEndpointRoute } from '../http/endpoint-route.js';
import { notFound } from '../http/errors.js';
import { jsonResponse } from '../http/http-types.js';
import type { Router } from '../http/router.js';
import type { ApiExtra, SandboxDeps } from '../sandbox-deps.js';
import { buildVoeReport, buildVoieReport, reportAvailability } from '../state/verification-reports.js';

/** Adds the verification report routes. */
export const addReportRoutes = (router: Router<ApiExtra>, deps: SandboxDeps): void => {
  const rows = PAYROLL_API_ENDPOINTS.verificationReports;
  // The integrator's end_user_id, at most 255 characters as the sandbox's Link tokens take it.
  const params = { endUserId: z.string().min(1).max(255) };
  for (const kind of ['voe', 'voie'] as const) {
    addEndpointRoute(router, rows[kind], { params }, ({ params: { endUserId } }) => {
      const accounts = deps.store.accountsOfEndUser(endUserId);
      if (accounts.length === 0) throw notFound('END_USER_NOT_FOUND', `No end user ${endUserId} has connected an account`);
      const now = deps.store.now();
      if (reportAvailability(accounts, now)[kind].status !== 'available') {
        throw notFound('REPORT_UNAVAILABLE', `The ${kind} report is unavailable: required data is missing (it needs a payroll account)`);
      }
      return jsonResponse(200, {
        data: kind === 'voe' ? buildVoeReport(endUserId, accounts, now) : buildVoieReport(endUserId, accounts, now),
      });
    });
  }
};
