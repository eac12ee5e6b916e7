/**
 * `payroll-link/server/launches`: the Link flow at a URL of your own, for a native app (a system auth session, or a
 * WebView with `payroll-link/react-native`) or a link sent by text or email. Its own entry: it carries the page's code
 * (the element, bundled into a string), which `payroll-link/server` does not. Web-standard, no Node built-in. See
 * `docs/native-apps.md`.
 */
export { createLinkLaunches, type LinkLaunches } from './launches/create-link-launches.js';
export { MAX_TOKENS_PER_LAUNCH } from './launches/launch-answers.js';
export type { LaunchCheck } from './launches/launch-results.js';
export type { LaunchFact } from './launches/launch-verdict.js';
export { LaunchStoreFullError, type ExpiresAt, type LaunchStore } from './launches/store/launch-store.js';
export { memoryLaunchStore } from './launches/store/memory-launch-store.js';
export {
  LaunchRequestSchema,
  LinkLaunchesOptionsSchema,
  type LaunchRequest,
  type LaunchResult,
  type LinkLaunchesOptions,
} from './launches/launch-options.js';
