/**
 * `payroll-link/server`: the backend half, for Node ≥ 20 and every Web-standard runtime (Bun, Deno, Cloudflare Workers,
 * Vercel and Netlify functions). Two handlers of `Request` → `Response`: the Link token endpoint your page's
 * `<payroll-link token-url>` calls, and the receiver of the service's webhooks. No Node built-ins here; the Node
 * adapter is `payroll-link/server/node`.
 */
import './zod-version.js';

export { ConfigError } from './config-error.js';
export {
  createPayrollClient,
  type AccountListParams,
  type CreateJobBody,
  type JobListParams,
  type LinkTokenCreateBody,
  type PageParams,
  type PayrollClient,
  type PlatformListParams,
  type NoContent,
  type ResponseMeta,
  type WaitOptions,
  type WithResponse,
} from './client/payroll-client.js';
export type { CallOptions, ClientOptions, RequestInfo, ResponseInfo } from './client/client-options.js';
export { PAYROLL_API_ENDPOINTS, type PathParam, type PayrollApiEndpoint } from './client/payroll-api-endpoints.js';
export { isPayrollApiError, PayrollApiError, type PayrollApiErrorKind } from './client/payroll-api-error.js';
export { PayrollList, type PayrollPage } from './client/payroll-list.js';
export { inProcessRateLimiter, type RateLimiter, type RequestAnswered } from './client/rate-limiter.js';
export * from './client/resource-schemas.js';
export { ErrorBodySchema, type ErrorBody, type ErrorCode } from './error-body.js';
export { errorResponse, invalidParamsResponse, jsonResponse, simpleErrorResponse } from './error-response.js';
export type { ClaimResult, EventClaimStore } from './webhooks/event-claim-store.js';
export { memoryEventIdStore, type EventIdStore } from './webhooks/event-id-store.js';
export {
  createLinkTokenHandler,
  LinkTokenRequestSchema,
  type AccountAuthorizer,
  type EndUserResolver,
  type LinkTokenFieldsProvider,
  type LinkTokenHandlerConfig,
} from './link-token/link-token-handler.js';
export type { Logger } from './logger.js';
export { isLoopbackHost } from './handler/loopback.js';
export { SERVICE_VERSIONS, type ServiceVersion } from './client/service-version.js';
// Every name of the module is public: the events' schemas and types, so a new event is exported with no edit here.
export * from './webhooks/webhook-events.js';
export { createWebhookHandler, type WebhookAcknowledgement, type WebhookHandlerOptions } from './webhooks/webhook-handler.js';
