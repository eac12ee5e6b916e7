/** Job endpoints: `GET /v1/jobs` (filters `account_id`, `status`, `name`; paginated) and `GET /v1/jobs/{id}`. */
import { z } from 'zod';
import { PAYROLL_API_ENDPOINTS } from 'payroll-link/server';
import { addEndpointRoute } from '../http/endpoint-route.js';
import { notFound } from '../http/errors.js';
import { jsonResponse } from '../http/http-types.js';
import { CursorSchema, LimitSchema } from '../http/pagination.js';
import { JobNameSchema, JobStatusSchema } from '../state/resources.js';
import type { Router } from '../http/router.js';
import type { ApiExtra, SandboxDeps } from '../sandbox-deps.js';

const JOBS_QUERY = {
  account_id: z.uuid().optional(),
  status: JobStatusSchema.optional(),
  name: JobNameSchema.optional(),
  limit: LimitSchema,
  cursor: CursorSchema,
};

/** Adds the job routes. */
export const addJobRoutes = (router: Router<ApiExtra>, deps: SandboxDeps): void => {
  const { store, cursors } = deps;
  addEndpointRoute(router, PAYROLL_API_ENDPOINTS.jobs.list, { query: JOBS_QUERY }, ({ query }) => {
    const page = cursors.pageWhere('jobs', store.jobs(), (record) => record.job, query, { account_id: 'a', status: 's', name: 'n' });
    return jsonResponse(200, page);
  });
  addEndpointRoute(router, PAYROLL_API_ENDPOINTS.jobs.get, {}, ({ params }) => {
    const record = store.job(params.id);
    if (!record) throw notFound('JOB_NOT_FOUND', `No job ${params.id}`);
    return jsonResponse(200, { data: record.job });
  });
};
