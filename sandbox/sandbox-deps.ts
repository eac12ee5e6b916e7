/**
 * What the endpoint modules share: the store, event emission, the job
 * runner, the cursor codec and the configured lifetimes.
 */
import type { JobRunner } from './job-runner.js';
import type { CursorCodec } from './pagination.js';
import type { SandboxStore } from './store.js';
import type { ServiceVersion } from './versions.js';
import type { Emit } from './webhooks.js';

/** The sandbox's parts, handed to each endpoint module. */
export interface SandboxDeps {
  readonly store: SandboxStore;
  readonly emit: Emit;
  readonly runner: JobRunner;
  readonly cursors: CursorCodec;
  readonly tokenTtlSeconds: number;
  /** The version webhooks are sent as (which account events exist). */
  readonly webhookVersion: ServiceVersion;
}

/** Per-request data of the service API routes. */
export interface ApiExtra {
  /** The Service-Version that processes the request. */
  readonly version: ServiceVersion;
}
