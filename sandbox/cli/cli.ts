/**
 * `payroll-link-sandbox` (the package's bin; `npm run sandbox` in the
 * repository): starts the sandbox and prints its URL and (test) secret, or
 * with a command (`trigger`, `create-account`, `require-reauth`, `resend`) calls a
 * running one. Stops cleanly on SIGINT/SIGTERM. `--help` lists the flags.
 */
import { ZodError } from 'zod';
import { COMMANDS, COMMANDS_HELP, parseCommand, runCommand } from './cli-commands.js';
import { DEFAULT_CLI_SECRET, HELP, parseCliOptions, webhookUrlForDisplay } from './cli-options.js';
import { isLoopbackAddress } from '../http/allowed-hosts.js';
import { startSandbox } from '../start-sandbox.js';
import { SANDBOX_MFA_CODE, SANDBOX_PASSWORD, SANDBOX_USERNAMES, SANDBOX_USERS } from '../state/sandbox-users.js';

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(`${HELP}\n\n${COMMANDS_HELP}`);
  process.exit(0);
}
if ((COMMANDS as readonly string[]).includes(argv[0] ?? '')) {
  const command = parseCommand(argv, process.env);
  if (command.kind === 'error') {
    console.error(command.message);
    process.exit(2);
  }
  process.exit(await runCommand(command, console));
}

const parsed = parseCliOptions(argv, process.env);
if (parsed.kind === 'help') {
  console.log(HELP);
  process.exit(0);
}
if (parsed.kind === 'error') {
  console.error(parsed.message);
  process.exit(2);
}

const { options, quiet } = parsed;
try {
  const sandbox = await startSandbox({ ...options, log: quiet ? () => {} : (line) => console.log(line) });
  console.log(`Payroll service sandbox listening on ${sandbox.url}`);
  console.log(`  API:        ${sandbox.url}  (headers x-api-secret and Service-Version, e.g. 2025-07-08)`);
  console.log(`  Link page:  ${sandbox.url}/link`);
  // A sandbox secret is a test credential for this loopback sandbox only, so printing it is fine.
  console.log(`  Secret:     ${sandbox.secret}  (sandbox test credential, not a real secret)`);
  console.log(
    `  Webhooks:   ${options.webhookUrl ? webhookUrlForDisplay(options.webhookUrl) : 'none (set SANDBOX_WEBHOOK_URL)'}${options.webhookVersion ? ` (as ${options.webhookVersion})` : ''}`,
  );
  if (options.fields === 'spec') console.log('  Fields:     spec (answers and webhooks carry only the fields the spec promises)');
  const users = SANDBOX_USERNAMES.map((name) => (SANDBOX_USERS[name] === 'mfa' ? `${name} (code ${SANDBOX_MFA_CODE})` : name));
  if (!isLoopbackAddress(options.host ?? '127.0.0.1')) {
    const port = new URL(sandbox.url).port;
    console.error(
      `Warning (--allow-remote): listening on ${options.host}, which other machines can reach. Its API secret ` +
        `(${options.secret === DEFAULT_CLI_SECRET ? 'the published default' : 'printed above'}) is a test credential, not a secret: ` +
        `anyone who can reach port ${port} can drive the sandbox, read its accounts and Link tokens, and fire webhooks at ` +
        'your backend that carry the webhook secret of --webhook-url. Use it only on a network you trust, and stop it when you are done.',
    );
  }
  console.log(`  Test users: ${users.join(', ')}; password ${SANDBOX_PASSWORD}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the sandbox`);
    void sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    console.error(
      `Port ${options.port} on ${options.host} is already in use. Stop what is using it, or pick another port with --port or SANDBOX_PORT.`,
    );
  } else if (code === 'EADDRNOTAVAIL' || code === 'EACCES') {
    console.error(`Cannot listen on ${options.host}:${options.port} (${code}). Pick another --host or --port.`);
  } else if (error instanceof ZodError) {
    console.error(`Invalid option: ${error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  } else {
    console.error(`The sandbox could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exit(1);
}
