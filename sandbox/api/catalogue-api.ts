/**
 * The catalogue endpoints: `GET /employers` (also `/v1/employers`),
 * `GET /v1/platforms` (also `/platforms`) and `GET /v1/platforms/{id}`.
 */
import { PAYROLL_API_ENDPOINTS } from 'payroll-link/server';
import { addEndpointRoute } from '../http/endpoint-route.js';
import { notFound } from '../http/errors.js';
import { jsonResponse } from '../http/http-types.js';
import { CursorSchema, LimitSchema, MAX_PAGE_SIZE, limitSchema } from '../http/pagination.js';
import { PlatformTypeSchema } from '../state/resources.js';
import type { Router } from '../http/router.js';
import type { ApiExtra, SandboxDeps } from '../sandbox-deps.js';

// Platforms are few: by default the whole list fits one page.
const PLATFORMS_QUERY = { type: PlatformTypeSchema.optional(), limit: limitSchema(MAX_PAGE_SIZE), cursor: CursorSchema };

/** Adds the catalogue routes. */
export const addCatalogueRoutes = (router: Router<ApiExtra>, deps: SandboxDeps): void => {
  const { catalogue } = deps.store;
  const rows = PAYROLL_API_ENDPOINTS;

  // The spec's examples put limit and cursor in the request payload; the query string is accepted too and wins.
  const employersNarrowing = {
    alsoAt: ['/v1/employers'],
    queryAlsoInBody: true,
    query: { limit: LimitSchema, cursor: CursorSchema },
  } as const;
  addEndpointRoute(router, rows.employers.list, employersNarrowing, ({ query }) => {
    const items = catalogue.employers.map((entry, position) => ({ employer: entry.item, position }));
    const page = deps.cursors.page(items, {
      scope: 'employers',
      limit: query.limit,
      cursor: query.cursor,
      position: (entry) => entry.position,
      view: (entry) => entry.employer,
    });
    return jsonResponse(200, page);
  });

  addEndpointRoute(router, rows.platforms.list, { alsoAt: ['/platforms'], query: PLATFORMS_QUERY }, ({ query }) => {
    const items = catalogue.platforms.map((entry, position) => ({ platform: entry.item, position }));
    const filtered = query.type ? items.filter((entry) => entry.platform.type === query.type) : items;
    const page = deps.cursors.page(filtered, {
      scope: `platforms?type=${query.type ?? ''}`,
      limit: query.limit,
      cursor: query.cursor,
      position: (entry) => entry.position,
      view: (entry) => entry.platform,
    });
    return jsonResponse(200, page);
  });

  addEndpointRoute(router, rows.platforms.get, {}, ({ params }) => {
    const found = catalogue.platformById.get(params.id);
    if (!found) throw notFound('PLATFORM_NOT_FOUND', `No platform ${params.id}`);
    return jsonResponse(200, { data: found });
  });
};
