/**
 * The rule of a route that only its own page calls (a launch's token and result routes): a browser must have sent
 * the request from that page's origin, so that another site's page cannot spend a launch's tokens or report on it
 * through the user's browser. Fetch Metadata decides where a browser sends it; `Origin` where it does not.
 */
import type { ErrorAnswer } from '../error-response.js';
import { HttpError } from './http-error.js';

/**
 * The `Sec-Fetch-Site` values a route of the page's own takes: `same-origin` (the page's own `fetch`) and `none`
 * (the user's own action, which no page can cause). `same-site` is refused too: a sibling host of the same site
 * (another subdomain, perhaps someone else's content) is not the page.
 */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

const CROSS_SITE: ErrorAnswer = {
  status: 403,
  type: 'FORBIDDEN',
  code: 'CROSS_SITE_REQUEST',
  message: 'This route takes requests from its own page only.',
};

/**
 * Throws the 403 `CROSS_SITE_REQUEST` (logged as a warning for `subject`) unless the request came from `origin`'s
 * own page: its `Sec-Fetch-Site` is `same-origin` or `none`, or, from a browser without Fetch Metadata (Safari
 * before 16.4), its `Origin` is `origin`. A request with neither header is no browser's (a server, `curl`): no
 * page made it, and what it may do is the route's own check's to say.
 */
export function requireOwnOrigin(request: Request, origin: string, subject: string): void {
  const site = request.headers.get('sec-fetch-site');
  const from = request.headers.get('origin');
  const allowed = site !== null ? OWN_FETCH_SITES.has(site.toLowerCase()) : from === null || from === origin;
  if (allowed) return;
  throw new HttpError(CROSS_SITE, {
    level: 'warn',
    message: `${subject}: a request from another site was refused`,
    fields: { secFetchSite: site, origin: from },
  });
}
