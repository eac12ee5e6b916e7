/**
 * The wire contract's string fields (see src/protocol.ts): text of a bounded length and UUIDs, as the Link token
 * (link-token.ts) and the frame's messages (protocol.ts) check them.
 */
import * as z from 'zod/mini';

/** Longest string accepted in a field of a frame message; longer means hostile or broken. */
export const MAX_TEXT = 2000;

export const text = () => z.string().check(z.maxLength(MAX_TEXT));
export const nonEmptyText = () => z.string().check(z.minLength(1), z.maxLength(MAX_TEXT));
/**
 * A UUID: the very regex zod's `z.uuid()` checks with (test/node/protocol-uuid.test.ts keeps it so), written out
 * because zod's string-format machinery costs the browser's session code about 200 B gzip.
 */
export const uuid = () =>
  z
    .string()
    .check(
      z.regex(
        /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/,
        'Invalid UUID',
      ),
    );
