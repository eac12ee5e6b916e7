/**
 * Cursors stay short whatever the list's filters are, and stay bound to their
 * list: a cursor carries a hash of its scope, never the scope's text.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { api, assertError, connectAccount, startTestSandbox } from './sandbox-test-client.js';

/** The longest end_user_id the API takes (255 characters), each character three bytes in UTF-8, as in many scripts. */
const LONG_END_USER = '€'.repeat(255);
const OTHER_LONG_END_USER = '€'.repeat(254) + '£';

describe('sandbox: cursors with long filters', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startTestSandbox();
    for (const endUserId of [LONG_END_USER, LONG_END_USER, OTHER_LONG_END_USER, OTHER_LONG_END_USER])
      await connectAccount(sandbox, { endUserId });
  });
  after(() => sandbox.close());

  const accountsOf = (endUserId: string, cursor?: string) =>
    api(
      sandbox,
      'GET',
      `/v1/accounts?limit=1&end_user_id=${encodeURIComponent(endUserId)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );

  it('keeps next_cursor short for a 255-character end_user_id, and page 2 follows', async () => {
    const first = await accountsOf(LONG_END_USER);
    assert.equal(first.status, 200, first.text);
    const cursor: string = first.body.meta.next_cursor;
    assert.equal(typeof cursor, 'string');
    assert.ok(cursor.length <= 100, `next_cursor is ${cursor.length} characters`);
    const second = await accountsOf(LONG_END_USER, cursor);
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.meta.count, 1);
    assert.notEqual(second.body.data[0].id, first.body.data[0].id);
    assert.equal(second.body.data[0].end_user_id, LONG_END_USER);
    assert.equal(second.body.meta.next_cursor, null);
  });

  it('still refuses a cursor replayed on the same list with other filters, or on another list', async () => {
    const { meta } = (await accountsOf(LONG_END_USER)).body;
    assertError(await accountsOf(OTHER_LONG_END_USER, meta.next_cursor), 400, 'INVALID_PARAMS');
    assertError(await api(sandbox, 'GET', `/v1/accounts?limit=1&cursor=${encodeURIComponent(meta.next_cursor)}`), 400, 'INVALID_PARAMS');
    assertError(await api(sandbox, 'GET', `/v1/jobs?limit=1&cursor=${encodeURIComponent(meta.next_cursor)}`), 400, 'INVALID_PARAMS');
  });
});
