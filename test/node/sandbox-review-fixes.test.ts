/** Rules found in review: each one fails without its fix. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type Sandbox } from '../../sandbox/start-sandbox.js';
import { api, assertError, linkApi, startTestSandbox } from './sandbox-test-client.js';

describe('sandbox: found in review', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(() => sandbox.close());

  it('refuses a webhook URL that carries a user name and password (it would reach the log in fetch errors)', async () => {
    await assert.rejects(async () => {
      // Closed again if it starts after all, so a regression fails the test instead of hanging it.
      const started = await startSandbox({ port: 0, webhookUrl: 'http://hook:s3cr3t@127.0.0.1:9/hooks' });
      await started.close();
    }, /user name or password/);
  });

  it('treats ?__proto__= like any unknown query parameter', async () => {
    assertError(await api(sandbox, 'GET', '/v1/accounts?__proto__=1'), 400, 'INVALID_PARAMS');
  });

  it('answers a long but unknown Link token (up to the 2000 characters of the frame protocol) as an invalid token', async () => {
    assertError(await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: 'x'.repeat(1500) }), 401, 'INVALID_LINK_TOKEN');
  });
});
