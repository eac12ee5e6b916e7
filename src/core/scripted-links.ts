/**
 * The one seam of `payroll-link/testing`'s `mockLink()` in the package's code: a property of the realm's global object
 * (its key a registered symbol, src/shared/scripted-key.ts)
 * that `prepareLink()` (and so `openLink()` and every `<payroll-link>`) and the token fetch read each time. Unset, as
 * in production, they go on as always (one property read); set by a test, a scripted session takes the place of the
 * real one. A global, not a module's state: every copy of the package in the test's realm (an app's bundle, the
 * element's session chunk, a test runner's second instance of a module) reads the same. Types only: nothing here ships.
 */
import type { ScriptedTokens } from './fetch-link-token.js';
import type { SCRIPTED_LINKS } from '../shared/scripted-key.js';
import type { PreparedLink, PrepareLinkOptions } from './link-options.js';

/** What a test's `mockLink()` installs: see the file's comment. Its token fetch: `ScriptedTokens`. */
export interface ScriptedLinks extends ScriptedTokens {
  /** Takes the place of `prepareLink()`: the flow built, scripted. */
  prepareLink(options: PrepareLinkOptions): PreparedLink;
}

/** The realm's global object, as the seam reads it. */
export type ScriptedRealm = typeof globalThis & { [SCRIPTED_LINKS]?: ScriptedLinks | undefined };
