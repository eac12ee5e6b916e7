/**
 * The contract's UUIDs are checked with a regex written out in src/protocol/strings.ts (zod's string-format
 * machinery costs the browser about 200 B gzip): it must stay the very regex `z.uuid()` checks with, so that what
 * the contract accepts is what it accepted with zod's own schema.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod/mini';
import { regexes } from 'zod/v4/core';
import { LinkTokenSchema, LoginDetailSchema } from '../../src/protocol.js';

describe("the contract's UUIDs", () => {
  it("are checked with the regex of zod's z.uuid()", () => {
    const checks = LinkTokenSchema.shape.id._zod.def.checks ?? [];
    const patterns = checks.map((check) => (check._zod.def as { pattern?: RegExp }).pattern?.source);
    assert.deepEqual(patterns, [regexes.uuid().source]);
  });

  it('accept and refuse what z.uuid() accepts and refuses', () => {
    const zods = z.uuid();
    const samples = [
      '0e21083b-5c3d-4b7a-9f1e-2a3b4c5d6e7f',
      '0E21083B-5C3D-4B7A-9F1E-2A3B4C5D6E7F',
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '0e21083b-5c3d-9b7a-9f1e-2a3b4c5d6e7f',
      '0e21083b-5c3d-4b7a-cf1e-2a3b4c5d6e7f',
      '0e21083b5c3d4b7a9f1e2a3b4c5d6e7f',
      '0e21083b-5c3d-4b7a-9f1e-2a3b4c5d6e7f0',
      '',
      'not-a-uuid',
    ];
    for (const sample of samples) {
      assert.equal(LoginDetailSchema.shape.accountId.safeParse(sample).success, zods.safeParse(sample).success, sample);
    }
  });
});
