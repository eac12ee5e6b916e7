// The element's one keyed comparison (#36), which replaced a positional array and a JSON.stringify of an Omit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sameRecord } from '../../src/shared/same-record.js';

test('key by key: === for values, word by word for a plain object, as itself for anything else', () => {
  const parent = new (class Parent {})();
  const place = { linkUrl: 'https://link.example', containerParent: parent, strings: { close: 'Close', loading: 'Loading' } };
  assert.equal(sameRecord(place, { ...place, strings: { ...place.strings } }), true, 'new words object, same words');
  assert.equal(sameRecord(place, { ...place, strings: { ...place.strings, close: 'Cerrar' } }), false);
  assert.equal(sameRecord(place, { ...place, linkUrl: 'https://other.example' }), false);
  assert.equal(sameRecord(place, { ...place, containerParent: new (class Parent {})() }), false, 'not a plain object: compared as itself');
  assert.equal(sameRecord({ prefetch: false }, {}), false, 'a key the other lacks differs');
});
