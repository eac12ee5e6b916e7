/**
 * The catalogue endpoints: `GET /employers` (also `/v1/employers`),
 * `GET /v1/platforms` (also `/platforms`) and `GET /v1/platforms/{id}`.
 */
import { z } from 'zod';
import { notFound } from '../http/errors.js';
import { jsonResponse } from '../http/http-types.js';
import { CursorSchema, LimitSchema, MAX_PAGE_SIZE, limitSchema } from '../http/pagination.js';
import { PlatformTypeSchema } from '../state/resources.js';
import type { RouteHandler, Router } from '../http/router.js';
import type { ApiExtra, SandboxDeps } from '../sandbox-deps.js';
import { parseParam, parseQuery, readJsonObject } from '../http/validate.js';

const EmployersQuerySchema = z.strictObject({ limit: LimitSchema, cursor: CursorSchema });
// Platforms are few: by default the whole list fits one page.
const PlatformsQuerySchema = z.strictObject({
  type: PlatformTypeSchema.optional(),
  limit: limitSchema(MAX_PAGE_SIZE),
  cursor: CursorSchema,
});

/** Adds the catalogue routes. */
export const addCatalogueRoutes = (router: Router<ApiExtra>, deps: SandboxDeps): void => {
  const { catalogue } = deps.store;

  const employers: RouteHandler<ApiExtra> = ({ request }) => {
    // The spec's examples put limit and cursor in the request payload; the query string is accepted too and wins.
    const fromBody = readJsonObject(request, true) ?? {};
    const query = parseQuery(request, EmployersQuerySchema, fromBody);
    const items = catalogue.employers.map((entry, position) => ({ employer: entry.item, position }));
    const page = deps.cursors.page(items, {
      scope: 'employers',
      limit: query.limit,
      cursor: query.cursor,
      position: (entry) => entry.position,
      view: (entry) => entry.employer,
    });
    return jsonResponse(200, page);
  };

  const platforms: RouteHandler<ApiExtra> = ({ request }) => {
    const query = parseQuery(request, PlatformsQuerySchema);
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
  };

  const platform: RouteHandler<ApiExtra> = ({ params }) => {
    const id = parseParam('id', params['id']!, z.uuid());
    const found = catalogue.platformById.get(id);
    if (!found) throw notFound('PLATFORM_NOT_FOUND', `No platform ${id}`);
    return jsonResponse(200, { data: found });
  };

  router
    .on('GET', '/employers', employers)
    .on('GET', '/v1/employers', employers)
    .on('GET', '/platforms', platforms)
    .on('GET', '/v1/platforms', platforms)
    .on('GET', '/v1/platforms/:id', platform);
};
