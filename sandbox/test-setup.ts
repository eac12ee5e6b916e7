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

/** The sandbox this process started (Jest's teardown runs in the setup's process and finds it here), and how many setups share it. */
let running: { sandbox: Promise<Sandbox>; users: number } | undefined;

/**
 * A global setup that starts a sandbox with `options` (a free port unless given; `webhookUrl` defaults to
 * `SANDBOX_WEBHOOK_URL`), sets `SANDBOX_URL` and `SANDBOX_SECRET`, and resolves with its teardown. Bad options
 * fail the setup with the sandbox's own typed error, before any test runs. A second setup in the same process (two
 * Vitest projects that both name it) shares the first one's sandbox; the last teardown stops it.
 */
export function sandboxSetup(options: SandboxOptions = {}): () => Promise<() => Promise<void>> {
  return async () => {
    if (running) running.users++;
    else {
      const webhookUrl = options.webhookUrl ?? process.env.SANDBOX_WEBHOOK_URL;
      running = { sandbox: startSandbox({ port: 0, ...options, ...(webhookUrl ? { webhookUrl } : {}) }), users: 1 };
      // A setup that failed leaves nothing behind: the next one starts afresh.
      running.sandbox.catch(() => (running = undefined));
    }
    const sandbox = await running.sandbox;
    process.env.SANDBOX_URL = sandbox.url;
    process.env.SANDBOX_SECRET = sandbox.secret;
    let tornDown = false;
    return async () => {
      if (tornDown) return;
      tornDown = true;
      await release();
    };
  };
}

/** The default setup: {@link sandboxSetup} with the sandbox's defaults. */
const globalSetup = sandboxSetup();
export default globalSetup;

/** One setup is done with the sandbox: the last stops it. */
async function release(): Promise<void> {
  const shared = running;
  if (!shared || --shared.users > 0) return;
  running = undefined;
  await (await shared.sandbox).close();
}

/** Stops the sandbox the setup started (Jest's `globalTeardown`; Vitest and Playwright Test call what the setup returned). */
export async function teardown(): Promise<void> {
  await release();
}
