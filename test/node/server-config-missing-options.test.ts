/**
 * #48's friction, fixed as "What to build" 9 says: `createLinkTokenHandler({ client })` takes the version from the
 * client, as `createLinkLaunches` does, and a required option that is missing is called missing, not wrong
 * ("must be one of the known service versions" for a `version` nobody gave).
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ConfigError, createLinkTokenHandler, createPayrollClient, createWebhookHandler } from '../../src/server/index.js';
import { createLinkLaunches } from '../../src/server/launches.js';
import { reply, startUpstream, tokenEnvelope, type FakeUpstream } from './server-example-upstream.js';

const API_SECRET = 'sk_config_test_0123456789';
const PRODUCT = { orgName: 'Acme Lending', solution: 'Deposit Switch', features: ['direct_deposit_switch'] };

const upstreams: FakeUpstream[] = [];
after(() => Promise.all(upstreams.map((upstream) => upstream.close())));

/** The message of the ConfigError `make` throws. */
function configErrorOf(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `not a ConfigError: ${String(error)}`);
    return error.message;
  }
  assert.fail('no ConfigError was thrown');
}

test("review friction (#48 item 9): createLinkTokenHandler({ client }) without version sends the client's version", async () => {
  const service = await startUpstream((_request, _n, res) => reply(res, 200, tokenEnvelope()));
  upstreams.push(service);
  // An old version, whose body differs (required_jobs, no solution): the handler must build the client's version's body.
  const client = createPayrollClient({ apiSecret: API_SECRET, baseUrl: service.url, version: '2021-07-28' });
  const handler = createLinkTokenHandler({ client, orgName: 'Acme Lending', features: ['direct_deposit_switch'] });
  const response = await handler(
    new Request('http://127.0.0.1/api/link-token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
  );
  assert.equal(response.status, 200, await response.clone().text());
  const [sent] = service.requests;
  assert.equal(sent!.headers['service-version'], '2021-07-28');
  assert.deepEqual(JSON.parse(sent!.body), { org_name: 'Acme Lending', required_jobs: ['direct_deposit_switch'] });
});

test("review friction (#48 item 9): with client, a version other than the client's is refused, naming the client's; the same one is accepted", () => {
  const client = createPayrollClient({ apiSecret: API_SECRET, baseUrl: 'http://127.0.0.1:9', version: '2025-07-08' });
  assert.match(
    configErrorOf(() => createLinkTokenHandler({ client, version: '2022-06-22', ...PRODUCT })),
    /version: must be the client's version \(2025-07-08\), or left out/,
  );
  assert.equal(typeof createLinkTokenHandler({ client, version: '2025-07-08', ...PRODUCT }), 'function');
  // Without a solution, the client's version is the one that requires it.
  assert.match(
    configErrorOf(() => createLinkTokenHandler({ client, orgName: 'Acme', features: ['direct_deposit_switch'] })),
    /solution: is required for version 2025-07-08/,
  );
});

test('review friction (#48 item 9): a missing version says it is required, not that it must be one of the known versions', () => {
  const withoutClient = configErrorOf(() => createLinkTokenHandler({ apiSecret: API_SECRET, baseUrl: 'http://127.0.0.1:9', ...PRODUCT }));
  assert.match(withoutClient, /version: is required/);
  assert.doesNotMatch(withoutClient, /version: must be one of/);
  const client = configErrorOf(() => createPayrollClient({ apiSecret: API_SECRET, baseUrl: 'http://127.0.0.1:9' } as never));
  assert.match(client, /version: is missing/);
  assert.doesNotMatch(client, /version: must be one of/);
});

test('review friction (#48 item 9): a wrong value still says what is expected, a missing one says missing', () => {
  const wrong = configErrorOf(() =>
    createPayrollClient({ apiSecret: API_SECRET, baseUrl: 'http://127.0.0.1:9', version: '2020-01-01' as never }),
  );
  assert.match(wrong, /version: must be one of the known service versions/);
  assert.doesNotMatch(wrong, /missing/);
  const noSecret = configErrorOf(() => createPayrollClient({ baseUrl: 'http://127.0.0.1:9', version: '2025-07-08' } as never));
  assert.match(noSecret, /apiSecret: is missing/);
  const noOrgName = configErrorOf(() =>
    createLinkTokenHandler({ apiSecret: API_SECRET, baseUrl: 'http://127.0.0.1:9', version: '2025-07-08', features: ['x'] } as never),
  );
  assert.match(noOrgName, /orgName: is missing/);
  assert.doesNotMatch(noOrgName, /received undefined/);
  const noCallback = configErrorOf(() => createWebhookHandler({ allowUnverified: true } as never));
  assert.match(noCallback, /onEvent: is missing/);
  const client = createPayrollClient({ apiSecret: API_SECRET, baseUrl: 'http://127.0.0.1:9', version: '2025-07-08' });
  const noLinkUrl = configErrorOf(() =>
    createLinkLaunches({
      client,
      ...PRODUCT,
      publicUrl: 'https://app.example.com/link',
      secret: 'launch-secret-config-0123456789abcdef-01',
      onResult: () => {},
    } as never),
  );
  assert.match(noLinkUrl, /linkUrl: is missing/);
});
