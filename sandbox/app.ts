/**
 * The sandbox as one request handler: request id, the Host rule (421, before
 * anything else: see allowed-hosts.ts), body cap, the Link page and its API (no
 * API secret), and the service API behind the spec's checks in order:
 * x-api-secret (401), Service-Version (400), rate limit (429), route (404/405). Every failure is the spec's error body; an unexpected exception
 * is a 500 with the request id, logged, and the process goes on.
 */
import { randomUUID } from 'node:crypto';
import { requireSecret } from './http/auth.js';
import { ApiError, apiError } from './http/errors.js';
import type { SandboxRequest, SandboxResponse } from './http/http-types.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { Router } from './http/router.js';
import type { ApiExtra } from './sandbox-deps.js';
import type { SandboxFields } from './state/spec-fields.js';
import { DEPRECATED_VERSIONS, LATEST_VERSION, ServiceVersionSchema, requireVersion } from './http/versions.js';

/** What {@link createSandboxHandler} puts together. */
export interface SandboxHandlerParts {
  readonly secret: string;
  /** Throws ApiError 421 for a `Host` header the sandbox does not serve (`hostRule`, http/allowed-hosts.ts). */
  readonly requireAllowedHost: (header: string | null) => void;
  readonly maxBodyBytes: number;
  readonly limiter: RateLimiter;
  readonly apiRouter: Router<ApiExtra>;
  /** The fields the service API's answers carry (the Link page's API answers whole either way). */
  readonly fields: SandboxFields;
  readonly linkRouter: Router<null>;
  readonly log: (line: string) => void;
}

/** A request handler. */
export type SandboxHandler = (request: SandboxRequest) => Promise<SandboxResponse>;

const isLinkPath = (path: string): boolean => path === '/link' || path.startsWith('/link/');

/** Builds the sandbox's request handler. */
export const createSandboxHandler =
  (parts: SandboxHandlerParts): SandboxHandler =>
  async (request) => {
    const started = Date.now();
    const requestId = randomUUID();
    const link = isLinkPath(request.url.pathname);
    // The version named in response headers: the request's when it is a known one, else the latest.
    const requested = ServiceVersionSchema.safeParse(request.headers.get('service-version')?.trim());
    const version = requested.success ? requested.data : LATEST_VERSION;
    let response: SandboxResponse;
    try {
      parts.requireAllowedHost(request.headers.get('host'));
      if (request.body.byteLength > parts.maxBodyBytes) {
        throw apiError(413, 'PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE', `The request body is larger than ${parts.maxBodyBytes} bytes`);
      }
      if (link) {
        response = await parts.linkRouter.handle(request, null);
      } else {
        const secret = requireSecret(request.headers.get('x-api-secret'), parts.secret);
        const checked = requireVersion(request.headers.get('service-version'));
        parts.limiter.hit(secret);
        response = await parts.apiRouter.handle(request, { version: checked, fields: parts.fields });
      }
    } catch (error) {
      if (error instanceof ApiError) {
        response = error.toResponse();
      } else {
        parts.log(`error ${requestId}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        response = apiError(
          500,
          'INTERNAL_ERROR',
          'INTERNAL_ERROR',
          `Unexpected error; retry later (request id ${requestId})`,
        ).toResponse();
      }
    }
    response.headers['x-service-request-id'] = requestId;
    if (!link) {
      response.headers['service-version'] = version;
      if (DEPRECATED_VERSIONS.has(version)) response.headers['deprecation'] = 'true';
    }
    // Path only: query strings may carry cursors or search text, and headers carry the secret; neither is logged.
    parts.log(`${request.method} ${request.url.pathname} ${response.status} ${Date.now() - started}ms ${requestId}`);
    return response;
  };
