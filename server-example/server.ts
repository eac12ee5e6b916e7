/**
 * The example backend (`npm run server-example`): a short user of
 * `payroll-link/server`. It mints Link tokens for the widget and receives the
 * service's webhooks; for the demo page it also lists accounts and the events
 * it received (see demo-routes.ts). `startExampleServer` runs it in-process.
 */
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { ConfigError, createLinkTokenHandler, createWebhookHandler, isLoopbackHost, simpleErrorResponse, type WebhookEvent } from 'payroll-link/server';
import { toNodeHandler } from 'payroll-link/server/node';
import {
  createAccountActionRoute,
  createAccountsRoute,
  createDemoAccountAuthorizer,
  isAddressedToLoopback,
} from './demo-routes.js';
import { checkExampleOptions, exampleServerOptionsFromEnv, type ExampleServerOptions } from './options.js';

export { exampleServerOptionsFromEnv, type ExampleServerOptions };

/** A running example server. */
export interface ExampleServer {
  /** Its base URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The URL to register with the service for webhooks (it carries the secret). */
  webhookUrl: string;
  /** Whether it serves the demo routes. */
  demoRoutes: boolean;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Starts the example backend; rejects with a `ConfigError` when the options are wrong or the port is taken. */
export async function startExampleServer(options: ExampleServerOptions): Promise<ExampleServer> {
  checkExampleOptions(options);
  const { port = 0, host = '127.0.0.1', log = console } = options;
  const webhookSecret = options.webhookSecret ?? crypto.randomUUID().replaceAll('-', '');
  const received: (WebhookEvent & { received_at: string })[] = []; // the demo page's list: the last 50
  const handleWebhook = createWebhookHandler({
      secret: webhookSecret,
      log,
      onEvent: (event) => {
        if (event.event === 'account.added') {
          const { account_id: accountId, link_token_id: linkTokenId, end_user_id: endUserId } = event.payload;
          log.info('webhook account.added: store these ids against your user', { eventId: event.event_id, accountId, linkTokenId, endUserId });
        } else log.info(`webhook ${event.event}`, { eventId: event.event_id });
        received.push({ ...event, received_at: new Date().toISOString() });
        received.splice(0, received.length - 50);
        options.onWebhook?.(event);
      },
  });
  const notFound = async () => simpleErrorResponse(404, 'INVALID_REQUEST', 'NOT_FOUND', 'No such route.');
  let listWebhooks: (request: Request) => Promise<Response> = notFound; // GET /api/webhooks, a demo route
  let accountAction: (request: Request) => Promise<Response> = notFound; // POST /api/accounts/{id}/…, demo routes
  const demoRoutes = options.demoRoutes ?? isLoopbackHost(host);
  // Reconnects need an owner check; the demo, which has no real users, brings its own rule (see demo-routes.ts).
  const authorizeAccount = options.authorizeAccount ?? (demoRoutes ? createDemoAccountAuthorizer(options) : undefined);
  const routes: Record<string, (request: Request) => Promise<Response>> = {
    '/api/link-token': createLinkTokenHandler({ ...options, authorizeAccount }), // answers other methods with 405 itself
    '/api/webhooks': (request) => (request.method === 'GET' ? listWebhooks(request) : handleWebhook(request)),
  };
  if (demoRoutes) {
    if (!isLoopbackHost(host)) log.warn(`demoRoutes is on while listening on ${host}: GET /api/accounts, GET /api/webhooks and the account controls answer anyone`);
    const demoOnly = (handle: (request: Request) => Promise<Response>) => async (request: Request) =>
      !isLoopbackHost(host) || isAddressedToLoopback(request)
        ? handle(request)
        : simpleErrorResponse(403, 'FORBIDDEN', 'HOST_NOT_LOOPBACK', 'The demo routes answer only requests addressed to localhost, 127.0.0.1 or [::1].');
    routes['/api/accounts'] = demoOnly(createAccountsRoute(options));
    accountAction = demoOnly(createAccountActionRoute(options));
    listWebhooks = demoOnly(async () => Response.json({ data: received, meta: { count: received.length } }, { headers: { 'cache-control': 'no-store' } }));
  }
  const server = createServer(toNodeHandler((request) => {
    const path = new URL(request.url).pathname;
    return (routes[path] ?? (path.startsWith('/api/accounts/') ? accountAction : notFound))(request);
  }, { log }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new ConfigError(error.code === 'EADDRINUSE' ? `Port ${port} on ${host} is already in use: stop what runs there, or set PORT to another port.` : `Cannot listen on ${host}:${port}: ${error.code ?? error.message}.`)),
    );
    server.listen(port, host, resolve);
  });
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as { port: number }).port}`;
  const close = () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections()));
  return { url, webhookUrl: `${url}/api/webhooks?secret=${webhookSecret}`, demoRoutes, close };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const options = exampleServerOptionsFromEnv(process.env);
    const server = await startExampleServer(options);
    console.info(`server-example listening on ${server.url} (service ${options.baseUrl}, Service-Version ${options.version})`);
    console.info(`  POST ${server.url}/api/link-token\n  Webhook URL to register: ${server.webhookUrl}`);
    const stop = () => void server.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`server-example: ${error.message}`);
    process.exitCode = 1;
  }
}
