/**
 * `payroll-link/sandbox`: the payroll service's sandbox mode on loopback, for
 * integrators' test set-ups (Playwright `globalSetup`, Vitest, Jest,
 * node:test) and dev loops. Offline, in memory, one call.
 *
 * @example
 * ```ts
 * import { startSandbox } from 'payroll-link/sandbox';
 *
 * const sandbox = await startSandbox({ webhookUrl: 'http://127.0.0.1:3000/api/webhooks?secret=whsec_test_0123456789abcdef' });
 * process.env.PAYROLL_BASE_URL = sandbox.url;
 * process.env.PAYROLL_API_SECRET = sandbox.secret;
 * // … run the tests …
 * await sandbox.close();
 * ```
 */
import type { SandboxWebhookEventName, SandboxWebhookPayload } from './state/resources.js';

export { startSandbox, type Sandbox, type SandboxOptions } from './start-sandbox.js';
export type { SandboxWebhookEvent, SandboxWebhookEventName, SandboxWebhookPayload } from './state/resources.js';
/**
 * The payload of the sandbox's webhook event `N`.
 *
 * @deprecated Use {@link SandboxWebhookPayload}: the sandbox's webhook types are named `SandboxWebhook*` since 0.2.0.
 */
export type WebhookPayload<N extends SandboxWebhookEventName> = SandboxWebhookPayload<N>;
