/**
 * A small route table: `METHOD /path/:param` patterns, 404 for an unknown
 * path and 405 (with `Allow`) for a known path with the wrong method.
 */
import { apiError } from './errors.js';
import type { SandboxRequest, SandboxResponse } from './http-types.js';

/** What a handler gets: the request and the named path parameters. */
export interface RouteContext<C> {
  readonly request: SandboxRequest;
  readonly params: Readonly<Record<string, string>>;
  /** Per-request extras from the caller (e.g. the Service-Version in use). */
  readonly extra: C;
}

/** A route handler. Throw `ApiError` to answer with the error body. */
export type RouteHandler<C> = (context: RouteContext<C>) => SandboxResponse | Promise<SandboxResponse>;

interface Route<C> {
  readonly method: string;
  readonly segments: readonly string[];
  readonly handler: RouteHandler<C>;
}

/** Splits a path into its segments; `/a/b/` and `/a/b` are the same path. */
const segmentsOf = (path: string): string[] => path.split('/').filter((segment) => segment !== '');

/** A route table. `C` is the per-request extra passed to every handler. */
export class Router<C> {
  readonly #routes: Route<C>[] = [];

  /** Adds a route; `:name` segments capture a path parameter. Returns the router for chaining. */
  on(method: string, pattern: string, handler: RouteHandler<C>): this {
    this.#routes.push({ method: method.toUpperCase(), segments: segmentsOf(pattern), handler });
    return this;
  }

  /**
   * Runs the matching handler.
   *
   * @throws ApiError 404 ROUTE_NOT_FOUND when no pattern matches the path, 405 METHOD_NOT_ALLOWED when one does but not for this method.
   */
  async handle(request: SandboxRequest, extra: C): Promise<SandboxResponse> {
    const path = segmentsOf(request.url.pathname);
    const allowed = new Set<string>();
    for (const route of this.#routes) {
      const params = match(route.segments, path);
      if (!params) continue;
      if (route.method === request.method) return route.handler({ request, params, extra });
      allowed.add(route.method);
    }
    if (allowed.size > 0) {
      const allow = [...allowed].sort().join(', ');
      throw apiError(
        405,
        'METHOD_NOT_ALLOWED',
        'METHOD_NOT_ALLOWED',
        `${request.method} is not allowed on ${request.url.pathname}; allowed: ${allow}`,
        {
          allow,
        },
      );
    }
    throw apiError(404, 'NOT_FOUND', 'ROUTE_NOT_FOUND', `No endpoint at ${request.method} ${request.url.pathname}`);
  }
}

/** The captured parameters when the pattern matches the path, else null. */
const match = (pattern: readonly string[], path: readonly string[]): Record<string, string> | null => {
  if (pattern.length !== path.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index += 1) {
    const expected = pattern[index]!;
    const actual = path[index]!;
    if (expected.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(actual);
      } catch {
        return null;
      }
      params[expected.slice(1)] = decoded;
    } else if (expected !== actual) {
      return null;
    }
  }
  return params;
};
