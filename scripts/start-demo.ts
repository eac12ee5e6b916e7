import { createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { generateSecret } from '../sandbox/http/auth.js';
import { startSandbox } from '../sandbox/start-sandbox.js';
import type { SandboxStore } from '../sandbox/state/store.js';
import { startExampleServer } from '../server-example/server.js';

/** Where each part of the demo listens; 0 picks a free port. */
export interface DemoOptions {
  sandboxPort?: number;
  backendPort?: number;
  demoPort?: number;
  /** Lifetime of the sandbox's Link tokens (the end-to-end tests shorten it). */
  tokenTtlSeconds?: number;
  /** The sandbox's clock (the end-to-end tests move it forward instead of waiting); the system clock by default. */
  now?: () => Date;
  /** How long the sandbox's user_pending keeps its job running (the end-to-end tests lengthen it); the sandbox's default otherwise. */
  pendingJobDelayMs?: number;
  /** Reload the page when files change (on for people, off for tests: an edit must not reload a page mid-test). */
  live?: boolean;
  /** Where the three servers report; silent by default. */
  log?: (line: string) => void;
}

/** The running demo: the page's URL and the parts behind it. */
export interface Demo {
  /** The demo page, e.g. http://localhost:5173/ */
  url: string;
  sandboxUrl: string;
  backendUrl: string;
  /** The sandbox's in-memory state (accounts and their data), for the end-to-end tests to compare the page with. */
  sandboxStore: SandboxStore;
  /** Stops the three servers. */
  close(): Promise<void>;
}

/** A port is taken: a message for people, no stack trace needed. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
}

/**
 * Starts the sandbox service, the example backend (with the sandbox secret,
 * receiving the sandbox's webhooks) and the Vite dev server of `demo/`, all in
 * this process, so one Ctrl-C stops everything.
 */
export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const log = options.log ?? (() => {});
  const line = (message: string, fields?: Record<string, unknown>) => log(fields ? `${message} ${JSON.stringify(fields)}` : message);
  // A free port found by a probe may be taken by another process before we listen on it. So the
  // backend and the page listen on 0 themselves when asked for any free port; only the sandbox's port
  // is needed before it listens (the backend is told where it is), and the gap is the backend's start.
  const [sandboxPort, backendPort, demoPort] = await Promise.all([
    resolvePort(options.sandboxPort ?? 4010, 'the sandbox'),
    options.backendPort === 0 ? 0 : resolvePort(options.backendPort ?? 8787, 'the example backend'),
    options.demoPort === 0 ? 0 : resolvePort(options.demoPort ?? 5173, 'the demo page'),
  ]);
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => {});
  };
  try {
    const secret = generateSecret();
    const backend = await startExampleServer({
      port: backendPort,
      apiSecret: secret,
      baseUrl: `http://127.0.0.1:${sandboxPort}`,
      version: '2025-07-08',
      orgName: 'Acme Payroll Demo',
      solution: 'Deposit Switch',
      features: ['direct_deposit_switch'],
      log: { info: line, warn: line, error: line },
    });
    closers.push(() => backend.close());
    const sandbox = await startSandbox({
      port: sandboxPort,
      secret,
      // It carries the backend's webhook secret (new each run), which the backend checks on every delivery.
      webhookUrl: backend.webhookUrl,
      tokenTtlSeconds: options.tokenTtlSeconds,
      pendingJobDelayMs: options.pendingJobDelayMs,
      now: options.now,
      log,
    });
    closers.push(() => sandbox.close());

    // Vite reads these at config time: the proxy target and the page's Link URL.
    process.env.DEMO_BACKEND_URL = backend.url;
    process.env.DEMO_LINK_URL = `${sandbox.url}/link`;
    const { createServer } = await import('vite');
    const vite = await createServer({
      configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
      server: {
        port: demoPort,
        strictPort: true,
        host: 'localhost',
        ...(options.live === false ? { hmr: false, watch: null } : {}),
      },
      logLevel: 'silent',
      clearScreen: false,
    });
    closers.push(() => vite.close());
    await vite.listen();
    const listening = vite.httpServer?.address();
    const pagePort = typeof listening === 'object' && listening ? listening.port : demoPort;
    // The "Send a link" panel: launch URLs on the page's own origin (its proxy forwards /api to the backend). The demo
    // runs the sources, whose launch page carries a stand-in script: the backend gets the real one, built on first use.
    backend.serveLaunches({
      linkUrl: `${sandbox.url}/link`,
      publicOrigin: `http://localhost:${pagePort}`,
      pageScript: async () => (await import('./build-package.js')).launchPageScript(),
    });
    return { url: `http://localhost:${pagePort}/`, sandboxUrl: sandbox.url, backendUrl: backend.url, sandboxStore: sandbox.store, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The port itself when it is free (or a free one for 0); a {@link PortInUseError} naming the part otherwise. */
async function resolvePort(port: number, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', () =>
      reject(new PortInUseError(`Port ${port} for ${what} is already in use: stop what runs there and try again.`)),
    );
    probe.listen(port, port === 0 ? '127.0.0.1' : undefined, () => {
      const address = probe.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      probe.close(() => resolve(bound));
    });
  });
}
