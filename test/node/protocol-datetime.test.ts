/**
 * The Link token's `expires` is checked with a regex written out in src/protocol/link-token.ts (zod's ISO builder
 * costs the browser half a kilobyte): it must stay the very regex `z.iso.datetime({ offset: true })` builds, so
 * that what the contract accepts is what it accepted with zod's own schema.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod/mini';
import { regexes } from 'zod/v4/core';
import { LinkTokenSchema } from '../../src/protocol.js';

describe("the Link token's expires", () => {
  it("is checked with the regex of zod's z.iso.datetime({ offset: true })", () => {
    const checks = LinkTokenSchema.shape.expires._zod.def.checks ?? [];
    const patterns = checks.map((check) => (check._zod.def as { pattern?: RegExp }).pattern?.source);
    assert.deepEqual(patterns, [regexes.datetime({ offset: true }).source]);
  });

  it('accepts and refuses what zod.iso.datetime({ offset: true }) accepts and refuses', () => {
    const zods = z.iso.datetime({ offset: true });
    const samples = [
      '2026-11-24T16:23:09Z',
      '2026-11-24T16:23:09.123+01:00',
      '2026-11-24T16:23:09-0530',
      '2024-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-11-24 16:23:09Z',
      '2026-11-24T16:23Z',
      '2026-11-24T16:23:09',
      '',
      'tomorrow',
    ];
    for (const sample of samples) {
      assert.equal(LinkTokenSchema.shape.expires.safeParse(sample).success, zods.safeParse(sample).success, sample);
    }
  });
});
