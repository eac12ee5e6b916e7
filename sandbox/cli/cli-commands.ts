/**
 * The CLI's subcommands against a running sandbox (`payroll-link-sandbox
 * trigger paystubs.added --account <id>`, in the spirit of `stripe trigger`):
 * each is one call to a `/sandbox/*` trigger route with the sandbox secret.
 * Parsing is apart from running, so tests can check it without a process.
 */
import { parseArgs } from 'node:util';
import { WEBHOOK_EVENT_NAMES } from 'payroll-link/server';
import { DEFAULT_CLI_PORT, DEFAULT_CLI_SECRET } from './cli-options.js';
import { LAST_LEGACY_ACCOUNT_EVENTS_VERSION, LATEST_VERSION, LEGACY_ACCOUNT_EVENTS } from '../http/versions.js';
import { MonitoringStatusSchema } from '../state/resources.js';

/** The subcommand names. */
export const COMMANDS = ['create-account', 'trigger', 'require-reauth', 'resend'] as const;

/** The sandbox the subcommands talk to when neither --url nor SANDBOX_URL says otherwise. */
export const DEFAULT_SANDBOX_URL = `http://127.0.0.1:${DEFAULT_CLI_PORT}`;

/** `text` in lines of at most `width` characters, each after `indent` spaces. */
const wrap = (text: string, indent: number, width = 104): string => {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && indent + last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => `${' '.repeat(indent)}${line}`).join('\n');
};

/** The events `trigger` fires: every event of the receiver's schema (`payroll-link/server`), the deprecated ones apart. */
const TRIGGERED = wrap(
  [
    `fire a webhook event (POST /sandbox/events): ${WEBHOOK_EVENT_NAMES.filter((name) => !LEGACY_ACCOUNT_EVENTS.includes(name)).join(', ')};`,
    `account.monitoring_status.updated takes --status ${MonitoringStatusSchema.options.join('|')}, and a sandbox started with`,
    `--webhook-version ${LAST_LEGACY_ACCOUNT_EVENTS_VERSION} or earlier has ${LEGACY_ACCOUNT_EVENTS.join(' and ')} instead`,
  ].join(' '),
  24,
);

/** `--help` text of the subcommands (appended to the CLI's). */
export const COMMANDS_HELP = `Commands against a running sandbox (each prints the JSON answer; the events it sent are in "events"):
  create-account [--end-user <id>] [--platform <id>] [--employer <id>] [--user <test user>]
                        connect an account without the Link UI (POST /sandbox/accounts)
  trigger <event> --account <id> | --end-user <id> [--status <monitoring_status>]
${TRIGGERED}
  require-reauth --account <id>
                        the user must log in again: on-demand updates get 403 ACCOUNT_REAUTH_REQUIRED
  resend <event_id>     deliver a sent event again, same envelope and event_id, as the service's retries
                        would (POST /sandbox/events/{event_id}/resend): test that your receiver handles it once
  --url <url>           the sandbox                       SANDBOX_URL          (default ${DEFAULT_SANDBOX_URL})
  --secret <s>          its secret                        SANDBOX_SECRET       (default ${DEFAULT_CLI_SECRET})`;

/** One parsed subcommand: the request to send, or why it cannot be sent. */
export type CommandParse =
  | {
      readonly kind: 'request';
      readonly url: string;
      readonly secret: string;
      readonly path: string;
      readonly body: Record<string, string>;
    }
  | { readonly kind: 'error'; readonly message: string };

const usage = (message: string): CommandParse => ({ kind: 'error', message: `${message}\nRun with --help for the commands.` });

/** Parses a subcommand's argv (the command name first) and the environment. Never throws. */
export const parseCommand = (argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CommandParse => {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        secret: { type: 'string' },
        account: { type: 'string' },
        'end-user': { type: 'string' },
        platform: { type: 'string' },
        employer: { type: 'string' },
        user: { type: 'string' },
        status: { type: 'string' },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
  const [command, ...rest] = positionals;
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const url = (text('url') ?? env['SANDBOX_URL'] ?? DEFAULT_SANDBOX_URL).replace(/\/+$/, '');
  const secret = text('secret') ?? (env['SANDBOX_SECRET'] || DEFAULT_CLI_SECRET);
  try {
    new URL(url);
  } catch {
    return usage(`--url must be a URL, like ${DEFAULT_SANDBOX_URL}`);
  }
  /** The flags given, under their API field names; a message when one is not for this command. */
  const fields = (allowed: Readonly<Record<string, string>>, positionalCount: number): Record<string, string> | string => {
    if (rest.length > positionalCount) return `Unexpected argument: ${rest[positionalCount]}`;
    const result: Record<string, string> = {};
    for (const flag of ['account', 'end-user', 'platform', 'employer', 'user', 'status']) {
      const value = text(flag);
      if (value === undefined) continue;
      const field = allowed[flag];
      if (!field) return `${command} does not take --${flag}`;
      result[field] = value;
    }
    return result;
  };
  const request = (path: string, body: Record<string, string> | string): CommandParse =>
    typeof body === 'string' ? usage(body) : { kind: 'request', url, secret, path, body };

  switch (command) {
    case 'create-account':
      return request(
        '/sandbox/accounts',
        fields({ 'end-user': 'end_user_id', platform: 'platform_id', employer: 'employer_id', user: 'username' }, 0),
      );
    case 'trigger': {
      const event = rest[0];
      if (!event) return usage('trigger needs an event name, e.g. `trigger paystubs.added --account <id>`');
      const body = fields({ account: 'account_id', 'end-user': 'end_user_id', status: 'monitoring_status' }, 1);
      return request('/sandbox/events', typeof body === 'string' ? body : { event, ...body });
    }
    case 'require-reauth': {
      const account = text('account');
      if (!account) return usage('require-reauth needs --account <id>');
      const body = fields({ account: 'account_id' }, 0);
      return request(`/sandbox/accounts/${encodeURIComponent(account)}/require_reauth`, typeof body === 'string' ? body : {});
    }
    case 'resend': {
      const eventId = rest[0];
      if (!eventId) return usage('resend needs an event id, e.g. `resend <event_id>` (the "event_id" of a trigger\'s "events")');
      const body = fields({}, 1);
      return request(`/sandbox/events/${encodeURIComponent(eventId)}/resend`, body);
    }
    default:
      return usage(`Unknown command: ${command ?? '(none)'}; one of ${COMMANDS.join(', ')}`);
  }
};

/**
 * Sends a parsed subcommand and prints the answer: `data` as JSON on stdout (exit code 0), or, on
 * stderr, the URL it called and the service's error body (exit code 1). Returns the exit code.
 */
export const runCommand = async (
  parsed: Extract<CommandParse, { kind: 'request' }>,
  out: { log: (text: string) => void; error: (text: string) => void },
): Promise<number> => {
  // Every failure names the URL it called: with two sandboxes on one machine, "the secret is not
  // valid" alone does not say which one answered.
  const called = `POST ${parsed.url}${parsed.path}`;
  const pointAt = 'Point --url / SANDBOX_URL at your sandbox (its start-up line prints the URL)';
  let response: Response;
  try {
    response = await fetch(`${parsed.url}${parsed.path}`, {
      method: 'POST',
      headers: { 'x-api-secret': parsed.secret, 'service-version': LATEST_VERSION, 'content-type': 'application/json' },
      body: JSON.stringify(parsed.body),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    out.error(
      `No sandbox answered at ${parsed.url} (${called}: ${cause}). Start one with \`npx payroll-link-sandbox\`, or ${pointAt.charAt(0).toLowerCase()}${pointAt.slice(1)}.`,
    );
    return 1;
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    out.error(`${called} answered ${response.status} with no JSON: is it a payroll-link sandbox? ${pointAt}.`);
    return 1;
  }
  if (!response.ok) {
    const hint =
      response.status === 401
        ? ` (the secret: is this the sandbox you started? ${pointAt}, and --secret / SANDBOX_SECRET at its secret)`
        : '';
    out.error(`${called} answered ${response.status}${hint}:`);
    out.error(JSON.stringify(json, null, 2));
    return 1;
  }
  out.log(JSON.stringify((json as { data?: unknown }).data, null, 2));
  return 0;
};
