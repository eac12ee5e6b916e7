/**
 * Every error code a `LinkError` may carry, with its meaning: the one place a code is listed and described.
 * docs/errors.md's table is generated from these records (`npm run docs:reference`; `-- --check` in `npm test`),
 * and `LinkErrorCode` (src/core/link-error.ts) is the keys of {@link LINK_ERROR_CODES}.
 *
 * Browser code imports this file's types only (`import type`): the descriptions are for the docs and the tests,
 * and must not cost the widget's bundle a byte (the size check).
 */
import type { LinkErrorType } from '../protocol.js';

/** One code's row in docs/errors.md: the `type` it comes with, its cause and what to do about it. */
export interface ErrorCodeMeaning {
  readonly type: LinkErrorType;
  /** Why it happens. */
  readonly cause: string;
  /** What the integrator does about it. */
  readonly remedy: string;
}

/** A widget's code that the sandbox's Link page gives too (docs/errors.md: "widget, Link page"). */
interface WidgetCodeMeaning extends ErrorCodeMeaning {
  readonly linkPageToo?: true;
}

/**
 * The widget's own codes, in the order docs/errors.md lists them. `TOKEN_HTTP_<status>` stands for
 * `TOKEN_HTTP_400`, `TOKEN_HTTP_503` and so on (the token endpoint's HTTP status). A test checks that every code
 * `linkError(...)` uses in src/ is here with its `type`, and that each one here is still used.
 */
export const LINK_ERROR_CODES = {
  NO_TOKEN_SOURCE: {
    type: 'clientError',
    cause: 'Neither `token-url` (`tokenUrl`) nor `fetchToken` is set, and no `token` was given.',
    remedy: 'Set `token-url` or `fetchToken`.',
  },
  INVALID_LINK_URL: {
    type: 'clientError',
    cause:
      '`link-url` (`linkUrl`) is missing, not a URL, or not https (plain http only on `localhost`, `127.0.0.1`, `[::1]`). No token is fetched.',
    remedy: "Set `link-url` to the service's Link page (the sandbox's on your machine).",
  },
  MODAL_UNAVAILABLE: {
    type: 'clientError',
    cause:
      'The browser refused to show the modal: a `container` outside the document, or no constructed stylesheets (a very old browser). Scroll and focus are given back.',
    remedy: 'Leave `container` unset, or pass one that is in the document; check the browser list.',
  },
  MODAL_HIDDEN: {
    type: 'clientError',
    cause:
      "The page hid the modal while it showed (its container or an ancestor got `display: none` or `content-visibility: hidden`). The exit's reason is `closed_by_host`.",
    remedy: "Do not hide the modal's container; to end the flow, call `close()` or remove the element.",
  },
  NO_CONTAINER: {
    type: 'clientError',
    cause: "`display: 'inline'` with no `container` to show the flow in (`openLink`, `prepareLink`).",
    remedy: 'Pass `container`, an element (or shadow root) in your page; see [Inline](inline.md).',
  },
  'TOKEN_HTTP_<status>': {
    type: 'networkError',
    cause:
      'The token endpoint answered HTTP `<status>` (e.g. `TOKEN_HTTP_503`). 429 and 5xx were tried 3 times (honouring `Retry-After`); other statuses once.',
    remedy:
      'Read your backend\'s log for that request. `TOKEN_HTTP_400` / `TOKEN_HTTP_403` with `account-id`: see "Reconnecting an account" in the README.',
  },
  TOKEN_NETWORK: {
    type: 'networkError',
    cause: 'The token endpoint could not be reached, 3 tries in all.',
    remedy: "Check `token-url` (same origin: the request sends the page's cookies) and that the backend runs.",
  },
  TOKEN_TIMEOUT: {
    type: 'networkError',
    cause:
      'The token endpoint did not answer within 15 s (not retried), or a token given as a promise (`token`, a token fetched ahead) did not settle in that time.',
    remedy: 'Make the endpoint answer faster; make sure `fetchToken` settles. Tune with `tokenFetch.timeoutMs`.',
  },
  TOKEN_MALFORMED: {
    type: 'invalidLinkToken',
    cause: 'The token endpoint answered with a body that is not JSON.',
    remedy: 'Answer `{ "data": <the service\'s Link token> }` as JSON (`payroll-link/server` does).',
  },
  TOKEN_INVALID: {
    type: 'invalidLinkToken',
    cause:
      "What the token source gave breaks the contract: the endpoint's body is not `{ data: { id, token, expires, mode } }`, or `fetchToken` / `token` gave neither such a Link token nor a token string of 1 to 2,000 characters. Checked before any hand-over, whatever the source: the Link page is never left waiting for a token it cannot take.",
    remedy: "Pass the service's Link token on unchanged; do not wrap, trim or pad it.",
  },
  TOKEN_EXPIRED: {
    type: 'invalidLinkToken',
    cause:
      'The token endpoint answered with a token already past its `expires`, or a `token` given has expired and there is no `token-url` / `fetchToken` to get a new one.',
    remedy: "Mint a fresh token per session; check your server's clock.",
  },
  LINK_UNAVAILABLE: {
    type: 'networkError',
    cause: 'The Link page did not say it was ready within `readyTimeoutMs` (20 s).',
    remedy: 'Check `link-url`, your `frame-src` CSP, and that the Link page loads in a frame.',
  },
  LINK_RELOADED: {
    type: 'systemError',
    cause: 'The Link page reloaded after it got its token: that single-use token is spent, the session cannot go on.',
    remedy: 'Nothing to fix unless it recurs: the user starts again with a new session (a new token).',
  },
  SESSION_CODE_UNAVAILABLE: {
    type: 'networkError',
    cause: "The session's code (the `payroll-link.session.js` chunk) did not load, or not within `readyTimeoutMs`.",
    remedy: 'Serve both files of one release side by side; check `script-src`; the user may try again (Firefox: after a reload).',
  },
  ACCOUNT_MISMATCH: {
    type: 'invalidCredentials',
    linkPageToo: true,
    cause: 'A reconnect session (`account-id`): the user logged in to another account than the one to reconnect.',
    remedy: 'Ask the user to log in to the account being reconnected.',
  },
  OPEN_URL_REFUSED: {
    type: 'systemError',
    cause:
      'The Link page asked to open a window at a URL the contract refuses: not https (plain http only on loopback), a user name or password in it, over 2,000 characters, or the Link token in it. Nothing was opened; `pendingRetry: true`, the flow goes on (the Link page is told `refused`).',
    remedy: 'Nothing on your side: report it to the service.',
  },
  POPUP_BLOCKED: {
    type: 'clientError',
    cause:
      'The browser\'s popup blocker refused the window the Link page asked for (no user gesture it still honoured). `pendingRetry: true`: the Link page shows a "Continue in a new window" button, whose click opens it.',
    remedy: "Nothing; to open windows your own way (a native app's webview), set `onOpenUrl`.",
  },
  UNEXPECTED: {
    type: 'systemError',
    linkPageToo: true,
    cause: 'Something failed that the code does not expect (a bug).',
    remedy: 'Report it with the `message`.',
  },
} as const satisfies Record<string, WidgetCodeMeaning>;

/**
 * The codes of the sandbox's Link page that are not the widget's (the service's codes, which the widget passes on
 * unchanged; the real Link page may give others). A test checks that every code the sandbox's Link page gives is
 * here or in {@link LINK_ERROR_CODES}.
 */
export const LINK_PAGE_ERROR_CODES = {
  INVALID_LINK_TOKEN: {
    type: 'invalidLinkToken',
    cause:
      'The Link page refused the token (unknown, spent, expired by its clock, or malformed). Before anything else happened the widget tries once more with a new token, silently; this reaches you only when that fails too.',
    remedy: 'Mint a fresh token per session; never reuse one.',
  },
  INVALID_LINK_SESSION: {
    type: 'invalidLinkToken',
    cause: 'The Link session behind the token is no longer valid.',
    remedy: 'Start a new session.',
  },
  INVALID_CREDENTIALS: {
    type: 'invalidCredentials',
    cause: 'Wrong username or password. `pendingRetry: true`: the flow goes on, the user may try again.',
    remedy: 'Nothing: the Link page asks again.',
  },
  INVALID_MFA_CODE: {
    type: 'invalidCredentials',
    cause: 'Wrong one-time code. `pendingRetry: true`.',
    remedy: 'Nothing: the Link page asks again.',
  },
  NETWORK_ERROR: {
    type: 'networkError',
    cause: 'The Link page lost its connection to the service. `pendingRetry: true` on a form; terminal otherwise.',
    remedy: 'Nothing on a form; otherwise let the user start again.',
  },
  JOB_FAILED: {
    type: 'platformError',
    cause: "The payroll platform refused or failed the job. The job's own code may come instead.",
    remedy: 'Tell the user the platform could not finish; they may try again later.',
  },
  JOB_WATCH_TIMEOUT: {
    type: 'systemError',
    cause:
      "The job did not finish in time (the Link page stopped watching it). The sandbox's Link page never ends on a timer: it warns and offers Keep waiting.",
    remedy: 'Check the job later through the API (`GET /jobs/:id`) or its webhook.',
  },
  OAUTH_LOGIN_TIMEOUT: {
    type: 'systemError',
    cause:
      "The user did not finish logging in on the platform's own page (the new window) in time. The sandbox's Link page never ends on a timer: it warns and offers Keep waiting and Try again.",
    remedy: 'Let the user start again.',
  },
  UNSUPPORTED_PROTOCOL_VERSION: {
    type: 'clientError',
    cause: "The widget's frame protocol version is not the Link page's: a widget too old or too new for this Link page.",
    remedy: 'Update `payroll-link`.',
  },
  INVALID_INIT: {
    type: 'clientError',
    cause: "The widget's `init` message broke the frame protocol (or came without its `MessagePort`).",
    remedy: 'Update `payroll-link`; report it if it persists.',
  },
} as const satisfies Record<string, ErrorCodeMeaning>;
