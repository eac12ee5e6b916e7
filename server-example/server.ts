/**
 * The runnable example backend (`npm run server-example`): the Link token
 * endpoint, the webhook receiver and, for the demo, the account list, served by
 * node:http through a small adapter. Import {@link startExampleServer} to run
 * it in-process (the demo and the end-to-end tests do).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { createAccountsHandler } from './accounts.js';
import { ConfigError } from './config-error.js';
import { simpleErrorResponse } from './error-body.js';
import { createLinkTokenHandler, LinkTokenHandlerConfigSchema, type LinkTokenHandlerConfig } from './link-tokens.js';
import { isAddressedToLoopback, isLoopbackHost } from './loopback.js';
import { createWebhookReceiver, type WebhookReceiverOptions } from './webhooks.js';

// #region node-adapter (README "Plain Node" shows this region verbatim; a test keeps the two identical)
/** Node's request as a Web `Request`; the body streams through unread. */
export function toWebRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of [value ?? []].flat()) headers.append(name, item);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  // A fixed origin: handlers route on the path, and a forged Host header must not shift it.
  return new Request(new URL(req.url ?? '/', 'http://localhost'), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    duplex: 'half', // Node needs this for a streamed request body.
  } as RequestInit);
}

/** Writes a Web `Response` to Node's response. */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.appendHeader(name, value));
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** A node:http server for any Web-standard handler. */
export function serveWithNode(handle: (request: Request) => Promise<Response>): Server {
  return createServer(async (req, res) => {
    try {
      const response = await handle(toWebRequest(req));
      // A body left unread (a refused upload) would stall this connection's next request: close it instead.
      if (!req.complete) res.shouldKeepAlive = false;
      await sendWebResponse(response, res);
    } catch {
      // Last guard (the handlers answer their own failures): end the exchange, never crash the process.
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    }
  });
}
// #endregion

/** Where and what the example server serves, beside the token handler's configuration. */
const ServerOptionsSchema = z.object({
  /** Port to listen on; 0 (the default here) picks a free one. */
  port: z.int().min(0).max(65_535).default(0),
  /** Interface to listen on; loopback by default. */
  host: z.string().min(1).default('127.0.0.1'),
  /**
   * Whether to serve the demo page's routes, `GET /api/accounts` and
   * `GET /api/webhooks`. They answer anyone who reaches them (no
   * authentication: the demo has no users), so by default they are served
   * only when `host` is loopback (`127.0.0.1`, `::1`, `localhost`) and are a
   * 404 otherwise. `true` serves them on any host (with a warning in the log),
   * `false` never. Webhook deliveries (`POST /api/webhooks`) are always served.
   */
  demoRoutes: z.boolean().optional(),
});

/** Options of {@link startExampleServer}: the token handler's configuration plus where to listen. */
export type ExampleServerOptions = LinkTokenHandlerConfig &
  z.input<typeof ServerOptionsSchema> & {
    /** Tuning of the webhook receiver. */
    webhooks?: Omit<WebhookReceiverOptions, 'log'>;
  };

/** A running example server. */
export interface ExampleServer {
  /** Its base URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** Whether it serves the demo routes (see {@link ExampleServerOptions.demoRoutes}). */
  demoRoutes: boolean;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Starts the example backend with these routes:
 * - `POST /api/link-token`: {@link createLinkTokenHandler}
 * - `POST /api/webhooks`: the webhook receiver
 * - `GET /api/webhooks`, `GET /api/accounts`: its recent events and the integration's
 *   accounts, for the demo page; on loopback only unless `demoRoutes` says otherwise
 *
 * Rejects with a {@link ConfigError} (a message meant for people, no stack
 * needed) when the options are wrong or the port is taken.
 *
 * @example
 * const server = await startExampleServer({ port: 0, apiSecret, baseUrl: sandbox.url, version: '2025-07-08',
 *   orgName: 'Acme', solution: 'Deposit Switch', features: ['direct_deposit_switch'] });
 * await fetch(`${server.url}/api/link-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
 * await server.close();
 */
export async function startExampleServer(options: ExampleServerOptions): Promise<ExampleServer> {
  const parsed = ServerOptionsSchema.safeParse({ port: options.port, host: options.host, demoRoutes: options.demoRoutes });
  if (!parsed.success) throw ConfigError.fromZod('example server options', parsed.error);
  const { port, host } = parsed.data;
  const demoRoutes = parsed.data.demoRoutes ?? isLoopbackHost(host);
  if (demoRoutes && !isLoopbackHost(host)) {
    (options.log ?? console).warn(
      `demoRoutes is on while listening on ${host}: GET /api/accounts and GET /api/webhooks answer anyone who reaches them`,
    );
  }

  const notFound = async () => simpleErrorResponse(404, 'NOT_FOUND', 'NOT_FOUND', 'No such route.');
  const receiver = createWebhookReceiver({ ...options.webhooks, log: options.log }).handler;
  const accounts = createAccountsHandler(options);
  // Served on loopback by default: then only to requests addressed to loopback by name (DNS rebinding).
  const demoRoute = (handle: (request: Request) => Promise<Response>) => async (request: Request) =>
    !isLoopbackHost(host) || isAddressedToLoopback(request)
      ? handle(request)
      : simpleErrorResponse(403, 'FORBIDDEN', 'HOST_NOT_LOOPBACK', 'The demo routes answer only requests addressed to localhost, 127.0.0.1 or [::1].');
  const routes: Record<string, (request: Request) => Promise<Response>> = {
    '/api/link-token': createLinkTokenHandler(options),
    // Without the demo routes the receiver keeps its deliveries but not its list of them.
    '/api/webhooks': (request) => (request.method !== 'GET' ? receiver(request) : demoRoutes ? demoRoute(receiver)(request) : notFound()),
    ...(demoRoutes ? { '/api/accounts': demoRoute(accounts) } : {}),
  };
  const server = serveWithNode((request) => (routes[new URL(request.url).pathname] ?? notFound)(request));

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigError(`Port ${port} on ${host} is already in use: stop what runs there, or set PORT to another port.`)
          : new ConfigError(`Cannot listen on ${host}:${port}: ${error.code ?? error.message}.`),
      );
    });
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${boundPort}`,
    demoRoutes,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The environment variables read by `npm run server-example`, and the option each one sets. */
const ENV_NAMES: Record<string, string> = {
  apiSecret: 'PAYROLL_API_SECRET',
  baseUrl: 'PAYROLL_BASE_URL',
  version: 'PAYROLL_VERSION',
  orgName: 'PAYROLL_ORG_NAME',
  solution: 'PAYROLL_SOLUTION',
  features: 'PAYROLL_FEATURES',
  port: 'PORT',
  host: 'HOST',
};

/** `DEMO_ROUTES`: the two words only, so that a typo stops start-up rather than quietly meaning one or the other. */
const EnvFlagSchema = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((text) => text === 'true');

/**
 * Reads the example's options from environment variables (see README), with
 * the defaults that fit `npm run sandbox`. Throws a {@link ConfigError} naming
 * the variable when one is missing or wrong.
 */
export function exampleServerOptionsFromEnv(env: NodeJS.ProcessEnv): ExampleServerOptions {
  const portText = env.PORT ?? '8787';
  const options: ExampleServerOptions = {
    apiSecret: env.PAYROLL_API_SECRET ?? '',
    baseUrl: env.PAYROLL_BASE_URL ?? 'http://127.0.0.1:4010',
    version: (env.PAYROLL_VERSION ?? '2025-07-08') as ExampleServerOptions['version'],
    orgName: env.PAYROLL_ORG_NAME ?? 'Payroll Link Demo',
    solution: env.PAYROLL_SOLUTION ?? 'Deposit Switch',
    features: (env.PAYROLL_FEATURES ?? 'direct_deposit_switch').split(',').map((feature) => feature.trim()),
    port: /^\d+$/.test(portText) ? Number(portText) : Number.NaN,
    host: env.HOST ?? '127.0.0.1',
  };
  const checked = LinkTokenHandlerConfigSchema.and(ServerOptionsSchema).safeParse(options);
  if (!checked.success) {
    const error = ConfigError.fromZod('environment', checked.error, (path) => ENV_NAMES[String(path[0])] ?? path.join('.'));
    if (!env.PAYROLL_API_SECRET) {
      error.message +=
        '\n  Start the sandbox with `npm run sandbox`, then set PAYROLL_API_SECRET to the secret it prints' +
        ' (sandbox_local_dev_secret by default).';
    }
    throw error;
  }
  if (env.DEMO_ROUTES === undefined) return options;
  const demoRoutes = EnvFlagSchema.safeParse(env.DEMO_ROUTES);
  if (!demoRoutes.success) throw ConfigError.fromZod('environment', demoRoutes.error, () => 'DEMO_ROUTES');
  return { ...options, demoRoutes: demoRoutes.data };
}

async function main(): Promise<void> {
  try {
    const options = exampleServerOptionsFromEnv(process.env);
    const server = await startExampleServer(options);
    const demoRoutes = server.demoRoutes
      ? `GET ${server.url}/api/webhooks\n  GET  ${server.url}/api/accounts`
      : '(demo routes GET /api/webhooks and /api/accounts off: see DEMO_ROUTES)';
    console.info(
      `server-example listening on ${server.url} (service ${options.baseUrl}, Service-Version ${options.version})\n` +
        `  POST ${server.url}/api/link-token\n  POST ${server.url}/api/webhooks   ${demoRoutes}`,
    );
    const stop = () => void server.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`server-example: ${error.message}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
