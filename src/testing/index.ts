/**
 * `payroll-link/testing`: the kit for an app's own tests. `mockLink()` scripts the Link session of every
 * `<payroll-link>`, `openLink()` and `<PayrollLink>` in a unit test; `webhookRequest()` builds the request the
 * service sends to a webhook receiver. Never in a production bundle: nothing of the package imports it. Playwright's
 * helpers are `payroll-link/testing/playwright`, React Native's `payroll-link/testing/react-native`, and the sandbox in
 * a test runner's global setup `payroll-link/testing/sandbox` (docs/testing.md).
 */
export { mockLink } from './mock-link.js';
export { ScriptError } from './script-error.js';
export { findLinkButton } from './find-link-button.js';
export { webhookRequest } from './webhook-request.js';
export type { WebhookRequestOptions, WebhookRequestPayload } from './webhook-request.js';
export type { MockLink, MockLinkOptions, ScriptedErrorCode, ScriptedExit, ScriptedLink } from './mock-link.js';
export type { LinkPayload } from './scripted-session.js';
// The Link page's steps as data, for a WebDriver or Appium test (playwright.ts follows them too).
export { LINK_FRAME, LINK_PAGE_ROOT, LINK_SCREENS, OAUTH_WINDOW, SANDBOX_CREDENTIALS } from './link-flow-steps.js';
export { findInLinkPage, findLinkFrame, linkScreenShowing, matchesText, textPattern } from './link-flow-steps.js';
export type {
  FailingSandboxUsername,
  LinkControl,
  LinkScreenName,
  LinkScreenSteps,
  SandboxUsername,
  TextMatch,
} from './link-flow-steps.js';
