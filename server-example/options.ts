/**
 * The example server's options, and how `npm run server-example` reads them
 * from the environment (see README). Mistakes stop start-up with a
 * `ConfigError` that names the variable, never its value.
 */
import {
  ConfigError,
  createLinkTokenHandler,
  createWebhookHandler,
  type LinkTokenHandlerConfig,
  type Logger,
  type WebhookEvent,
} from 'payroll-link/server';

/**
 * Options of `startExampleServer`: the token handler's configuration plus where to listen. The example
 * makes one client from the connection fields (`apiSecret`, `baseUrl`, `version`, `fetch`, `mode`,
 * `rateLimit`) and gives it to the handler, so `client` is not an option here, and `retry`'s delays
 * are the client's own backoff (`timeouts` and `retry.maxAttempts` still bound each token call).
 */
export type ExampleServerOptions = Omit<LinkTokenHandlerConfig, 'client'> & {
  /** Required here: the example's one client is made from them. */
  apiSecret: string;
  baseUrl: string;
  version: NonNullable<LinkTokenHandlerConfig['version']>;
  /** Port to listen on; 0 picks a free one. */
  port?: number;
  /** Interface to listen on; loopback by default. */
  host?: string;
  /**
   * The webhook URL's shared secret (`/api/webhooks?secret=…`). Default: a
   * random one per start, printed with the URL to register.
   */
  webhookSecret?: string;
  /**
   * Serve the demo page's routes (`GET /api/accounts`, `GET /api/webhooks`,
   * no authentication)? Default: only when `host` is loopback. `true` serves
   * them anywhere (with a warning), `false` never.
   */
  demoRoutes?: boolean;
  log?: Logger;
  /** Called with each new webhook event after the example has handled it (tests and the demo watch with it). */
  onWebhook?: (event: WebhookEvent) => void;
};

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
  webhookSecret: 'PAYROLL_WEBHOOK_SECRET',
};

/** Checks what the library does not: where to listen. */
function checkListen(options: ExampleServerOptions): string[] {
  const problems: string[] = [];
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port >= 0 && options.port <= 65_535))
    problems.push('port: must be a whole number from 0 to 65535');
  if (options.host !== undefined && options.host.length === 0) problems.push('host: must not be empty');
  return problems;
}

/** Throws a `ConfigError` naming each wrong option (`name` maps an option to what the user wrote). */
export function checkExampleOptions(options: ExampleServerOptions, what = 'example server options', name = (field: string) => field): void {
  const problems = checkListen(options).map((line) => `  - ${line}`);
  const check = (create: () => unknown, rename = (line: string) => line) => {
    try {
      create();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.message.split('\n').slice(1).map(rename));
    }
  };
  check(() => createLinkTokenHandler(options));
  if (options.webhookSecret !== undefined) {
    check(
      () => createWebhookHandler({ secret: options.webhookSecret, onEvent: () => {} }),
      (line) => line.replace('- secret', '- webhookSecret'),
    );
  }
  if (problems.length === 0) return;
  const named = problems.map((line) =>
    line.replace(/^( {2}- )([\w.]+)/, (_, dash: string, path: string) => dash + name(path.split('.')[0]!)),
  );
  throw new ConfigError(`Invalid ${what}:\n${named.join('\n')}`);
}

/**
 * Reads the example's options from environment variables, with the defaults
 * that fit `npm run sandbox`. Throws a `ConfigError` naming the variable when
 * one is missing or wrong.
 */
export function exampleServerOptionsFromEnv(env: NodeJS.ProcessEnv): ExampleServerOptions {
  const portText = env.PORT ?? '8787';
  const options: ExampleServerOptions = {
    apiSecret: env.PAYROLL_API_SECRET ?? '',
    baseUrl: env.PAYROLL_BASE_URL ?? 'http://127.0.0.1:4010',
    version: (env.PAYROLL_VERSION ?? '2025-07-08') as ExampleServerOptions['version'],
    orgName: env.PAYROLL_ORG_NAME ?? 'Payroll Link Demo',
    solution: env.PAYROLL_SOLUTION ?? 'Deposit Switch',
    features: (env.PAYROLL_FEATURES ?? 'direct_deposit_switch')
      .split(',')
      .map((feature) => feature.trim())
      .filter(Boolean),
    port: /^\d+$/.test(portText) ? Number(portText) : Number.NaN,
    host: env.HOST ?? '127.0.0.1',
    ...(env.PAYROLL_WEBHOOK_SECRET === undefined ? {} : { webhookSecret: env.PAYROLL_WEBHOOK_SECRET }),
  };
  try {
    checkExampleOptions(options, 'environment', (field) => ENV_NAMES[field] ?? field);
  } catch (error) {
    if (error instanceof ConfigError && !env.PAYROLL_API_SECRET) {
      error.message +=
        '\n  Start the sandbox with `npm run sandbox`, then set PAYROLL_API_SECRET to the secret it prints (sandbox_local_dev_secret by default).';
    }
    throw error;
  }
  if (env.DEMO_ROUTES === undefined) return options;
  if (env.DEMO_ROUTES !== 'true' && env.DEMO_ROUTES !== 'false')
    throw new ConfigError('Invalid environment:\n  - DEMO_ROUTES: must be true or false');
  return { ...options, demoRoutes: env.DEMO_ROUTES === 'true' };
}
