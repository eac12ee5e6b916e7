/**
 * What a Link token presets reaches the Link page through the session answer:
 * an employer names its platform (so the page skips the search as for a
 * platform_id), and a preset allocation is handed over (so the page skips the
 * allocation screen).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LinkPageSessionSchema } from '../../sandbox/api/link-api-schemas.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { createLinkToken, linkApi, startTestSandbox } from './sandbox-test-client.js';

describe('sandbox: Link session presets', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(() => sandbox.close());

  const sessionOf = async (extra: Record<string, unknown>) => {
    const { token } = await createLinkToken(sandbox, extra);
    const response = await linkApi(sandbox, 'POST', '/link/api/sessions', null, { token });
    assert.equal(response.status, 201, response.text);
    return LinkPageSessionSchema.parse(response.body.data);
  };

  it("names the employer's platform when the token names only the employer", async () => {
    const employer = sandbox.store.catalogue.employers[0]!.item;
    const session = await sessionOf({ employer_id: employer.id });
    assert.equal(session.employer_id, employer.id);
    assert.equal(session.platform_id, employer.platform_id);
  });

  it('hands over the preset allocation, or null without one', async () => {
    assert.deepEqual((await sessionOf({ allocation: { type: 'amount', value: 5000 } })).allocation, { type: 'amount', value: 5000 });
    assert.deepEqual((await sessionOf({ allocation: { type: 'remainder' } })).allocation, { type: 'remainder' });
    const plain = await sessionOf({});
    assert.equal(plain.allocation, null);
    assert.equal(plain.platform_id, null);
  });
});
