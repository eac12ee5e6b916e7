/**
 * Fails at import, with one sentence, when the `zod` this package resolves is not zod 4 (an app whose package manager
 * hands it zod 3): without this the first call fails somewhere deep inside a schema, as `z.int is not a function`.
 */
import * as z from 'zod';

if (typeof (z as { int?: unknown }).int !== 'function' || typeof (z as { iso?: unknown }).iso !== 'object') {
  throw new Error(
    'payroll-link/server needs zod 4 (it found an older zod). Install zod@^4 in your app, or let npm give payroll-link its own copy: ' +
      'remove any override or alias that forces zod 3 on it.',
  );
}
