/**
 * The sandbox's test users, defined once: the Link API logs them in
 * (`api/link-api.ts`), the `create-account` trigger takes their names
 * (`api/triggers-api.ts`), and the Link page's login screen lists them
 * (`link-page/screens/link-login.ts`; the page bundles this module, so it holds
 * plain values only). `docs/sandbox.md` describes them.
 */
import type { Scenario } from './store.js';

/** The sandbox test users, in the order the login screen lists them: username → how its jobs behave. The password of each is {@link SANDBOX_PASSWORD}. */
export const SANDBOX_USERS = {
  user_good: 'good',
  user_mfa: 'mfa',
  user_error: 'error',
  user_pending: 'pending',
} as const satisfies Readonly<Record<string, Scenario>>;

/** The name of a sandbox test user. */
export type SandboxUser = keyof typeof SANDBOX_USERS;

/** The test users' names, in the order the login screen lists them. */
export const SANDBOX_USERNAMES = Object.keys(SANDBOX_USERS) as [SandboxUser, ...SandboxUser[]];

/** The password of every sandbox test user. */
export const SANDBOX_PASSWORD = 'pass_good';

/** The one-time code `user_mfa` must enter. */
export const SANDBOX_MFA_CODE = 'mfa_code';
