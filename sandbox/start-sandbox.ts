/**
 * `startSandbox()`: the service's sandbox mode on loopback, with its hosted
 * Link page. In memory; each call is an independent sandbox.
 *
 * @example
 * ```ts
 * const sandbox = await startSandbox({ port: 0, rateLimitPerSecond: 1000 });
 * const res = await fetch(`${sandbox.url}/link_tokens`, {
 *   method: 'POST',
 *   headers: { 'x-api-secret': sandbox.secret, 'Service-Version': '2025-07-08', 'content-type': 'application/json' },
 *   body: JSON.stringify({ org_name: 'Acme', features: ['direct_deposit_switch'], solution: 'deposit_switch' }),
 * });
 * await sandbox.close();
 * ```
 */
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { createSandboxHandler } from './app.js';
import { allowedHostSchema, hostRule, isLoopbackAddress } from './http/allowed-hosts.js';
import { generateSecret, modeOfSecret } from './http/auth.js';
import { addAccountRoutes } from './api/accounts-api.js';
import { addCatalogueRoutes } from './api/catalogue-api.js';
import { JobRunner } from './state/job-runner.js';
import { addJobRoutes } from './api/jobs-api.js';
import { addLinkApiRoutes } from './api/link-api.js';
import { addLinkPageRoutes } from './link-page/link-page.js';
import { buildLinkPage } from './link-page/link-page-build.js';
import { addLinkTokenRoutes } from './api/link-tokens-api.js';
import { createNodeServer } from './http/node-adapter.js';
import { CursorCodec } from './http/pagination.js';
import { RateLimiter } from './http/rate-limit.js';
import { addReportRoutes } from './api/reports-api.js';
import { Router } from './http/router.js';
import { addTriggerRoutes } from './api/triggers-api.js';
import { LATEST_VERSION, ServiceVersionSchema } from './http/versions.js';
import type { ApiExtra, SandboxDeps } from './sandbox-deps.js';
import { SandboxFieldsSchema } from './state/spec-fields.js';
import { specPayload } from './state/spec-projection.js';
import { SandboxStore } from './state/store.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS, WebhookSender, type Emit } from './state/webhooks.js';

const delay = () => z.number().int().min(0).max(3_600_000);

/** Options of {@link startSandbox}, validated; every field is optional. */
export const SandboxOptionsSchema = z
  .strictObject({
    /** TCP port; 0 (the default here) picks a free one. The CLI defaults to 4010. */
    port: z.number().int().min(0).max(65535).default(0),
    /**
     * Interface to listen on: loopback (`127.0.0.1`, the default; `localhost`, `::1`). Any other (`0.0.0.0`, `::`, a
     * LAN address or name) is refused unless `allowRemote` is true.
     */
    host: z.string().min(1).default('127.0.0.1'),
    /**
     * Lets `host` be an interface other machines can reach. Then anyone who reaches the port can drive the sandbox: its
     * secret is a test credential, and its triggers post webhooks (with the secret in `webhookUrl`) to your backend.
     * Only on a network you trust; for a phone or an emulator, `adb reverse` or a tunnel keeps it on loopback.
     */
    allowRemote: z.boolean().default(false),
    /**
     * Names the sandbox answers beside `localhost`, `*.localhost`, IP addresses and `host`: a tunnel's
     * (`tunnel.example`), or `.ngrok-free.app` for every name under it. A request addressed to any other name (its
     * `Host` header) gets 421 `HOST_NOT_ALLOWED`: a page can point a DNS name of its own at 127.0.0.1 (DNS rebinding).
     */
    allowedHosts: z.array(allowedHostSchema('each allowed host')).max(100).default([]),
    /** The sandbox API secret; a fresh random `sandbox_…` one by default. A secret of another mode is refused. */
    secret: z
      .string()
      .min(8)
      .max(200)
      .refine(
        (secret) => modeOfSecret(secret) === 'sandbox' || modeOfSecret(secret) === null,
        'must be a sandbox secret, not one of another mode',
      )
      .optional(),
    /**
     * The Service-Version webhooks are sent as, as the service does by the integrator's account setting:
     * up to 2021-07-28, account moves send the deprecated `account.disconnected` / `account.reconnected`;
     * later ones `account.monitoring_status.updated`. The latest by default.
     */
    webhookVersion: ServiceVersionSchema.default(LATEST_VERSION),
    /**
     * Which fields the service API's answers and the webhooks carry: `full`, everything the sandbox has (the
     * default), or `spec`, only what the service's spec promises (`state/spec-fields.ts`, `docs/sandbox.md`), to
     * test that your code does not rely on what the spec does not promise. The Link page's API and the
     * `/sandbox/*` triggers answer whole either way.
     */
    fields: SandboxFieldsSchema.default('full'),
    /** Where webhooks are POSTed; null or absent sends none (events are still recorded in `store.events`). */
    // No user:password@ in the URL: fetch refuses such URLs, and its error (URL included) would reach the log.
    webhookUrl: z
      .url({ protocol: /^https?$/ })
      .refine((url) => new URL(url).username === '' && new URL(url).password === '', 'must not carry a user name or password')
      .nullable()
      .default(null),
    /** Requests per second per secret before 429; 0 turns the limit off. */
    rateLimitPerSecond: z.number().min(0).default(10),
    /** Lifetime of a Link token. */
    tokenTtlSeconds: z
      .number()
      .positive()
      .max(30 * 86_400)
      .default(3600),
    /** How long a `user_pending` job stays pending before it fails with JOB_TIMEOUT. */
    pendingJobDelayMs: delay().default(10_000),
    /** How long any other job runs before it succeeds (or fails, for `user_error`). */
    jobDelayMs: delay().default(300),
    /** Delay before the first webhook retry; doubles on each further retry. */
    webhookRetryBaseMs: delay().default(1000),
    /** Webhook attempts per event, the first included. */
    webhookMaxAttempts: z.number().int().min(1).max(20).default(5),
    /**
     * Time allowed for one webhook attempt. Longer than `payroll-link/server`'s webhook handler can take
     * by default (its `callbackTimeoutMs`, 10 s, plus its two store calls, 5 s each), so that a slow callback
     * gets the handler's own 503 `CALLBACK_TIMEOUT` and a retry, not an attempt aborted under it. With a
     * larger `callbackTimeoutMs`, set this to at least that + 10 s.
     */
    webhookTimeoutMs: delay().default(DEFAULT_WEBHOOK_TIMEOUT_MS),
    /** Largest request body accepted; larger is a 413. */
    maxBodyBytes: z.number().int().min(1024).max(10_000_000).default(100_000),
    /** The sandbox's clock: timestamps, Link token expiry and the rate limit's window read it. The system clock by default; a test moves (or stops) its own clock instead of waiting. */
    now: z.custom<() => Date>((value) => typeof value === 'function', 'must be a function').optional(),
    /** Receives one line per request and per webhook attempt; never the secret or a token. Silent by default. */
    log: z.custom<(line: string) => void>((value) => typeof value === 'function', 'must be a function').default(() => () => {}),
  })
  .superRefine((options, context) => {
    if (!options.allowRemote && !isLoopbackAddress(options.host))
      context.addIssue({
        code: 'custom',
        path: ['host'],
        message:
          `${options.host} is not a loopback address: anyone who can reach it could drive the sandbox with its test secret. ` +
          'Listen on 127.0.0.1, or set allowRemote: true if you mean it',
      });
  });

/** Options of {@link startSandbox}. */
export type SandboxOptions = z.input<typeof SandboxOptionsSchema>;

/** A running sandbox. */
export interface Sandbox {
  /** Base URL, e.g. `http://127.0.0.1:4010` (no trailing slash). The Link page is at `${url}/link`. */
  readonly url: string;
  /** The sandbox API secret for `x-api-secret`. A test credential; never use a real secret here. */
  readonly secret: string;
  /**
   * The in-memory state (accounts, jobs, tokens, emitted events), for tests and tools. Its records are whole in
   * either `fields` mode; its `events` are as sent, so in `spec` mode their payloads hold the spec's fields only
   * (their type still names the full payload's).
   */
  readonly store: SandboxStore;
  /** Webhook deliveries and their state. */
  readonly webhooks: WebhookSender;
  /** Stops listening, cancels running jobs and webhook retries. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts a sandbox.
 *
 * @throws Error with `code: 'EADDRINUSE'` when the port is taken; a ZodError for bad options, and for a `host` off
 *   loopback without `allowRemote`.
 */
export const startSandbox = async (options: SandboxOptions = {}): Promise<Sandbox> => {
  const config = SandboxOptionsSchema.parse(options);
  const secret = config.secret ?? generateSecret();
  const store = new SandboxStore({ now: config.now });
  const webhooks = new WebhookSender({
    url: config.webhookUrl,
    retryBaseMs: config.webhookRetryBaseMs,
    maxAttempts: config.webhookMaxAttempts,
    timeoutMs: config.webhookTimeoutMs,
    log: config.log,
  });
  const emit: Emit = (name, payload) => {
    const event = WebhookSender.envelope(name, config.fields === 'spec' ? specPayload(name, payload) : payload);
    store.events.push(event);
    webhooks.send(event);
    return event;
  };
  const runner = new JobRunner(store, emit, { jobDelayMs: config.jobDelayMs, pendingJobDelayMs: config.pendingJobDelayMs });
  const deps: SandboxDeps = {
    store,
    emit,
    redeliver: (event) => webhooks.send(event),
    runner,
    cursors: new CursorCodec(),
    tokenTtlSeconds: config.tokenTtlSeconds,
    webhookVersion: config.webhookVersion,
  };

  const apiRouter = new Router<ApiExtra>();
  addLinkTokenRoutes(apiRouter, deps);
  addCatalogueRoutes(apiRouter, deps);
  addAccountRoutes(apiRouter, deps);
  addJobRoutes(apiRouter, deps);
  addReportRoutes(apiRouter, deps);
  addTriggerRoutes(apiRouter, deps);
  const linkRouter = new Router<null>();
  addLinkPageRoutes(linkRouter, await buildLinkPage());
  addLinkApiRoutes(linkRouter, deps);

  const handler = createSandboxHandler({
    secret,
    requireAllowedHost: hostRule(config.host, config.allowedHosts),
    maxBodyBytes: config.maxBodyBytes,
    limiter: new RateLimiter(config.rateLimitPerSecond, config.now ? () => config.now!().getTime() : Date.now),
    apiRouter,
    fields: config.fields,
    linkRouter,
    log: config.log,
  });
  let url = '';
  const server = createNodeServer(handler, { maxBodyBytes: config.maxBodyBytes, origin: () => url });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${host}:${address.port}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      runner.close();
      webhooks.close();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  return { url, secret, store, webhooks, close };
};
