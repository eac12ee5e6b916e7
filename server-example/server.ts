/**
 * The example backend (`npm run server-example`): a short user of
 * `payroll-link/server`. It mints Link tokens for the widget, receives the
 * service's webhooks, and reads what was connected with one `PayrollClient`
 * (shared with the token handler: one rate limiter for both). For the demo page
 * it also lists accounts, shows an account's data and verification reports, and
 * the events it received (demo-routes.ts, read-routes.ts, webhook-log.ts), and
 * serves launches, the Link flow at a URL of its own (launch-routes.ts, once
 * `serveLaunches` is called). `startExampleServer` runs it in-process.
 */
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import {
  ConfigError,
  createLinkTokenHandler,
  createPayrollClient,
  createWebhookHandler,
  isLoopbackHost,
  simpleErrorResponse,
} from 'payroll-link/server';
import { toNodeHandler } from 'payroll-link/server/node';
import {
  createAccountRoutes,
  createAccountsRoute,
  createDemoAccountAuthorizer,
  createEndUserRoutes,
  isAddressedToLoopback,
} from './demo-routes.js';
import { createWebhookLog } from './webhook-log.js';
import { createLaunchRoutes, LAUNCHES_PATH, type ExampleLaunchesOptions } from './launch-routes.js';
import { checkExampleOptions, exampleServerOptionsFromEnv, type ExampleServerOptions } from './options.js';

export { exampleServerOptionsFromEnv, type ExampleServerOptions, type ExampleLaunchesOptions };

/** A running example server. */
export interface ExampleServer {
  /** Its base URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The URL to register with the service for webhooks (it carries the secret). */
  webhookUrl: string;
  /** Whether it serves the demo routes. */
  demoRoutes: boolean;
  /**
   * Serves launches from now on (a demo route: `POST /api/launches` creates one for the `demo_user` cookie's user;
   * the pages below it; `GET /api/launch-results`). Called once the public origin is known (the demo page listens
   * after this server); until then those paths answer 404. Throws without the demo routes, or when called twice.
   */
  serveLaunches(options: ExampleLaunchesOptions): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Starts the example backend; rejects with a `ConfigError` when the options are wrong or the port is taken. */
export async function startExampleServer(options: ExampleServerOptions): Promise<ExampleServer> {
  checkExampleOptions(options);
  const { port = 0, host = '127.0.0.1', log = console } = options;
  const webhookSecret = options.webhookSecret ?? crypto.randomUUID().replaceAll('-', '');
  // One client for every call to the service, the token handler's and the reads, so one rate limiter paces
  // them all (unless told, the mode's limit); the demo's sandbox triggers take their turns in it too.
  const { apiSecret, baseUrl, version, fetch: serviceFetch, mode, rateLimit, ...handlerOptions } = options;
  const client = createPayrollClient({ apiSecret, baseUrl, version, fetch: serviceFetch, mode, rateLimit, log });
  const sandbox = { apiSecret, baseUrl, version, limiter: client.rateLimiter, fetch: serviceFetch ?? fetch };
  const webhookLog = createWebhookLog(); // the demo page's list
  const handleWebhook = createWebhookHandler({
    secret: webhookSecret,
    log,
    onEvent: async (event) => {
      // A launch's success is confirmed by the account.added of its Link token (a no-op for any other event).
      await launches?.confirm(event);
      if (event.event === 'account.added') {
        const { account_id: accountId, link_token_id: linkTokenId, end_user_id: endUserId } = event.payload;
        log.info('webhook account.added: store these ids against your user', {
          eventId: event.event_id,
          accountId,
          linkTokenId,
          endUserId,
        });
      } else log.info(`webhook ${event.event}`, { eventId: event.event_id });
      webhookLog.add(event);
      options.onWebhook?.(event);
    },
  });
  const notFound = async () => simpleErrorResponse(404, 'INVALID_REQUEST', 'NOT_FOUND', 'No such route.');
  let listWebhooks: (request: Request) => Promise<Response> = notFound; // GET /api/webhooks, a demo route
  let accountRoutes: (request: Request) => Promise<Response> = notFound; // /api/accounts/{id}/…, demo routes
  let endUserRoutes: (request: Request) => Promise<Response> = notFound; // /api/end-users/{id}/…, a demo route
  const demoRoutes = options.demoRoutes ?? isLoopbackHost(host);
  // Reconnects need an owner check; the demo, which has no real users, brings its own rule (see demo-routes.ts).
  const authorizeAccount = options.authorizeAccount ?? (demoRoutes ? createDemoAccountAuthorizer(client) : undefined);
  const routes: Record<string, (request: Request) => Promise<Response>> = {
    '/api/link-token': createLinkTokenHandler({ ...handlerOptions, version, client, authorizeAccount }), // answers other methods with 405 itself
    '/api/webhooks': (request) => (request.method === 'GET' ? listWebhooks(request) : handleWebhook(request)),
  };
  const demoOnly = (handle: (request: Request) => Promise<Response>) => async (request: Request) =>
    !isLoopbackHost(host) || isAddressedToLoopback(request)
      ? handle(request)
      : simpleErrorResponse(
          403,
          'FORBIDDEN',
          'HOST_NOT_LOOPBACK',
          'The demo routes answer only requests addressed to localhost, 127.0.0.1 or [::1].',
        );
  if (demoRoutes) {
    if (!isLoopbackHost(host))
      log.warn(
        `demoRoutes is on while listening on ${host}: the demo routes (/api/accounts, GET /api/webhooks, /api/end-users) answer anyone`,
      );
    routes['/api/accounts'] = demoOnly(createAccountsRoute(client, log));
    accountRoutes = demoOnly(createAccountRoutes(client, sandbox, log));
    listWebhooks = demoOnly(webhookLog.list);
    endUserRoutes = demoOnly(createEndUserRoutes(client, sandbox, log));
  }
  let launches: ReturnType<typeof createLaunchRoutes> | undefined;
  let launchPages: (request: Request) => Promise<Response> = notFound; // below /api/launches/, once serveLaunches is called
  const serveLaunches = (launchOptions: ExampleLaunchesOptions) => {
    if (!demoRoutes || launches) throw new ConfigError('serveLaunches: needs the demo routes, and is called once');
    launches = createLaunchRoutes(client, launchOptions, log);
    // The pages are what an integrator mounts publicly; creating a launch and the results list are demo routes.
    launchPages = launches.handle;
    routes[LAUNCHES_PATH] = demoOnly(launches.create);
    routes['/api/launch-results'] = demoOnly(launches.results);
  };
  const server = createServer(
    toNodeHandler(
      (request) => {
        const path = new URL(request.url).pathname;
        const prefixed = path.startsWith('/api/accounts/')
          ? accountRoutes
          : path.startsWith('/api/end-users/')
            ? endUserRoutes
            : path.startsWith(`${LAUNCHES_PATH}/`)
              ? launchPages
              : notFound;
        return (routes[path] ?? prefixed)(request);
      },
      { log },
    ),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new ConfigError(
          error.code === 'EADDRINUSE'
            ? `Port ${port} on ${host} is already in use: stop what runs there, or set PORT to another port.`
            : `Cannot listen on ${host}:${port}: ${error.code ?? error.message}.`,
        ),
      ),
    );
    server.listen(port, host, resolve);
  });
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as { port: number }).port}`;
  const close = () =>
    new Promise<void>((resolve) => (webhookLog.close(), launches?.close(), server.close(() => resolve()), server.closeAllConnections()));
  return { url, webhookUrl: `${url}/api/webhooks?secret=${webhookSecret}`, demoRoutes, serveLaunches, close };
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
