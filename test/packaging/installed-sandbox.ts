// The sandbox as the packaging tests start it: from the installed package (`payroll-link/sandbox`), as an
// integrator's tests would, with its webhooks sent to the app under test.
import { pathToFileURL } from 'node:url';
import { installedPackageDir } from './install-packed.js';

/** What `payroll-link/sandbox` (installed) gives the tests. */
export interface InstalledSandbox {
  url: string;
  secret: string;
  webhooks: {
    deliveries: { event: { event: string; payload: Record<string, unknown> }; status: string; lastError: unknown }[];
    whenSettled(delivery: InstalledSandbox['webhooks']['deliveries'][number]): Promise<{ status: string; lastError: unknown }>;
  };
  /** The sandbox's state, as far as the tests read it. */
  store: {
    linkTokens(): { id: string; token: string; endUserId: string | null }[];
    accounts(): { account: { id: string; end_user_id: string | null; link_token_id: string | null } }[];
    jobs(): { job: { id: string; account_id: string; link_token_id: string | null; status: string } }[];
  };
  close(): Promise<void>;
}

/** What a test may set beside the defaults: `fields: 'spec'` (`--fields spec`) sends only the fields the spec shows. */
export interface InstalledSandboxOptions {
  fields?: 'full' | 'spec';
}

/**
 * Starts the installed sandbox on a free port, delivering its webhooks to `webhookUrl` (retried after 20 ms) and its
 * log lines to `log`; `options` go to `startSandbox` as given.
 */
export async function startInstalledSandbox(
  webhookUrl: string,
  log: (line: string) => void,
  options: InstalledSandboxOptions = {},
): Promise<InstalledSandbox> {
  const { startSandbox } = (await import(pathToFileURL(`${installedPackageDir}/dist/sandbox/index.js`).href)) as {
    startSandbox(options: Record<string, unknown>): Promise<InstalledSandbox>;
  };
  return startSandbox({ port: 0, webhookUrl, webhookRetryBaseMs: 20, log, ...options });
}
