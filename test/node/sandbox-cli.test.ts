/** The sandbox CLI: flags and environment, --help, start-up output, port in use, clean shutdown. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { COMMANDS_HELP } from '../../sandbox/cli/cli-commands.js';
import { DEFAULT_CLI_PORT, DEFAULT_CLI_SECRET, HELP, parseCliOptions, webhookUrlForDisplay } from '../../sandbox/cli/cli-options.js';
import { startTestSandbox } from './sandbox-test-client.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs the CLI; resolves when it prints `until` (or exits), with its output so far and the child. */
const runCli = (args: string[], until: RegExp | null, env: Record<string, string> = {}) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, SANDBOX_PORT: '', SANDBOX_SECRET: '', SANDBOX_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (until && until.test(stdout)) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    void exited.then(() => resolve());
  });
  return { child, ready, exited, output: () => ({ stdout, stderr }) };
};

describe('sandbox CLI: options', () => {
  it('uses port 4010, loopback and the documented test secret by default', () => {
    const parsed = parseCliOptions([], {});
    assert.ok(parsed.kind === 'run');
    assert.equal(parsed.options.port, DEFAULT_CLI_PORT);
    assert.equal(parsed.options.host, '127.0.0.1');
    assert.equal(parsed.options.secret, DEFAULT_CLI_SECRET);
    assert.equal(parsed.options.webhookUrl, null);
  });

  it('prints a webhook URL without the value of its secret query parameter', () => {
    assert.equal(
      webhookUrlForDisplay('http://127.0.0.1:3000/api/webhooks?secret=s3cr3t-v4lue&x=1'),
      'http://127.0.0.1:3000/api/webhooks?secret=[redacted]&x=1',
    );
    assert.equal(webhookUrlForDisplay('http://127.0.0.1:3000/api/webhooks'), 'http://127.0.0.1:3000/api/webhooks');
    assert.equal(webhookUrlForDisplay('not a url'), 'not a url');
  });

  it('reads the environment, and flags win over it', () => {
    const env = {
      SANDBOX_PORT: '5000',
      SANDBOX_SECRET: 'sandbox_from_env',
      SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:9/hooks',
      SANDBOX_RATE_LIMIT: '50',
      SANDBOX_WEBHOOK_TIMEOUT_MS: '30000',
    };
    const fromEnv = parseCliOptions([], env);
    assert.ok(fromEnv.kind === 'run');
    assert.equal(fromEnv.options.port, 5000);
    assert.equal(fromEnv.options.secret, 'sandbox_from_env');
    assert.equal(fromEnv.options.webhookUrl, 'http://127.0.0.1:9/hooks');
    assert.equal(fromEnv.options.rateLimitPerSecond, 50);
    assert.equal(fromEnv.options.webhookTimeoutMs, 30_000);
    const flags = parseCliOptions(
      ['--port', '0', '--secret', 'sandbox_from_flag', '--token-ttl', '60', '--rate-limit', '0', '--webhook-timeout', '40000', '--quiet'],
      env,
    );
    assert.ok(flags.kind === 'run');
    assert.equal(flags.options.port, 0);
    assert.equal(flags.options.secret, 'sandbox_from_flag');
    assert.equal(flags.options.tokenTtlSeconds, 60);
    assert.equal(flags.options.rateLimitPerSecond, 0);
    assert.equal(flags.options.webhookTimeoutMs, 40_000);
    assert.equal(flags.quiet, true);
  });

  it('reads --fields and SANDBOX_FIELDS (the flag wins); another value is refused, naming the two', () => {
    const fromEnv = parseCliOptions([], { SANDBOX_FIELDS: 'spec' });
    assert.ok(fromEnv.kind === 'run');
    assert.equal(fromEnv.options.fields, 'spec');
    const flag = parseCliOptions(['--fields', 'full'], { SANDBOX_FIELDS: 'spec' });
    assert.ok(flag.kind === 'run');
    assert.equal(flag.options.fields, 'full');
    const unset = parseCliOptions([], {});
    assert.ok(unset.kind === 'run');
    assert.equal(unset.options.fields, undefined, "startSandbox's default (full) applies");
    const bad = parseCliOptions(['--fields', 'nope'], {});
    assert.ok(bad.kind === 'error');
    assert.match(bad.message, /^--fields must be one of full, spec\n/);
    assert.match(bad.message, /--help/);
  });

  it('refuses bad values and unknown flags with a message that points to --help', () => {
    for (const args of [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['--webhook-url', 'ftp://x'],
      ['--token-ttl', '0'],
      ['--webhook-timeout', '0'],
      ['--bogus'],
      ['stray'],
    ]) {
      const parsed = parseCliOptions(args, {});
      assert.ok(parsed.kind === 'error', `accepted ${args.join(' ')}`);
      assert.match(parsed.message, /--help/);
    }
  });

  it('shows help for --help and -h', () => {
    assert.equal(parseCliOptions(['--help'], {}).kind, 'help');
    assert.equal(parseCliOptions(['-h'], {}).kind, 'help');
    for (const flag of [
      '--port',
      '--secret',
      '--webhook-url',
      '--rate-limit',
      '--token-ttl',
      '--webhook-timeout',
      'SANDBOX_WEBHOOK_TIMEOUT_MS',
      '--fields',
      'SANDBOX_FIELDS',
      'SANDBOX_PORT',
      'SANDBOX_WEBHOOK_URL',
      'user_good',
    ]) {
      assert.ok(HELP.includes(flag), `help does not mention ${flag}`);
    }
  });

  it('speaks to an installed user: npx, not "this repository", and names --url / SANDBOX_URL beside the triggers', () => {
    const help = `${HELP}\n\n${COMMANDS_HELP}`;
    assert.doesNotMatch(help, /this repository|npm run/);
    assert.match(help, /Usage: npx payroll-link-sandbox/);
    assert.match(help, /payroll-link\/sandbox/);
    assert.match(COMMANDS_HELP, /--url <url>.*SANDBOX_URL/);
  });
});

describe('sandbox CLI: process', () => {
  it('a trigger refused by the sandbox prints the URL it called and how to point at another sandbox', async () => {
    // The new user's case: their sandbox elsewhere, the CLI's secret not this one's.
    const sandbox = await startTestSandbox();
    try {
      const cli = runCli(
        [
          'trigger',
          'paystubs.added',
          '--account',
          '3f0c2a3e-5d6b-4c8d-9e0f-1a2b3c4d5e6f',
          '--url',
          sandbox.url,
          '--secret',
          'sandbox_not_this_one',
        ],
        null,
      );
      assert.equal(await cli.exited, 1);
      const { stderr } = cli.output();
      assert.ok(stderr.includes(`POST ${sandbox.url}/sandbox/events answered 401`), stderr);
      assert.match(stderr, /--url \/ SANDBOX_URL/);
      assert.match(stderr, /not valid for this sandbox/);
    } finally {
      await sandbox.close();
    }
  });

  it('a trigger that reaches something else, or nothing, prints the URL it called', async () => {
    // Not a sandbox: a plain HTTP server that answers HTML, as another dev server on that port would.
    const other = createHttpServer((_request, response) =>
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'),
    );
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const cli = runCli(['require-reauth', '--account', 'acc-1'], null, { SANDBOX_URL: url });
      assert.equal(await cli.exited, 1);
      assert.ok(
        cli.output().stderr.includes(`POST ${url}/sandbox/accounts/acc-1/require_reauth answered 404 with no JSON`),
        cli.output().stderr,
      );
      assert.match(cli.output().stderr, /SANDBOX_URL/);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
    const nobody = runCli(['trigger', 'paystubs.added', '--account', 'acc-1'], null, { SANDBOX_URL: url });
    assert.equal(await nobody.exited, 1);
    assert.ok(nobody.output().stderr.includes(`POST ${url}/sandbox/events`), nobody.output().stderr);
  });

  it('prints the URL and the test secret, answers, and stops cleanly on SIGTERM', async () => {
    const cli = runCli(['--port', '0', '--secret', 'sandbox_cli_test_secret'], /Secret:.*\n/);
    await cli.ready;
    const { stdout } = cli.output();
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
    assert.ok(url, stdout);
    assert.match(stdout, /sandbox_cli_test_secret {2}\(sandbox test credential/);
    const response = await fetch(`${url}/v1/platforms`, {
      headers: { 'x-api-secret': 'sandbox_cli_test_secret', 'service-version': '2025-07-08' },
    });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    cli.child.kill('SIGTERM');
    assert.equal(await cli.exited, 0);
    assert.match(cli.output().stdout, /SIGTERM: stopping the sandbox/);
    // The request log names the path, never the secret.
    assert.match(cli.output().stdout, /GET \/v1\/platforms 200/);
    assert.equal(cli.output().stdout.split('sandbox_cli_test_secret').length - 1, 1, 'the secret is printed once, at start-up only');
  });

  it('--fields spec: says so at start-up, and the API answers only the fields the spec promises; --fields nope exits 2', async () => {
    const cli = runCli(['--port', '0', '--secret', 'sandbox_cli_test_secret', '--fields', 'spec', '--quiet'], /Test users:.*\n/);
    try {
      await cli.ready;
      const { stdout } = cli.output();
      assert.match(stdout, /Fields: +spec/);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      assert.ok(url, stdout);
      const response = await fetch(`${url}/v1/platforms?limit=2`, {
        headers: { 'x-api-secret': 'sandbox_cli_test_secret', 'service-version': '2025-07-08' },
      });
      const body = (await response.json()) as { data: object[] };
      assert.equal(response.status, 200);
      for (const platform of body.data) assert.deepEqual(Object.keys(platform).sort(), ['id', 'name', 'type']);
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
    const bad = runCli(['--fields', 'nope'], null);
    assert.equal(await bad.exited, 2);
    assert.match(bad.output().stderr, /--fields must be one of full, spec/);
  });

  it('says clearly when the port is in use, without a stack trace, and exits 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const cli = runCli(['--port', String(port)], null);
      assert.equal(await cli.exited, 1);
      const { stderr } = cli.output();
      assert.match(stderr, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use`));
      assert.doesNotMatch(stderr, /\n\s+at /);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('prints help and exits 0; a bad flag exits 2', async () => {
    const help = runCli(['--help'], null);
    const bad = runCli(['--port', 'x'], null);
    assert.equal(await help.exited, 0);
    assert.match(help.output().stdout, /Usage: npx payroll-link-sandbox \[options\]/);
    assert.equal(await bad.exited, 2);
    assert.match(bad.output().stderr, /--port must be a whole number/);
  });
});
