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
export { startSandbox, type Sandbox, type SandboxOptions } from './start-sandbox.js';
export type { WebhookEvent, WebhookEventName, WebhookPayload } from './state/resources.js';
