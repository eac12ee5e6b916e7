/**
 * POST /link_tokens: the field set per Service-Version, required and optional
 * fields, validation, single use and expiry.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LinkTokenEnvelopeSchema } from '../../src/protocol.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { api, assertError, connectAccount, linkApi, linkTokenBody, platformOfType, startTestSandbox } from './sandbox-test-client.js';

const LEGACY = { org_name: 'Acme Lending', required_jobs: ['direct_deposit_switch'] };

describe('sandbox: POST /link_tokens', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(() => sandbox.close());

  it('creates a token with features + solution on current versions', async () => {
    for (const version of ['2022-03-02', '2022-06-22', '2025-07-08']) {
      const response = await api(sandbox, 'POST', '/link_tokens', { version, body: linkTokenBody() });
      assert.equal(response.status, 200, response.text);
      const envelope = LinkTokenEnvelopeSchema.parse(response.body);
      assert.equal(envelope.data.mode, 'sandbox');
      assert.ok(envelope.data.token.length >= 32);
    }
  });

  it('creates a token with required_jobs on versions up to 2021-07-28', async () => {
    for (const version of ['2021-04-29', '2021-07-28']) {
      const response = await api(sandbox, 'POST', '/link_tokens', { version, body: LEGACY });
      assert.equal(response.status, 200, response.text);
      LinkTokenEnvelopeSchema.parse(response.body);
    }
  });

  it('also answers at /v1/link_tokens', async () => {
    const response = await api(sandbox, 'POST', '/v1/link_tokens', { body: linkTokenBody() });
    assert.equal(response.status, 200);
    LinkTokenEnvelopeSchema.parse(response.body);
  });

  it('refuses required_jobs on a current version, saying what to send', async () => {
    const response = await api(sandbox, 'POST', '/link_tokens', { version: '2025-07-08', body: LEGACY });
    assertError(response, 400, 'INVALID_PARAMS');
    assertError(response, 400, 'MISSING_FIELDS');
    assert.match(response.body.error.message, /required_jobs is accepted only up to Service-Version 2021-07-28/);
    assert.match(response.body.error.message, /features is required/);
    assert.match(response.body.error.message, /solution is required/);
  });

  it('refuses features + solution on a legacy version, saying what to send', async () => {
    const response = await api(sandbox, 'POST', '/link_tokens', { version: '2021-07-28', body: linkTokenBody() });
    assertError(response, 400, 'INVALID_PARAMS');
    assertError(response, 400, 'MISSING_FIELDS');
    assert.match(response.body.error.message, /features is not accepted by Service-Version 2021-07-28/);
    assert.match(response.body.error.message, /required_jobs is required/);
  });

  it('requires org_name (MISSING_FIELDS) and a non-empty one (INVALID_PARAMS)', async () => {
    const { org_name: _, ...without } = linkTokenBody();
    const missing = await api(sandbox, 'POST', '/link_tokens', { body: without });
    assertError(missing, 400, 'MISSING_FIELDS');
    assert.equal(missing.body.error.type, 'INVALID_REQUEST_PARAMETERS');
    assert.match(missing.body.error.error_codes[0].message, /org_name/);
    assertError(await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody({ org_name: '   ' }) }), 400, 'INVALID_PARAMS');
  });

  it('refuses wrong types, unknown jobs and unknown fields with INVALID_PARAMS', async () => {
    const cases = [
      { org_name: 42 },
      { features: 'direct_deposit_switch' },
      { features: [] },
      { features: ['teleport'] },
      { solution: ['x'] },
      { end_user_id: 7 },
      { employer_id: 'not-a-uuid' },
      { skip_intro_screen: 'yes' },
      { language: 'english please' },
      { allocation: { type: 'percentage', value: 150 } },
      { allocation: { type: 'amount' } },
      { colour: 'blue' },
    ];
    for (const extra of cases) {
      const response = await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody(extra) });
      assertError(response, 400, extra.allocation && !('value' in extra.allocation) ? 'MISSING_FIELDS' : 'INVALID_PARAMS');
    }
  });

  it('accepts every optional field and hands them to the Link session', async () => {
    const platform = platformOfType(sandbox, 'payroll');
    const employer = sandbox.store.catalogue.employers.find(({ item }) => item.platform_id === platform.id)?.item;
    const { accountId } = await connectAccount(sandbox);
    const extra = {
      end_user_id: 'user-123',
      platform_id: platform.id,
      employer_id: employer?.id ?? null,
      account_id: accountId,
      language: 'es-US',
      skip_intro_screen: true,
      allocation: { type: 'amount', value: 2500 },
    };
    const created = await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody(extra) });
    assert.equal(created.status, 200, created.text);
    const session = await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: created.body.data.token });
    assert.equal(session.status, 201);
    assert.equal(session.body.data.end_user_id, 'user-123');
    assert.equal(session.body.data.platform_id, platform.id);
    assert.equal(session.body.data.employer_id, extra.employer_id);
    assert.equal(session.body.data.language, 'es-US');
    assert.equal(session.body.data.skip_intro_screen, true);
    assert.deepEqual(session.body.data.allocation, extra.allocation);
    assert.equal(session.body.data.org_name, 'Acme Lending');
    assert.deepEqual(session.body.data.jobs, ['direct_deposit_switch']);
  });

  it('refuses an account_id on another platform than the platform_id or employer_id it comes with', async () => {
    const { accountId, platformId } = await connectAccount(sandbox);
    const { catalogue } = sandbox.store;
    const other = catalogue.platforms.find(({ item }) => item.type === 'payroll' && item.id !== platformId)!.item;
    const otherEmployer = catalogue.employers.find(({ item }) => item.platform_id === other.id)!.item;
    for (const pin of [{ platform_id: other.id }, { employer_id: otherEmployer.id }]) {
      const response = await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody({ account_id: accountId, ...pin }) });
      assertError(response, 400, 'INVALID_PARAMS');
      assert.match(response.text, /account_id: this account is on another platform/);
    }
    const same = await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody({ account_id: accountId, platform_id: platformId }) });
    assert.equal(same.status, 200, same.text);
  });

  it('refuses unknown catalogue ids and a deposit switch pinned to a time_and_attendance platform', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    assertError(await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody({ platform_id: unknown }) }), 400, 'INVALID_PARAMS');
    assertError(await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody({ employer_id: unknown }) }), 400, 'INVALID_PARAMS');
    assertError(await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody({ account_id: unknown }) }), 400, 'INVALID_PARAMS');
    const timeTracking = platformOfType(sandbox, 'time_and_attendance');
    assertError(
      await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody({ platform_id: timeTracking.id }) }),
      400,
      'PRODUCT_NOT_SUPPORTED',
    );
  });

  it('expires tokens after the default hour', async () => {
    const before = Date.now();
    const response = await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody() });
    const expires = Date.parse(response.body.data.expires);
    assert.ok(expires >= before + 3600_000 - 1000 && expires <= Date.now() + 3600_000 + 1000, response.body.data.expires);
    assert.match(response.body.data.expires, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
  });

  it('makes tokens single use: a second session with the same token is INVALID_LINK_TOKEN', async () => {
    const created = await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody() });
    const first = await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: created.body.data.token });
    assert.equal(first.status, 201);
    const second = await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: created.body.data.token });
    assertError(second, 401, 'INVALID_LINK_TOKEN');
    assert.match(second.body.error.message, /already used/);
  });
});

describe('sandbox: Link token lifetime option', () => {
  it('refuses a token once its configured lifetime has passed', async () => {
    // The sandbox reads this clock: the test moves it past the expiry instead of waiting for it.
    let clock = Date.parse('2025-07-08T12:00:00Z');
    const sandbox = await startTestSandbox({ tokenTtlSeconds: 60, now: () => new Date(clock) });
    try {
      const created = await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody() });
      const expires = Date.parse(created.body.data.expires);
      assert.equal(expires, clock + 60_000);
      const fresh = await api(sandbox, 'POST', '/link_tokens', { body: linkTokenBody() });
      clock = expires - 1;
      assert.equal((await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: fresh.body.data.token })).status, 201);
      clock = expires;
      const response = await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token: created.body.data.token });
      assertError(response, 401, 'INVALID_LINK_TOKEN');
      assert.match(response.body.error.message, /expired/);
    } finally {
      await sandbox.close();
    }
  });
});
