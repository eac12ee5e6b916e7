/**
 * The sandbox CLI's flags and environment variables, parsed and validated
 * (flags win over the environment). Kept apart from `cli.ts` so tests can
 * check it without starting a process.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { allowedHostSchema, isLoopbackAddress } from '../http/allowed-hosts.js';
import { SANDBOX_SECRET_PREFIX } from '../http/auth.js';
import type { SandboxOptions } from '../start-sandbox.js';
import { SandboxFieldsSchema } from '../state/spec-fields.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from '../state/webhooks.js';
import { KNOWN_VERSIONS, LATEST_VERSION } from '../http/versions.js';

/** The CLI's default port. */
export const DEFAULT_CLI_PORT = 4010;

/**
 * The CLI's default secret: fixed, so `npm run sandbox` and the example backend
 * agree without copying anything. It is a test credential of a loopback sandbox,
 * not a secret worth keeping; set another with --secret or SANDBOX_SECRET.
 */
export const DEFAULT_CLI_SECRET = `${SANDBOX_SECRET_PREFIX}local_dev_secret`;

/** `--help` text. */
export const HELP = `Usage: npx payroll-link-sandbox [options]
       npx payroll-link-sandbox <command> [options]

Runs the payroll service's sandbox mode (API + hosted Link page) on loopback, in memory, for your
dev loop and tests. From your code: import { startSandbox } from 'payroll-link/sandbox'.

Options (each also settable by the environment variable shown):
  --port <n>            TCP port, 0 for a free one        SANDBOX_PORT         (default ${DEFAULT_CLI_PORT})
  --host <addr>         interface to listen on            SANDBOX_HOST         (default 127.0.0.1);
                        one off loopback (0.0.0.0, a LAN address) needs --allow-remote
  --allow-remote        allow a --host other machines can reach: anyone who reaches the port
                        can then drive the sandbox (its secret is a test credential)
  --allowed-host <name> also answer requests for this name SANDBOX_ALLOWED_HOSTS (comma-separated);
                        a tunnel's, or .ngrok-free.app for every name under it; repeatable
  --secret <s>          sandbox API secret (x-api-secret) SANDBOX_SECRET       (default ${DEFAULT_CLI_SECRET})
  --webhook-url <url>   where to POST webhook events      SANDBOX_WEBHOOK_URL  (default: none)
  --rate-limit <n>      requests/second per secret, 0=off SANDBOX_RATE_LIMIT   (default 10)
  --token-ttl <s>       Link token lifetime in seconds    SANDBOX_TOKEN_TTL    (default 3600)
  --pending-delay <ms>  how long user_pending jobs pend   SANDBOX_PENDING_DELAY_MS (default 10000)
  --webhook-version <v> the Service-Version webhooks use  SANDBOX_WEBHOOK_VERSION (default ${LATEST_VERSION});
                        up to 2021-07-28: account.disconnected / account.reconnected
  --webhook-timeout <ms>
                        time for one webhook attempt      SANDBOX_WEBHOOK_TIMEOUT_MS (default ${DEFAULT_WEBHOOK_TIMEOUT_MS});
                        keep it >= your handler's callbackTimeoutMs (10000 by default) + 10000
  --fields <full|spec>  fields in answers and webhooks    SANDBOX_FIELDS       (default full);
                        spec: only those the spec promises, to test that your code needs no other
  --quiet               do not log requests
  -h, --help            show this help

Test credentials for the Link page: user_good / pass_good (success), user_mfa / pass_good
with code mfa_code, user_error / pass_good (job fails), user_pending / pass_good (job pends, then fails).
The full reference (API, triggers, rules): node_modules/payroll-link/docs/sandbox.md`;

const integer = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));

const CliValuesSchema = z.object({
  port: integer('--port', 0, 65535).optional(),
  host: z.string().min(1).optional(),
  allowedHosts: z.array(z.string().trim().pipe(allowedHostSchema('--allowed-host'))).optional(),
  secret: z.string().min(8, '--secret must be at least 8 characters').optional(),
  webhookUrl: z.url({ protocol: /^https?$/, error: '--webhook-url must be an http(s) URL' }).optional(),
  rateLimit: integer('--rate-limit', 0, 1_000_000).optional(),
  tokenTtl: integer('--token-ttl', 1, 30 * 86_400).optional(),
  pendingDelay: integer('--pending-delay', 0, 3_600_000).optional(),
  webhookTimeout: integer('--webhook-timeout', 1, 3_600_000).optional(),
  webhookVersion: z.enum(KNOWN_VERSIONS, `--webhook-version must be one of ${KNOWN_VERSIONS.join(', ')}`).optional(),
  fields: z.enum(SandboxFieldsSchema.options, `--fields must be one of ${SandboxFieldsSchema.options.join(', ')}`).optional(),
});

/** The outcome of parsing: run with options, show help, or fail with a message. */
export type CliParse =
  | { readonly kind: 'run'; readonly options: SandboxOptions & { port: number; secret: string }; readonly quiet: boolean }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

/** Parses argv (without node and script) and the environment. Never throws. */
export const parseCliOptions = (argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliParse => {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'allow-remote': { type: 'boolean' },
        'allowed-host': { type: 'string', multiple: true },
        secret: { type: 'string' },
        'webhook-url': { type: 'string' },
        'rate-limit': { type: 'string' },
        'token-ttl': { type: 'string' },
        'pending-delay': { type: 'string' },
        'webhook-version': { type: 'string' },
        'webhook-timeout': { type: 'string' },
        fields: { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: 'error', message: `${error instanceof Error ? error.message : String(error)}\nRun with --help for the options.` };
  }
  if (values['help']) return { kind: 'help' };
  const pick = (flag: string, variable: string): string | undefined => {
    const value = values[flag];
    return typeof value === 'string' ? value : env[variable] || undefined;
  };
  const parsed = CliValuesSchema.safeParse({
    port: pick('port', 'SANDBOX_PORT'),
    host: pick('host', 'SANDBOX_HOST'),
    allowedHosts: Array.isArray(values['allowed-host'])
      ? values['allowed-host']
      : env['SANDBOX_ALLOWED_HOSTS']?.split(',').filter((name) => name.trim() !== ''),
    secret: pick('secret', 'SANDBOX_SECRET'),
    webhookUrl: pick('webhook-url', 'SANDBOX_WEBHOOK_URL'),
    rateLimit: pick('rate-limit', 'SANDBOX_RATE_LIMIT'),
    tokenTtl: pick('token-ttl', 'SANDBOX_TOKEN_TTL'),
    pendingDelay: pick('pending-delay', 'SANDBOX_PENDING_DELAY_MS'),
    webhookVersion: pick('webhook-version', 'SANDBOX_WEBHOOK_VERSION'),
    webhookTimeout: pick('webhook-timeout', 'SANDBOX_WEBHOOK_TIMEOUT_MS'),
    fields: pick('fields', 'SANDBOX_FIELDS'),
  });
  if (!parsed.success) {
    return { kind: 'error', message: `${parsed.error.issues.map((issue) => issue.message).join('\n')}\nRun with --help for the options.` };
  }
  const input = parsed.data;
  const host = input.host ?? '127.0.0.1';
  const allowRemote = values['allow-remote'] === true;
  if (!allowRemote && !isLoopbackAddress(host)) {
    return {
      kind: 'error',
      message:
        `--host ${host} is not a loopback address: other machines could reach the sandbox there, and its API secret is a ` +
        'test credential (the default one is published), so anyone who reaches the port could drive it, read its data and ' +
        'have it post webhooks to your backend. Listen on 127.0.0.1 (the default), or pass --allow-remote if you mean it. ' +
        'For a phone or an emulator, adb reverse or a tunnel with --allowed-host keeps it on loopback (node_modules/payroll-link/docs/sandbox.md, "Who can reach it").',
    };
  }
  return {
    kind: 'run',
    quiet: values['quiet'] === true,
    options: {
      port: input.port ?? DEFAULT_CLI_PORT,
      host,
      allowRemote,
      ...(input.allowedHosts !== undefined && { allowedHosts: input.allowedHosts }),
      secret: input.secret ?? DEFAULT_CLI_SECRET,
      webhookUrl: input.webhookUrl ?? null,
      ...(input.rateLimit !== undefined && { rateLimitPerSecond: input.rateLimit }),
      ...(input.tokenTtl !== undefined && { tokenTtlSeconds: input.tokenTtl }),
      ...(input.pendingDelay !== undefined && { pendingJobDelayMs: input.pendingDelay }),
      ...(input.webhookVersion !== undefined && { webhookVersion: input.webhookVersion }),
      ...(input.webhookTimeout !== undefined && { webhookTimeoutMs: input.webhookTimeout }),
      ...(input.fields !== undefined && { fields: input.fields }),
    },
  };
};

/**
 * The webhook URL as the CLI prints it: the value of a `secret` query parameter (where `payroll-link/server`'s
 * webhook handler reads its shared secret) is replaced, since a terminal's output ends up in CI logs. A secret
 * in the last path segment cannot be told from a path, and is printed as given.
 */
export function webhookUrlForDisplay(webhookUrl: string): string {
  try {
    const url = new URL(webhookUrl);
    if (!url.searchParams.has('secret')) return webhookUrl;
    url.searchParams.set('secret', '[redacted]');
    return url.href.replace(encodeURIComponent('[redacted]'), '[redacted]');
  } catch {
    return webhookUrl;
  }
}
