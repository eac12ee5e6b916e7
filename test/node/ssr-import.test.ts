import assert from 'node:assert/strict';
import { test } from 'node:test';

test('importing the package in Node (server-side rendering) does not throw', async () => {
  const module = await import('../../src/index.js');
  assert.equal(typeof module.openLink, 'function');
  assert.equal(typeof module.PayrollLink, 'function');
  const core = await import('../../src/core/index.js');
  assert.equal(typeof core.openLink, 'function');
});
