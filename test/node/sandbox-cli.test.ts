/** The sandbox CLI: flags and environment, --help, start-up output, port in use, clean shutdown, the bind and Host rules. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ZodError } from 'zod';
import { COMMANDS_HELP } from '../../sandbox/cli/cli-commands.js';
import { DEFAULT_CLI_PORT, DEFAULT_CLI_SECRET, HELP, parseCliOptions, webhookUrlForDisplay } from '../../sandbox/cli/cli-options.js';
import { startSandbox } from '../../sandbox/start-sandbox.js';
import { assertError, startTestSandbox, type TestResponse } from './sandbox-test-client.js';

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

/** GET `path` from the sandbox at `url` (its address), naming `host` in the Host header as a browser would. */
const getWithHost = (url: string, path: string, host: string, secret: string): Promise<TestResponse> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const headers = { host, 'x-api-secret': secret, 'service-version': '2025-07-08' };
    const request = httpRequest({ host: hostname.replace(/^\[|\]$/g, ''), port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body: unknown = response.headers['content-type']?.includes('json') ? JSON.parse(text) : undefined;
        resolve({ status: response.statusCode ?? 0, headers: new Headers(), body, text });
      });
    });
    request.on('error', reject);
    request.end();
  });

/** The URL the CLI printed at start-up. */
const listeningUrl = (stdout: string): string => {
  const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
  assert.ok(url, stdout);
  return url;
};

describe('review finding 5: the sandbox listens on loopback and answers loopback names only, unless told', () => {
  it('review finding 5: a non-loopback --host (or SANDBOX_HOST) is refused without --allow-remote, naming the flag', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', '10.0.2.2', 'my-laptop.lan']) {
      const parsed = parseCliOptions(['--host', host], {});
      assert.ok(parsed.kind === 'error', `accepted --host ${host}`);
      assert.match(parsed.message, new RegExp(`--host ${host.replace(/\./g, '\\.')} is not a loopback address`));
      assert.match(parsed.message, /--allow-remote/);
      const fromEnv = parseCliOptions([], { SANDBOX_HOST: host });
      assert.ok(fromEnv.kind === 'error', `accepted SANDBOX_HOST=${host}`);
    }
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost', 'LOCALHOST']) {
      assert.equal(parseCliOptions(['--host', host], {}).kind, 'run', host);
    }
    const allowed = parseCliOptions(['--host', '0.0.0.0', '--allow-remote'], {});
    assert.ok(allowed.kind === 'run');
    assert.equal(allowed.options.host, '0.0.0.0');
    assert.equal(allowed.options.allowRemote, true);
  });

  it('review finding 5: startSandbox({ host }) follows the same rule, with allowRemote', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20']) {
      let refusal: unknown = null;
      try {
        await (await startSandbox({ port: 0, host })).close();
      } catch (error) {
        refusal = error;
      }
      assert.ok(refusal instanceof ZodError, `${host}: ${String(refusal)}`);
      assert.match(refusal.message, /not a loopback address/);
      assert.match(refusal.message, /allowRemote/);
    }
  });

  it('review finding 5: --host 0.0.0.0 exits 2 with a clear message; with --allow-remote it starts and warns on stderr', async () => {
    const refused = runCli(['--host', '0.0.0.0', '--port', '0'], null);
    assert.equal(await refused.exited, 2);
    assert.match(refused.output().stderr, /--host 0\.0\.0\.0 is not a loopback address/);
    assert.match(refused.output().stderr, /--allow-remote/);
    assert.doesNotMatch(refused.output().stdout, /listening/);

    const cli = runCli(
      ['--host', '0.0.0.0', '--allow-remote', '--port', '0', '--secret', 'sandbox_remote_test', '--quiet'],
      /Test users:.*\n/,
    );
    try {
      await cli.ready;
      // stderr is another pipe: its lines may arrive after stdout's.
      await new Promise<void>((resolve) => {
        const check = () => /Warning \(--allow-remote\)/.test(cli.output().stderr) && resolve();
        cli.child.stderr.on('data', check);
        void cli.exited.then(() => resolve());
        check();
      });
      const { stdout, stderr } = cli.output();
      const url = listeningUrl(stdout);
      assert.match(stderr, /--allow-remote/);
      assert.match(stderr, /anyone who can reach port \d+ can drive the sandbox/);
      assert.match(stderr, /API secret/);
      assert.match(stderr, /webhook/);
      const port = new URL(url).port;
      // Reached over loopback, as this machine's browser would: answered; a rebinding page's name: 421.
      assert.equal(
        (await getWithHost(`http://127.0.0.1:${port}`, '/v1/platforms', `localhost:${port}`, 'sandbox_remote_test')).status,
        200,
      );
      const misdirected = await getWithHost(`http://127.0.0.1:${port}`, '/v1/platforms', 'evil.example', 'sandbox_remote_test');
      assertError(misdirected, 421, 'HOST_NOT_ALLOWED');
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });

  it('review finding 5: a request whose Host is a DNS-rebinding name gets 421; loopback names, IPs and --allowed-host are served', async () => {
    const cli = runCli(
      ['--port', '0', '--secret', 'sandbox_host_test', '--allowed-host', 'tunnel.example', '--allowed-host', '.ngrok-free.app', '--quiet'],
      /Test users:.*\n/,
    );
    try {
      await cli.ready;
      const url = listeningUrl(cli.output().stdout);
      const port = new URL(url).port;
      const get = (path: string, host: string) => getWithHost(url, path, host, 'sandbox_host_test');
      for (const host of [
        'evil.example',
        `evil.example:${port}`,
        `rebind.evil.example:${port}`,
        `localhost.evil.example:${port}`,
        'ngrok-free.app.evil.example',
      ]) {
        const api = await get('/v1/platforms', host);
        assertError(api, 421, 'HOST_NOT_ALLOWED');
        assert.equal(api.body.error.type, 'MISDIRECTED_REQUEST');
        assert.match(api.body.error.message, /--allowed-host/);
        // The Link page and its API too: a rebinding page must not drive the flow either.
        assert.equal((await get('/link', host)).status, 421, host);
        assert.equal((await get('/link/session', host)).status, 421, host);
      }
      assert.match((await get('/v1/platforms', 'evil.example')).body.error.message, /evil\.example/);
      for (const host of [
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        `LocalHost:${port}`,
        `[::1]:${port}`,
        `app.localhost:${port}`,
        `10.0.2.2:${port}`,
        'tunnel.example',
        'TUNNEL.example:443',
        'abc123.ngrok-free.app',
      ]) {
        assert.equal((await get('/v1/platforms', host)).status, 200, host);
      }
      // A Host that hides another name behind user info or a path is not taken for the name after it.
      for (const host of [`evil.example@127.0.0.1:${port}`, `127.0.0.1:${port}/x`, 'evil.example#@localhost']) {
        assertError(await get('/v1/platforms', host), 421, 'HOST_NOT_ALLOWED');
      }
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
  });

  it('review finding 5: --allowed-host and SANDBOX_ALLOWED_HOSTS take host names only (the flag wins)', () => {
    const fromEnv = parseCliOptions([], { SANDBOX_ALLOWED_HOSTS: 'tunnel.example, .ngrok-free.app' });
    assert.ok(fromEnv.kind === 'run');
    assert.deepEqual(fromEnv.options.allowedHosts, ['tunnel.example', '.ngrok-free.app']);
    const flags = parseCliOptions(['--allowed-host', 'a.example', '--allowed-host', 'B.example'], { SANDBOX_ALLOWED_HOSTS: 'c.example' });
    assert.ok(flags.kind === 'run');
    assert.deepEqual(flags.options.allowedHosts, ['a.example', 'b.example']);
    for (const bad of ['https://tunnel.example', 'tunnel.example:443', 'tunnel.example/x', 'a b', '.', 'user@tunnel.example']) {
      const parsed = parseCliOptions(['--allowed-host', bad], {});
      assert.ok(parsed.kind === 'error', `accepted --allowed-host ${bad}`);
      assert.match(parsed.message, /--allowed-host/);
    }
    assert.ok(HELP.includes('--allowed-host') && HELP.includes('SANDBOX_ALLOWED_HOSTS') && HELP.includes('--allow-remote'));
  });
});
