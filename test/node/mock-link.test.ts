// payroll-link/testing's mockLink() (#52) with openLink() and prepareLink(), in plain Node (no DOM: the scripted
// session needs none). The rules are the real session's (session-moves.ts), so these tests check that the script
// runs them (order, at most once, nothing after the exit) and that an app's callbacks get a real session's details.
// A token request with `tokenUrl: 'call'` goes to a real HTTP server on loopback; `fetch` is otherwise replaced by a
// stub that fails the test if called: the kit promises no network.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { openLink, prepareLink, type OpenLinkOptions } from '../../src/core/index.js';
import { ExitDetailSchema, LoginDetailSchema, SuccessDetailSchema } from '../../src/protocol.js';
import { mockLink, ScriptError, type MockLink } from '../../src/testing/index.js';

const LINK_URL = 'https://link.example.com/link';

/** Every callback the session calls, in order, with its detail. */
function recorder() {
  const calls: Array<[string, unknown]> = [];
  const on = (name: string) => (detail: unknown) => calls.push([name, detail]);
  const callbacks = {
    onOpen: on('onOpen'),
    onLogin: on('onLogin'),
    onSuccess: on('onSuccess'),
    onError: on('onError'),
    onExit: on('onExit'),
    onEvent: on('onEvent'),
    onReady: on('onReady'),
  } satisfies Partial<OpenLinkOptions>;
  return { calls, names: () => calls.map(([name]) => name), callbacks };
}

let realFetch: typeof fetch;
let fetches = 0;
let link: MockLink | undefined;

beforeEach(() => {
  realFetch = globalThis.fetch;
  fetches = 0;
  globalThis.fetch = (() => {
    fetches++;
    return Promise.reject(new Error('mockLink promised no network'));
  }) as typeof fetch;
});
afterEach(() => {
  link?.restore();
  link = undefined;
  globalThis.fetch = realFetch;
});

describe('mockLink() with openLink()', () => {
  test('a whole session: the callbacks in the real order, with the contract details, and no fetch', async () => {
    link = mockLink();
    const { calls, names, callbacks } = recorder();
    const handle = openLink({ linkUrl: LINK_URL, tokenUrl: '/api/link-token', endUserId: 'u1', ...callbacks });
    const session = await link.opened();
    assert.equal(session.options.tokenUrl, '/api/link-token');
    assert.equal(session.options.endUserId, 'u1');
    assert.equal(session.state, 'open');
    await handle.ready;
    const login = link.login();
    const success = link.success({ jobId: '1b4e28ba-2fa1-41d2-883f-0016d3cca427' });
    const exit = link.exit();
    assert.deepEqual(names(), ['onOpen', 'onEvent', 'onLogin', 'onEvent', 'onSuccess', 'onEvent', 'onExit']);
    LoginDetailSchema.parse(login);
    SuccessDetailSchema.parse(success);
    assert.equal(success.accountId, login.accountId, "the success is the login's account");
    assert.equal(success.jobId, '1b4e28ba-2fa1-41d2-883f-0016d3cca427');
    const { linkTokenId } = calls[0]![1] as { linkTokenId: string };
    assert.equal(login.linkTokenId, linkTokenId, "the events carry the session's token id");
    assert.deepEqual(ExitDetailSchema.parse(exit), { reason: 'completed', error: null, linkTokenId, accountId: login.accountId });
    assert.deepEqual(await handle.closed, exit);
    assert.deepEqual(calls.at(-1), ['onExit', exit]);
    assert.equal(fetches, 0);
  });

  test('the rules of the real session: at most one login and one success, nothing after the exit, nothing before the open', async () => {
    link = mockLink();
    assert.throws(
      () => link!.login(),
      (error: Error) => error instanceof ScriptError && /await link\.opened\(\)/.test(error.message),
    );
    openLink({ linkUrl: LINK_URL, tokenUrl: '/t' });
    await link.opened();
    link.login();
    assert.throws(() => link!.login(), /a second login in one session/);
    link.success();
    assert.throws(() => link!.success(), /a second success in one session/);
    link.exit();
    assert.throws(() => link!.exit(), /after the session's exit \(completed\): nothing comes after it/);
    assert.throws(() => link!.event('screen_transition', { screenName: 'x' }), /after the session's exit/);
  });

  test("a play the contract refuses is refused with the schema's word", async () => {
    link = mockLink();
    openLink({ linkUrl: LINK_URL, tokenUrl: '/t' });
    await link.opened();
    assert.throws(
      () => link!.login({ accountId: 'not-a-uuid' }),
      (error: Error) => error instanceof ScriptError && /does not fit the contract/.test(error.message),
    );
    assert.equal(link.sessions[0]!.state, 'open', 'a refused play changes nothing');
  });

  test("error(code): the code's type and pendingRetry from docs/errors.md; a terminal one is the exit's error", async () => {
    link = mockLink();
    const { calls, names, callbacks } = recorder();
    openLink({ linkUrl: LINK_URL, tokenUrl: '/t', ...callbacks });
    await link.opened();
    const wrongPassword = link.error('INVALID_CREDENTIALS');
    assert.equal(wrongPassword.type, 'invalidCredentials');
    assert.equal(wrongPassword.pendingRetry, true);
    const failed = link.error('JOB_FAILED');
    assert.deepEqual([failed.type, failed.pendingRetry], ['platformError', false]);
    const exit = link.exit({ reason: 'error' });
    assert.equal(exit.reason, 'error');
    assert.deepEqual(exit.error, failed);
    assert.deepEqual(
      names().filter((name) => name === 'onError'),
      ['onError', 'onError'],
    );
    assert.deepEqual(calls.at(-1), ['onExit', exit]);
  });

  test('a refused token before anything else happened is renewed silently, as the real session does', async () => {
    link = mockLink();
    const { names, callbacks } = recorder();
    openLink({ linkUrl: LINK_URL, tokenUrl: '/t', ...callbacks });
    const session = await link.opened();
    link.error('INVALID_LINK_TOKEN');
    assert.equal(session.state, 'open', 'a new frame and a new token at once: the next play finds the session open');
    assert.deepEqual(names(), ['onOpen'], 'no onError, and onOpen once: the user never saw the failure');
    link.login();
  });

  test("error() refuses the widget's own codes, which no Link page sends, and says how to bring them about", async () => {
    link = mockLink();
    openLink({ linkUrl: LINK_URL, tokenUrl: '/t' });
    await link.opened();
    for (const code of ['TOKEN_HTTP_500', 'MODAL_HIDDEN', 'NO_TOKEN_SOURCE'])
      assert.throws(
        () => link!.error(code),
        (error: Error) =>
          error instanceof ScriptError &&
          error.message.includes(`${code} is the widget's own error`) &&
          error.message.includes("tokenUrl: 'call'"),
      );
    assert.equal(link.error('ACCOUNT_MISMATCH').type, 'invalidCredentials', 'one the Link page gives too');
    assert.equal(link.error('SOME_SERVICE_CODE').type, 'systemError', "a code of the service's the docs do not list");
  });

  test("the real session's checks before it starts: a Link URL it would hand no token to, inline without a container", async () => {
    link = mockLink();
    for (const [options, code] of [
      [{ linkUrl: 'not a url' }, 'INVALID_LINK_URL'],
      [{ linkUrl: LINK_URL, display: 'inline' }, 'NO_CONTAINER'],
    ] as const) {
      const { names, callbacks } = recorder();
      const handle = openLink({ ...options, tokenUrl: '/t', ...callbacks });
      const session = await link.opened();
      assert.equal(session.state, 'ended');
      assert.equal((await handle.closed).error?.code, code);
      assert.deepEqual(names(), ['onError', 'onExit']);
    }
  });

  test('restore() closes a session still open (closed_by_host), so that none outlives the test', async () => {
    link = mockLink();
    const { names, callbacks } = recorder();
    const handle = openLink({ linkUrl: LINK_URL, tokenUrl: '/t', ...callbacks });
    await link.opened();
    link.restore();
    assert.equal((await handle.closed).reason, 'closed_by_host');
    assert.deepEqual(names(), ['onOpen', 'onExit']);
  });

  test('the seam is a registered symbol on the global object while installed, and gone after restore()', async () => {
    const key = Symbol.for('payroll-link/testing');
    link = mockLink();
    assert.ok(Object.getOwnPropertySymbols(globalThis).includes(key));
    assert.deepEqual(
      Object.getOwnPropertyNames(globalThis).filter((name) => /payroll/i.test(name)),
      [],
      'no name markup could clobber',
    );
    link.restore();
    assert.ok(!Object.getOwnPropertySymbols(globalThis).includes(key));
  });

  test("a test's fake timers stop nothing, and a DOM without crypto.randomUUID (jsdom 20) still gets ids", async (t) => {
    // Node's own fake timers stand in for a test runner's (Jest's also fake queueMicrotask: unit-tests/ runs that).
    t.mock.timers.enable({ apis: ['setTimeout', 'setImmediate'] });
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    t.after(() => delete (crypto as { randomUUID?: unknown }).randomUUID);
    link = mockLink();
    openLink({ linkUrl: LINK_URL, tokenUrl: '/t' });
    await link.opened();
    LoginDetailSchema.parse(link.login());
    await assert.rejects((link = mockLink({ openTimeoutMs: 5 })).opened(), /did not open Link within 5 ms/, 'its bound is a real timer');
  });

  test('close() and requestClose(): closed_by_host, and user_closed as the Link page answers a close request', async () => {
    link = mockLink();
    const closed = openLink({ linkUrl: LINK_URL, tokenUrl: '/t' });
    await link.opened();
    closed.close();
    assert.equal((await closed.closed).reason, 'closed_by_host');
    const asked = openLink({ linkUrl: LINK_URL, tokenUrl: '/t' });
    await link.opened();
    asked.requestClose();
    assert.equal((await asked.closed).reason, 'user_closed');
    assert.equal(link.sessions.length, 2);
  });

  test('a reconnect session logs in to its account; a login to another ends it with ACCOUNT_MISMATCH', async () => {
    link = mockLink();
    const accountId = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
    const { calls, callbacks } = recorder();
    openLink({ linkUrl: LINK_URL, tokenUrl: '/t', accountId, ...callbacks });
    await link.opened();
    assert.equal(link.login().accountId, accountId);
    const other = openLink({ linkUrl: LINK_URL, tokenUrl: '/t', accountId, onError: callbacks.onError });
    await link.opened();
    link.login({ accountId: '00000000-0000-4000-8000-000000000000' });
    const exit = await other.closed;
    assert.equal(exit.error?.code, 'ACCOUNT_MISMATCH');
    assert.ok(calls.some(([name, detail]) => name === 'onError' && (detail as { code: string }).code === 'ACCOUNT_MISMATCH'));
  });

  test('prepareLink(): a flow built ahead is ready before its click (onReady), and fetches no token', async () => {
    link = mockLink();
    const { names, callbacks } = recorder();
    const prepared = prepareLink({ linkUrl: LINK_URL, tokenUrl: '/t', ...callbacks });
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.deepEqual(names(), ['onReady']);
    prepared.open();
    await link.opened();
    assert.deepEqual(names(), ['onReady', 'onOpen']);
    assert.equal(fetches, 0);
  });

  test('opened() rejects with a clear error when the app opens nothing, and when restored first', async () => {
    link = mockLink({ openTimeoutMs: 20 });
    await assert.rejects(link.opened(), /did not open Link within 20 ms/);
    const waiting = link.opened();
    link.restore();
    await assert.rejects(waiting, /restored before the app opened Link/);
  });

  test('a new mockLink() replaces one a failed test left installed: no stuck state', async () => {
    const first = mockLink();
    const waiting = first.opened();
    link = mockLink();
    await assert.rejects(waiting, /restored/);
    openLink({ linkUrl: LINK_URL, tokenUrl: '/t' });
    await link.opened();
    assert.equal(first.sessions.length, 0, 'the first sees nothing of the second');
  });
});

describe("mockLink({ tokenUrl: 'call' }): the app's token request is kept", () => {
  let server: Server;
  let base: string;
  const requests: string[] = [];
  let status = 200;

  beforeEach(async () => {
    globalThis.fetch = realFetch;
    requests.length = 0;
    status = 200;
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        requests.push(body);
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(
          status === 200
            ? JSON.stringify({
                data: {
                  token: 'link-token-from-backend',
                  id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
                  expires: new Date(Date.now() + 600_000).toISOString(),
                  mode: 'sandbox',
                },
              })
            : JSON.stringify({ error: 'bad' }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("the session opens with the backend's token: the request carries the end user, onOpen its id", async () => {
    link = mockLink({ tokenUrl: 'call' });
    const { calls, callbacks } = recorder();
    openLink({ linkUrl: LINK_URL, tokenUrl: `${base}/api/link-token`, endUserId: 'user-7', ...callbacks });
    await link.opened();
    assert.deepEqual(
      requests.map((body) => JSON.parse(body) as unknown),
      [{ end_user_id: 'user-7' }],
    );
    assert.deepEqual(calls[0], ['onOpen', { linkTokenId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' }]);
    assert.equal(link.login().linkTokenId, 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d');
  });

  test('a token request that fails ends the session as in a browser: onError, then onExit; opened() says how it ended', async () => {
    status = 400;
    link = mockLink({ tokenUrl: 'call' });
    const { names, callbacks } = recorder();
    const handle = openLink({ linkUrl: LINK_URL, tokenUrl: `${base}/api/link-token`, ...callbacks });
    const session = await link.opened();
    assert.equal(session.state, 'ended');
    const exit = await handle.closed;
    assert.equal(exit.reason, 'error');
    assert.equal(exit.error?.code, 'TOKEN_HTTP_400');
    assert.deepEqual(names(), ['onError', 'onExit']);
    assert.throws(() => link!.login(), /after the session's exit \(error\)/);
  });
});
