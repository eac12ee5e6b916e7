/**
 * The sandbox's OAuth-style platform (#27 part 1), over HTTP as the Link page and the new window drive it: the
 * Link page gets a login page's URL, the window logs in there (a plain form, no script, never framed), and the
 * Link page's long poll answers with the login's result. Refusals: a password typed in the frame, another
 * session's state, an unknown state, wrong credentials.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OAuthResultSchema, OAuthStartSchema } from '../../sandbox/api/link-api-schemas.js';
import { OAUTH_PLATFORM } from '../../sandbox/state/oauth-platform.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { assertError, createLinkToken, linkApi, openSession, startTestSandbox } from './sandbox-test-client.js';

describe('sandbox: the OAuth-style platform', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(() => sandbox.close());

  const start = async (session: string) => {
    const response = await linkApi(sandbox, 'POST', '/link/api/oauth', session, { platform_id: OAUTH_PLATFORM.id });
    assert.equal(response.status, 201, response.text);
    return OAuthStartSchema.parse(response.body.data);
  };
  const submit = (state: string, username: string, password = 'pass_good') =>
    fetch(new URL('/link/oauth', sandbox.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state, username, password }),
    });

  it('is in the catalogue and searchable by name', async () => {
    const { session } = await openSession(sandbox);
    const search = await linkApi(sandbox, 'GET', '/link/api/search?q=oauth', session);
    assert.deepEqual(
      search.body.data.map((hit: { id: string; kind: string }) => [hit.kind, hit.id]),
      [['platform', OAUTH_PLATFORM.id]],
    );
  });

  it('logs in on its own page in a new window; the Link page hears the result from the sandbox (a long poll)', async () => {
    const { session } = await openSession(sandbox);
    const { state, url } = await start(session);
    const token = await createLinkToken(sandbox);
    // The URL carries a random state only: neither the Link token nor the session id.
    assert.equal(new URL(url).origin, new URL(sandbox.url).origin);
    assert.ok(!url.includes(session) && !url.includes(token.token), url);

    // The long poll waits for the login: started first, answered when the window logs in.
    const polled = linkApi(sandbox, 'GET', `/link/api/oauth/${state}`, session);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.match(await page.text(), /name="password"/);

    const wrong = await submit(state, 'user_good', 'nope');
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /incorrect/);
    const right = await submit(state, 'user_good');
    assert.equal(right.status, 200);
    assert.match(await right.text(), /Return to the app/);

    const result = OAuthResultSchema.parse((await polled).body.data);
    assert.equal(result.status, 'connected');
    assert.ok(result.status === 'connected' && result.platform_id === OAUTH_PLATFORM.id);
    // Asked again, it answers at once.
    assert.deepEqual((await linkApi(sandbox, 'GET', `/link/api/oauth/${state}`, session)).body.data, result);
  });

  it('refuses a password typed in the Link frame, another session’s state, and unknown states', async () => {
    const { session } = await openSession(sandbox);
    const login = await linkApi(sandbox, 'POST', '/link/api/login', session, {
      platform_id: OAUTH_PLATFORM.id,
      username: 'user_good',
      password: 'pass_good',
    });
    assertError(login, 400, 'INVALID_PARAMS');
    const { state } = await start(session);
    const other = await openSession(sandbox);
    assertError(await linkApi(sandbox, 'GET', `/link/api/oauth/${state}`, other.session), 404, 'OAUTH_STATE_NOT_FOUND');
    assertError(await linkApi(sandbox, 'GET', `/link/api/oauth/${crypto.randomUUID()}`, session), 404, 'OAUTH_STATE_NOT_FOUND');
    assert.equal((await fetch(new URL(`/link/oauth?state=${crypto.randomUUID()}`, sandbox.url))).status, 404);
    assert.equal((await fetch(new URL('/link/oauth?state=not-a-uuid', sandbox.url))).status, 404);
    assert.equal((await submit(crypto.randomUUID(), 'user_good')).status, 404);
    // A password platform is not started here.
    const password = await linkApi(sandbox, 'POST', '/link/api/oauth', session, { platform_id: crypto.randomUUID() });
    assertError(password, 404, 'PLATFORM_NOT_OAUTH');
  });
});
