// The docs site with its live examples: the sandbox service, the example backend that mints Link tokens with
// the sandbox's secret, and VitePress's dev server over docs/, whose `/api` goes to that backend. In one
// process, like the demo (scripts/start-demo.ts), so one Ctrl-C stops everything. `npm run docs` runs it.
import { fileURLToPath } from 'node:url';
import { generateSecret } from '../sandbox/http/auth.js';
import { startSandbox } from '../sandbox/start-sandbox.js';
import { startExampleServer } from '../server-example/server.js';

/** Where the site listens (0: a free port) and whether it reloads on edits (off for tests). */
export interface DocsSiteOptions {
  port?: number;
  live?: boolean;
  /** Where the servers report; silent by default. */
  log?: (line: string) => void;
}

/** The running site: its URL and the sandbox behind its live examples. */
export interface DocsSite {
  /** The docs' home, e.g. http://localhost:5174/ */
  url: string;
  sandboxUrl: string;
  close(): Promise<void>;
}

const docsDir = fileURLToPath(new URL('../docs/', import.meta.url));

/** Starts the sandbox (free port), the example backend (free port) and the docs site. */
export async function startDocsSite(options: DocsSiteOptions = {}): Promise<DocsSite> {
  const log = options.log ?? (() => {});
  const line = (message: string, fields?: Record<string, unknown>) => log(fields ? `${message} ${JSON.stringify(fields)}` : message);
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => {});
  };
  try {
    const secret = generateSecret();
    // The sandbox first, on a free port, so the backend learns its URL. No webhooks: the live examples show the
    // widget's side only (the demo, `npm run demo`, shows the webhooks).
    const sandbox = await startSandbox({ port: 0, secret, log });
    closers.push(() => sandbox.close());
    const backend = await startExampleServer({
      port: 0,
      apiSecret: secret,
      baseUrl: sandbox.url,
      version: '2025-07-08',
      orgName: 'payroll-link docs',
      solution: 'Deposit Switch',
      features: ['direct_deposit_switch'],
      log: { info: line, warn: line, error: line },
    });
    closers.push(() => backend.close());

    // docs/.vitepress/config.ts reads these when the server starts: the proxy target and the Link page.
    process.env.DOCS_BACKEND_URL = backend.url;
    process.env.DOCS_LINK_URL = `${sandbox.url}/link`;
    const { createServer } = await import('vitepress');
    const server = await createServer(docsDir, {
      port: options.port ?? 5174,
      strictPort: options.port !== undefined,
      host: 'localhost',
      ...(options.live === false ? { hmr: false, watch: null } : {}),
    });
    closers.push(() => server.close());
    await server.listen();
    const address = server.httpServer?.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    return { url: `http://localhost:${port}/`, sandboxUrl: sandbox.url, close };
  } catch (error) {
    await close();
    throw error;
  }
}
