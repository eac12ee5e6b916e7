/**
 * `payroll-link/testing/sandbox`: the sandbox in a test runner's global setup, in one import. It starts
 * `startSandbox()` once for the whole run and hands its URL and secret to the tests as `SANDBOX_URL` and
 * `SANDBOX_SECRET`, the variables the `payroll-link-sandbox` commands read too: the test workers, started after the
 * setup, inherit them. Webhooks go to `SANDBOX_WEBHOOK_URL` when it is set (your receiver, its `?secret=` included).
 *
 * @example
 * ```ts
 * // vitest.config.ts (Vitest) or playwright.config.ts (Playwright Test): the default export is the setup, and
 * // the function it returns the teardown, as both runners expect.
 * export default defineConfig({ test: { globalSetup: ['payroll-link/testing/sandbox'] } });
 * // jest.config.js (Jest): the teardown is its own module option.
 * export default { globalSetup: 'payroll-link/testing/sandbox', globalTeardown: 'payroll-link/testing/sandbox/teardown' };
 * ```
 */
import { startSandbox, type Sandbox, type SandboxOptions } from './start-sandbox.js';

/** The sandbox this process started (Jest's teardown runs in the setup's process and finds it here). */
let running: Sandbox | undefined;

/**
 * A global setup that starts a sandbox with `options` (a free port unless given; `webhookUrl` defaults to
 * `SANDBOX_WEBHOOK_URL`), sets `SANDBOX_URL` and `SANDBOX_SECRET`, and resolves with its teardown. Bad options
 * fail the setup with the sandbox's own typed error, before any test runs.
 */
export function sandboxSetup(options: SandboxOptions = {}): () => Promise<() => Promise<void>> {
  return async () => {
    if (running) throw new Error('payroll-link/testing/sandbox: a sandbox is already running in this process (setup ran twice?)');
    const webhookUrl = options.webhookUrl ?? process.env.SANDBOX_WEBHOOK_URL;
    running = await startSandbox({ port: 0, ...options, ...(webhookUrl ? { webhookUrl } : {}) });
    process.env.SANDBOX_URL = running.url;
    process.env.SANDBOX_SECRET = running.secret;
    return teardown;
  };
}

/** The default setup: {@link sandboxSetup} with the sandbox's defaults. */
const globalSetup = sandboxSetup();
export default globalSetup;

/** Stops the sandbox the setup started (Jest's `globalTeardown`; Vitest and Playwright Test call what the setup returned). */
export async function teardown(): Promise<void> {
  const sandbox = running;
  running = undefined;
  await sandbox?.close();
}
