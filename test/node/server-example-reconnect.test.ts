/**
 * The example backend's reconnect pieces (#16) against the real sandbox: the
 * demo's `authorizeAccount` rule (the `demo_user` cookie must own the account)
 * and the demo's account controls (disconnect, simulate a password change),
 * loopback-only and JSON-only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.js';
import { LinkTokenEnvelopeSchema } from '../../src/protocol.js';
import { ErrorBodySchema } from '../../src/server/error-body.js';
import { startExampleServer, type ExampleServer } from '../../server-example/server.js';
import { serviceConfigFor } from './server-example-upstream.js';

const json = { 'content-type': 'application/json' };

describe('example backend: reconnect', () => {
  let sandbox: Sandbox;
  let server: ExampleServer;
  before(async () => {
    sandbox = await startSandbox({ port: 0, rateLimitPerSecond: 0 });
    server = await startExampleServer(serviceConfigFor(sandbox));
  });
  after(async () => {
    await server.close();
    await sandbox.close();
  });

  /** An account connected through the sandbox's trigger for `endUserId`. */
  const accountOf = async (endUserId: string): Promise<string> => {
    const response = await fetch(`${sandbox.url}/sandbox/accounts`, {
      method: 'POST',
      headers: { ...json, 'x-api-secret': sandbox.secret, 'service-version': '2025-07-08' },
      body: JSON.stringify({ end_user_id: endUserId }),
    });
    assert.equal(response.status, 201);
    return ((await response.json()) as { data: { account: { id: string } } }).data.account.id;
  };

  const askToken = (body: unknown, user?: string) =>
    fetch(`${server.url}/api/link-token`, {
      method: 'POST',
      headers: { ...json, ...(user && { cookie: `other=1; demo_user=${encodeURIComponent(user)}` }) },
      body: JSON.stringify(body),
    });

  const errorCode = async (response: Response) => ErrorBodySchema.parse(await response.json()).error.error_codes[0]!.error_code;

  test('the demo user who owns the account gets a reconnect token for it; another user or none is refused 403', async () => {
    const accountId = await accountOf('demo-ana');
    const allowed = await askToken({ end_user_id: 'demo-ana', account_id: accountId }, 'demo-ana');
    assert.equal(allowed.status, 200);
    const { data } = LinkTokenEnvelopeSchema.parse(await allowed.json());
    assert.equal(sandbox.store.linkTokens().find((token) => token.id === data.id)?.accountId, accountId);

    const other = await askToken({ end_user_id: 'demo-ben', account_id: accountId }, 'demo-ben');
    assert.equal(other.status, 403);
    assert.equal(await errorCode(other), 'ACCOUNT_NOT_AUTHORIZED');
    // The browser's end_user_id is no proof: the cookie (the demo's session) decides.
    const claimed = await askToken({ end_user_id: 'demo-ana', account_id: accountId }, 'demo-ben');
    assert.equal(claimed.status, 403);
    const anonymous = await askToken({ account_id: accountId });
    assert.equal(anonymous.status, 403);
    const unknown = await askToken({ account_id: '00000000-0000-4000-8000-000000000000' }, 'demo-ana');
    assert.equal(unknown.status, 403);
  });

  test('Disconnect and Simulate password change reach the sandbox; the service’s refusals come back as they are', async () => {
    const accountId = await accountOf('demo-ana');
    const press = (action: string, headers: Record<string, string> = json, id = accountId) =>
      fetch(`${server.url}/api/accounts/${id}/${action}`, { method: 'POST', headers, body: '{}' });
    assert.equal((await press('require_reauth')).status, 200);
    assert.equal(sandbox.store.account(accountId)?.account.monitoring_status, 'user_action_required');
    assert.equal((await press('disconnect')).status, 200);
    assert.equal(sandbox.store.account(accountId)?.account.monitoring_status, 'disconnected');
    const again = await press('require_reauth');
    assert.equal(again.status, 403);
    assert.equal(await errorCode(again), 'ACCOUNT_DISCONNECTED');

    const form = await press('disconnect', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(form.status, 415);
    assert.equal((await fetch(`${server.url}/api/accounts/${accountId}/disconnect`)).status, 405);
    assert.equal((await press('disconnect', json, 'not-a-uuid')).status, 400);
    assert.equal((await press('delete')).status, 404);
  });
});
