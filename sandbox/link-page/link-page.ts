/**
 * Serves the hosted Link page: `GET /link` (HTML) and `GET /link/app.js`.
 * The page comes from `link-page-build.ts` (from source, with esbuild: the
 * repository) or `link-page-prebuilt.ts` (files built with the package: the
 * published sandbox, which needs no esbuild). While there is no page, both
 * answer 503 with a message that says why, and the rest of the sandbox works on.
 */
import { apiError } from '../http/errors.js';
import type { SandboxResponse } from '../http/http-types.js';
import type { Router } from '../http/router.js';

/** The Link page's headers: strict CSP, embeddable anywhere (it lives in the widget's iframe), no referrer. */
export const LINK_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors *",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** The built page, or why there is none. */
export type LinkPageBuild =
  { readonly ok: true; readonly html: string; readonly script: string } | { readonly ok: false; readonly reason: string };

/** Adds `GET /link` and `GET /link/app.js`. */
export const addLinkPageRoutes = (router: Router<null>, page: LinkPageBuild): void => {
  const unavailable = (): never => {
    throw apiError(503, 'SERVICE_UNAVAILABLE', 'LINK_PAGE_UNAVAILABLE', page.ok ? '' : page.reason);
  };
  router.on('GET', '/link', (): SandboxResponse => {
    if (!page.ok) return unavailable();
    return {
      status: 200,
      headers: { ...LINK_PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      body: page.html,
    };
  });
  router.on('GET', '/link/app.js', (): SandboxResponse => {
    if (!page.ok) return unavailable();
    return {
      status: 200,
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' },
      body: page.script,
    };
  });
};
