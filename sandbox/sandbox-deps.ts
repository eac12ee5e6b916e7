/**
 * What the endpoint modules share: the store, event emission, the job
 * runner, the cursor codec and the configured lifetimes.
 */
import type { JobRunner } from './state/job-runner.js';
import type { CursorCodec } from './http/pagination.js';
import type { SandboxStore } from './state/store.js';
import type { ServiceVersion } from './http/versions.js';
import type { SandboxWebhookEvent } from './state/resources.js';
import type { Emit } from './state/webhooks.js';
import type { EndpointExtra } from './http/endpoint-route.js';

/** The sandbox's parts, handed to each endpoint module. */
export interface SandboxDeps {
  readonly store: SandboxStore;
  readonly emit: Emit;
  /** Delivers an event already emitted once more, as the service's retries do: same envelope, same `event_id`, not recorded again. */
  readonly redeliver: (event: SandboxWebhookEvent) => void;
  readonly runner: JobRunner;
  readonly cursors: CursorCodec;
  readonly tokenTtlSeconds: number;
  /** The version webhooks are sent as (which account events exist). */
  readonly webhookVersion: ServiceVersion;
}

/** Per-request data of the service API routes: the version that processes the request, the fields its answer carries. */
export interface ApiExtra extends EndpointExtra {
  /** The Service-Version that processes the request. */
  readonly version: ServiceVersion;
}
