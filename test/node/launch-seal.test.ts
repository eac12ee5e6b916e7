/** The launch URL's seal (#42): what it carries comes back whole, and nothing else opens. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { launchKey, openLaunch, openReceipt, sealLaunch, sealReceipt, type LaunchFields } from '../../src/server/launches/launch-seal.js';

const PUBLIC_URL = 'https://app.example.com/link';
const fields: LaunchFields = {
  id: crypto.randomUUID(),
  endUserId: 'a'.repeat(36),
  state: 's'.repeat(32),
  redirectTag: 'a1b2c3d4',
  accountId: null,
  expiresAt: 1_900_000_000,
};

test('a sealed launch opens to the same fields, and the whole URL fits in 200 characters', async () => {
  const key = await launchKey('x'.repeat(32));
  const segment = await sealLaunch(fields, key, PUBLIC_URL);
  assert.deepEqual(await openLaunch(segment, [key], PUBLIC_URL), fields);
  assert.ok(`${PUBLIC_URL}/${segment}`.length <= 200, `${PUBLIC_URL}/${segment}`.length.toString());
  // It reveals nothing it carries.
  for (const carried of [fields.endUserId, fields.state!, fields.id, fields.id.replaceAll('-', '')]) assert.ok(!segment.includes(carried));
  const reconnect = { ...fields, accountId: crypto.randomUUID(), state: null, redirectTag: null, endUserId: 'usuario-ñ' };
  assert.deepEqual(await openLaunch(await sealLaunch(reconnect, key, PUBLIC_URL), [key], PUBLIC_URL), reconnect);
});

test('altered, forged, truncated, or sealed for another URL or secret: nothing opens', async () => {
  const key = await launchKey('x'.repeat(32));
  const segment = await sealLaunch(fields, key, PUBLIC_URL);
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i] === 'A' ? 'B' : 'A';
    const altered = `${segment.slice(0, i)}${char}${segment.slice(i + 1)}`;
    // The last character may only carry padding bits: changing those alone leaves the bytes as they were.
    if (i === segment.length - 1) continue;
    assert.equal(await openLaunch(altered, [key], PUBLIC_URL), null, `altered at ${i}`);
  }
  assert.equal(await openLaunch(segment.slice(0, -4), [key], PUBLIC_URL), null);
  assert.equal(await openLaunch('', [key], PUBLIC_URL), null);
  assert.equal(await openLaunch('not base64 at all!', [key], PUBLIC_URL), null);
  assert.equal(await openLaunch(await sealLaunch(fields, await launchKey('y'.repeat(32)), PUBLIC_URL), [key], PUBLIC_URL), null);
  assert.equal(await openLaunch(segment, [key], 'https://other.example.com/link'), null);
});

test('rotation: a URL sealed under the old secret opens while it is listed after the new one', async () => {
  const [fresh, old] = await Promise.all([launchKey('n'.repeat(32)), launchKey('o'.repeat(32))]);
  const segment = await sealLaunch(fields, old, PUBLIC_URL);
  assert.deepEqual(await openLaunch(segment, [fresh, old], PUBLIC_URL), fields);
  assert.equal(await openLaunch(segment, [fresh], PUBLIC_URL), null);
});

test('a receipt opens whole, and never as a launch (nor a launch as a receipt)', async () => {
  const key = await launchKey('x'.repeat(32));
  const receipt = {
    launchId: fields.id,
    linkTokenId: crypto.randomUUID(),
    expiresAt: fields.expiresAt,
    acceptUntil: fields.expiresAt + 60,
  };
  const sealed = await sealReceipt(receipt, key, PUBLIC_URL);
  assert.deepEqual(await openReceipt(sealed, [key], PUBLIC_URL), receipt);
  assert.equal(await openLaunch(sealed, [key], PUBLIC_URL), null);
  assert.equal(await openReceipt(await sealLaunch(fields, key, PUBLIC_URL), [key], PUBLIC_URL), null);
});
