import { createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../sandbox/server.js';
import { startExampleServer } from '../server-example/server.js';

/** Where each part of the demo listens; 0 picks a free port. */
export interface DemoOptions {
  sandboxPort?: number;
  backendPort?: number;
  demoPort?: number;
  /** Lifetime of the sandbox's Link tokens (the end-to-end tests shorten it). */
  tokenTtlSeconds?: number;
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
  const [sandboxPort, backendPort, demoPort] = await Promise.all([
    resolvePort(options.sandboxPort ?? 4010, 'the sandbox'),
    resolvePort(options.backendPort ?? 8787, 'the example backend'),
    resolvePort(options.demoPort ?? 5173, 'the demo page'),
  ]);
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => {});
  };
  // The webhook URL's shared secret: new for every run, known to the sandbox (which delivers) and the backend (which checks).
  const webhookSecret = `whsec_${crypto.randomUUID().replaceAll('-', '')}`;
  try {
    const sandbox = await startSandbox({
      port: sandboxPort,
      webhookUrl: `http://127.0.0.1:${backendPort}/api/webhooks?secret=${webhookSecret}`,
      tokenTtlSeconds: options.tokenTtlSeconds,
      log,
    });
    closers.push(() => sandbox.close());
    const backend = await startExampleServer({
      port: backendPort,
      apiSecret: sandbox.secret,
      baseUrl: sandbox.url,
      version: '2025-07-08',
      orgName: 'Acme Payroll Demo',
      solution: 'Deposit Switch',
      features: ['direct_deposit_switch'],
      webhookSecret,
      log: { info: line, warn: line, error: line },
    });
    closers.push(() => backend.close());

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
    return { url: `http://localhost:${demoPort}/`, sandboxUrl: sandbox.url, backendUrl: backend.url, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The port itself when it is free (or a free one for 0); a {@link PortInUseError} naming the part otherwise. */
async function resolvePort(port: number, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', () => reject(new PortInUseError(`Port ${port} for ${what} is already in use: stop what runs there and try again.`)));
    probe.listen(port, port === 0 ? '127.0.0.1' : undefined, () => {
      const address = probe.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      probe.close(() => resolve(bound));
    });
  });
}
