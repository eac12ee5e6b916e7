/** The CLI's commands against a running sandbox: parsing (flags, environment, refusals) and the calls they make. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WEBHOOK_EVENT_NAMES } from 'payroll-link/server';
import { COMMANDS_HELP, DEFAULT_SANDBOX_URL, parseCommand, runCommand } from '../../sandbox/cli/cli-commands.js';
import { DEFAULT_CLI_SECRET, parseCliOptions } from '../../sandbox/cli/cli-options.js';
import { startTestSandbox } from './sandbox-test-client.js';

const ACCOUNT = '3f0c2a3e-5d6b-4c8d-9e0f-1a2b3c4d5e6f';

/** Collects what a command prints. */
const output = () => {
  const lines = { log: [] as string[], error: [] as string[] };
  return { lines, out: { log: (text: string) => lines.log.push(text), error: (text: string) => lines.error.push(text) } };
};

describe('sandbox CLI commands', () => {
  it('maps each command and its flags to a trigger route and body', () => {
    assert.deepEqual(parseCommand(['trigger', 'paystubs.added', '--account', ACCOUNT], {}), {
      kind: 'request',
      url: DEFAULT_SANDBOX_URL,
      secret: DEFAULT_CLI_SECRET,
      path: '/sandbox/events',
      body: { event: 'paystubs.added', account_id: ACCOUNT },
    });
    assert.deepEqual(
      parseCommand(['create-account', '--end-user', 'u1', '--user', 'user_error'], {
        SANDBOX_URL: 'http://127.0.0.1:9/',
        SANDBOX_SECRET: 'sandbox_x_secret',
      }),
      {
        kind: 'request',
        url: 'http://127.0.0.1:9',
        secret: 'sandbox_x_secret',
        path: '/sandbox/accounts',
        body: { end_user_id: 'u1', username: 'user_error' },
      },
    );
    const reauth = parseCommand(['require-reauth', '--account', ACCOUNT, '--url', 'http://127.0.0.1:5'], {});
    assert.equal(reauth.kind === 'request' && reauth.path, `/sandbox/accounts/${ACCOUNT}/require_reauth`);
    const status = parseCommand(['trigger', 'account.monitoring_status.updated', '--account', ACCOUNT, '--status', 'active'], {});
    assert.deepEqual(status.kind === 'request' && status.body, {
      event: 'account.monitoring_status.updated',
      account_id: ACCOUNT,
      monitoring_status: 'active',
    });
  });

  it("trigger's help names every event of the receiver's schema, each whole on its line: a new one needs no edit there", () => {
    const words = new Set(COMMANDS_HELP.split(/[\s,;]+/));
    for (const name of WEBHOOK_EVENT_NAMES) assert.ok(words.has(name), `the help names ${name}`);
  });

  it('resend <event_id> calls the resend route of that event; it takes no other argument or flag', async () => {
    assert.deepEqual(parseCommand(['resend', ACCOUNT], {}), {
      kind: 'request',
      url: DEFAULT_SANDBOX_URL,
      secret: DEFAULT_CLI_SECRET,
      path: `/sandbox/events/${ACCOUNT}/resend`,
      body: {},
    });
    for (const argv of [['resend'], ['resend', ACCOUNT, 'extra'], ['resend', ACCOUNT, '--account', ACCOUNT]]) {
      const parsed = parseCommand(argv, {});
      assert.match(parsed.kind === 'error' ? parsed.message : '', /--help/, argv.join(' '));
    }
    const sandbox = await startTestSandbox({ jobDelayMs: 3_600_000 });
    try {
      const env = { SANDBOX_URL: sandbox.url, SANDBOX_SECRET: sandbox.secret };
      const created = output();
      assert.equal(
        await runCommand(
          parseCommand(['create-account'], env) as Extract<ReturnType<typeof parseCommand>, { kind: 'request' }>,
          created.out,
        ),
        0,
      );
      const [added] = JSON.parse(created.lines.log[0]!).events as { event_id: string }[];
      const resent = output();
      assert.equal(
        await runCommand(
          parseCommand(['resend', added!.event_id], env) as Extract<ReturnType<typeof parseCommand>, { kind: 'request' }>,
          resent.out,
        ),
        0,
      );
      assert.deepEqual(JSON.parse(resent.lines.log[0]!).events, [added]);
      const unknown = output();
      assert.equal(
        await runCommand(
          parseCommand(['resend', ACCOUNT], env) as Extract<ReturnType<typeof parseCommand>, { kind: 'request' }>,
          unknown.out,
        ),
        1,
      );
      assert.equal(unknown.lines.error[0], `POST ${sandbox.url}/sandbox/events/${ACCOUNT}/resend answered 404:`);
      assert.equal(JSON.parse(unknown.lines.error[1]!).error.error_codes[0].error_code, 'EVENT_NOT_FOUND');
    } finally {
      await sandbox.close();
    }
  });

  it('--webhook-version (or SANDBOX_WEBHOOK_VERSION) picks the version webhooks are sent as; an unknown one is refused', () => {
    const flag = parseCliOptions(['--webhook-version', '2021-07-28'], { SANDBOX_WEBHOOK_VERSION: '2022-03-02' });
    assert.equal(flag.kind === 'run' && flag.options.webhookVersion, '2021-07-28');
    const env = parseCliOptions([], { SANDBOX_WEBHOOK_VERSION: '2022-03-02' });
    assert.equal(env.kind === 'run' && env.options.webhookVersion, '2022-03-02');
    const bad = parseCliOptions(['--webhook-version', '2020-01-01'], {});
    assert.match(bad.kind === 'error' ? bad.message : '', /--webhook-version must be one of/);
  });

  it('refuses what it cannot send, with a message that points to --help', () => {
    for (const argv of [
      ['trigger'],
      ['trigger', 'paystubs.added', 'extra'],
      ['create-account', '--status', 'active'],
      ['require-reauth'],
      ['trigger', 'paystubs.added', '--bogus'],
      ['trigger', 'paystubs.added', '--url', 'not a url'],
    ]) {
      const parsed = parseCommand(argv, {});
      assert.equal(parsed.kind, 'error', argv.join(' '));
      assert.match(parsed.kind === 'error' ? parsed.message : '', /--help/);
    }
  });

  it('prints the answer of the sandbox, its error body on failure, and a clear line when no sandbox answers', async () => {
    const sandbox = await startTestSandbox({ jobDelayMs: 3_600_000 });
    try {
      const env = { SANDBOX_URL: sandbox.url, SANDBOX_SECRET: sandbox.secret };
      const created = output();
      const parsed = parseCommand(['create-account', '--end-user', 'cli-user'], env);
      assert.equal(parsed.kind, 'request');
      assert.equal(await runCommand(parsed as Extract<typeof parsed, { kind: 'request' }>, created.out), 0);
      const account = JSON.parse(created.lines.log[0]!).account as { id: string; end_user_id: string };
      assert.equal(account.end_user_id, 'cli-user');

      const fired = output();
      const trigger = parseCommand(['trigger', 'paystubs.added', '--account', account.id], env) as Extract<
        ReturnType<typeof parseCommand>,
        { kind: 'request' }
      >;
      assert.equal(await runCommand(trigger, fired.out), 0);
      assert.deepEqual(
        JSON.parse(fired.lines.log[0]!).events.map((event: { event: string }) => event.event),
        ['paystubs.added', 'verification_reports.refreshed'],
      );

      const refused = output();
      const shifts = parseCommand(['trigger', 'shifts.added', '--account', account.id], env) as Extract<
        ReturnType<typeof parseCommand>,
        { kind: 'request' }
      >;
      assert.equal(await runCommand(shifts, refused.out), 1);
      assert.equal(refused.lines.error[0], `POST ${sandbox.url}/sandbox/events answered 400:`);
      assert.equal(JSON.parse(refused.lines.error[1]!).error.error_codes[0].error_code, 'PRODUCT_NOT_SUPPORTED');
    } finally {
      await sandbox.close();
    }
    const nobody = output();
    const closed = parseCommand(['trigger', 'paystubs.added', '--account', ACCOUNT, '--url', sandbox.url], {}) as Extract<
      ReturnType<typeof parseCommand>,
      { kind: 'request' }
    >;
    assert.equal(await runCommand(closed, nobody.out), 1);
    assert.match(nobody.lines.error[0]!, /^No sandbox answered at http:\/\/127\.0\.0\.1:\d+/);
  });
});
