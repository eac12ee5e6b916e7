// The one rule of "the same token source" (#36: once, keyed by name, where it was spelled in three places and a
// positional array): what each key of TokenSource decides, and that the element's source picks them all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sameTokenSource, tokenSourceOf } from '../../src/core/same-token-source.js';

const fetchA = async () => 'token-a';
const fetchB = async () => 'token-b';

test('the endpoint, the end user and the account must each be the same', () => {
  const source = { tokenUrl: '/t', endUserId: 'u1', accountId: 'a1' };
  assert.equal(sameTokenSource(source, { ...source }), true);
  assert.equal(sameTokenSource(source, { ...source, tokenUrl: '/other' }), false);
  assert.equal(sameTokenSource(source, { ...source, endUserId: 'u2' }), false);
  assert.equal(sameTokenSource(source, { ...source, accountId: undefined }), false, 'a reconnect token never serves a new connection');
});

test('fetchToken: any function serves when the end user is known, only the same one otherwise', () => {
  assert.equal(sameTokenSource({ endUserId: 'u1', fetchToken: fetchA }, { endUserId: 'u1', fetchToken: fetchB }), true);
  assert.equal(sameTokenSource({ endUserId: 'u1', fetchToken: fetchA }, { endUserId: 'u1' }), false);
  assert.equal(sameTokenSource({ fetchToken: fetchA }, { fetchToken: fetchB }), false);
  assert.equal(
    sameTokenSource({ endUserId: '', fetchToken: fetchA }, { endUserId: '', fetchToken: fetchB }),
    false,
    'an empty end user identifies nobody',
  );
  assert.equal(sameTokenSource({ fetchToken: fetchA }, { fetchToken: fetchA }), true);
});

test('tokenSourceOf picks every key of TokenSource and nothing else', () => {
  const element = { tokenUrl: '/t', endUserId: 'u1', accountId: 'a1', fetchToken: fetchA, linkUrl: 'https://link.example', open: false };
  assert.deepEqual(tokenSourceOf(element), { tokenUrl: '/t', endUserId: 'u1', accountId: 'a1', fetchToken: fetchA });
});
