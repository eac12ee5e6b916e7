/**
 * `mockLink()`: the app's unit test swaps the real Link session for a scripted one, for every `<payroll-link>`,
 * `openLink()` and `<PayrollLink>` in the test's realm, and plays the Link page's events into it.
 */
import { SCRIPTED_LINKS } from '../shared/scripted-key.js';
import type { ScriptedLinks, ScriptedRealm } from '../core/scripted-links.js';
import type { OpenLinkOptions } from '../core/link-options.js';
import type { SessionStateName } from '../core/session-moves.js';
import type { ExitDetail, LinkError, LinkErrorType, LoginDetail, SuccessDetail } from '../protocol.js';
import { LINK_ERROR_CODES, LINK_PAGE_ERROR_CODES } from '../shared/link-error-codes.js';
import { ScriptError } from './script-error.js';
import { cancelLater, later, randomUuid } from './test-clock.js';
import { ScriptedSession, scriptedToken, type LinkPayload } from './scripted-session.js';

/** Options of {@link mockLink}. */
export interface MockLinkOptions {
  /**
   * `'call'`: keep the app's token request (its `tokenUrl` or `fetchToken`, the element's prefetch too), so that a
   * test can assert on it (a stubbed `fetch`, a test server); its failure ends the session as it would in a browser.
   * Default: no token is fetched; each session gets a made-up token.
   */
  tokenUrl?: 'call';
  /** How long {@link MockLink.opened} waits for the app to open Link before it rejects. Default 2,000 ms. */
  openTimeoutMs?: number;
}

/**
 * A code the Link page gives (docs/errors.md: the Link page's, and the widget's it gives too), or any other the
 * service may give. Not the widget's own (`TOKEN_HTTP_500`, `MODAL_HIDDEN`, …): no Link page sends those, and
 * `error()` refuses them (see there).
 */
export type ScriptedErrorCode = keyof typeof LINK_PAGE_ERROR_CODES | LinkPageTooCode | (string & {});

/** The widget's codes the sandbox's Link page gives too (`linkPageToo` in LINK_ERROR_CODES). */
type LinkPageTooCode = {
  [C in keyof typeof LINK_ERROR_CODES]: (typeof LINK_ERROR_CODES)[C] extends { linkPageToo: true } ? C : never;
}[keyof typeof LINK_ERROR_CODES];

/** How a script ends a session: the Link page's exit (its reason; for `'error'`, the error, by default the last one played). */
export interface ScriptedExit {
  reason?: 'completed' | 'user_closed' | 'error';
  error?: LinkError | null;
}

/**
 * One session the app opened, scripted: what the app opened it with, and the Link page's events to play into it.
 * Each play returns the detail the app's callback and the element's event were given, and throws a
 * {@link ScriptError} when the real session's rules refuse it: exactly one exit, at most one login and one success,
 * nothing after the exit.
 */
export interface ScriptedLink {
  /** The options the session was opened with (`prepareLink()`'s and `open()`'s merged), the callbacks among them. */
  readonly options: Readonly<OpenLinkOptions>;
  /** Its state in the session's table (`open` once its token is handed over, `ended` after its exit). */
  readonly state: SessionStateName;
  /** Settles with the exit detail when the session ends (as `LinkHandle.closed`). */
  readonly closed: Promise<ExitDetail>;
  /** The user logged in: `link-login`. `accountId` and `platformId` are new UUIDs unless given (a reconnect's account by default). */
  login(detail?: Partial<LoginDetail>): LoginDetail;
  /** The job finished: `link-success`. Its account is the login's unless given; its job a direct deposit switch. */
  success(detail?: Partial<SuccessDetail>): SuccessDetail;
  /**
   * Something failed in the Link page: `link-error`, with the code's `type` from docs/errors.md and `pendingRetry` true
   * for a wrong password or code (the flow goes on), false otherwise (then `exit({ reason: 'error' })` ends it with this
   * error). The widget's own failures are not the Link page's to send: a {@link ScriptError} says how to bring each
   * about (a token request that fails: `mockLink({ tokenUrl: 'call' })` and a failing endpoint).
   */
  error(code: ScriptedErrorCode, detail?: Partial<LinkError>): LinkError;
  /**
   * The Link page ended the session: `link-exit`, last. Default reason: `completed` after a success, else `user_closed`.
   * The detail is the real session's (`completed` after a success, the token's id, the account).
   */
  exit(exit?: ScriptedExit): ExitDetail;
  /** Any other Link page event of the contract (`select_employer`, `screen_transition`, …): `link-event`. */
  event<N extends 'open' | 'select_employer' | 'select_platform' | 'login_attempt' | 'input_allocation' | 'screen_transition'>(
    name: N,
    payload: LinkPayload<N>,
  ): LinkPayload<N>;
}

/** The scripted sessions of a test: see {@link mockLink}. */
export interface MockLink extends Omit<ScriptedLink, 'options' | 'state' | 'closed'> {
  /**
   * Resolves with the next session the app opens (or opened since the last call), once its token is handed over (the
   * real session's `link-open`), or once it ended before that (a token request that failed, with `tokenUrl: 'call'`).
   * Rejects when none comes within `openTimeoutMs`.
   */
  opened(): Promise<ScriptedLink>;
  /** Every session opened since `mockLink()`, oldest first. */
  readonly sessions: readonly ScriptedLink[];
  /**
   * Puts the real session back. A session still open is closed (`closed_by_host`: the app hears its `onExit`), so that
   * none outlives the test; a flow the element built ahead under the script opens a real session from now on. A new
   * `mockLink()` restores the one before it first.
   */
  restore(): void;
}

/** The current `mockLink()`'s restore, so that a new one (after a test that failed before its restore) starts clean. */
let restoreCurrent: (() => void) | undefined;

/**
 * Swaps the real Link session for a scripted one in this realm until {@link MockLink.restore}: no frame, no token
 * fetch (unless `{ tokenUrl: 'call' }`), nothing on the network. The app's own code runs as it would: its button, its
 * callbacks and event listeners, the element's events. The scripted session moves by the real session's table
 * (src/core/session-moves.ts), so its rules cannot drift from the real one's.
 *
 * @example
 * ```ts
 * const link = mockLink();
 * render(<ConnectPayroll userId="u1" />);
 * await user.click(screen.getByRole('button', { name: 'Connect payroll' }));
 * await link.opened();
 * const { accountId, jobId } = link.success();
 * link.exit();
 * link.restore();
 * ```
 */
export function mockLink(options: MockLinkOptions = {}): MockLink {
  restoreCurrent?.();
  const realm = globalThis as ScriptedRealm;
  const tokens = options.tokenUrl === 'call' ? 'call' : 'scripted';
  const openTimeoutMs = options.openTimeoutMs ?? 2_000;
  const sessions: ScriptedLink[] = [];
  /** Sessions opened that no `opened()` has handed out yet, and the `opened()` calls waiting for one. */
  const unclaimed: ScriptedLink[] = [];
  const waiting: Array<{ resolve: (link: ScriptedLink) => void; reject: (error: Error) => void }> = [];
  let installed = true;

  const opened = (session: ScriptedSession) => {
    const link = scriptedLink(session);
    sessions.push(link);
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(link);
    else unclaimed.push(link);
  };
  const host = { tokens, onOpened: opened, installed: () => installed } as const;
  /** Every scripted session built, opened or not: restore() closes those still open. */
  const built: ScriptedSession[] = [];
  const scripted: ScriptedLinks = {
    prepareLink: (prepareOptions) => {
      const session = new ScriptedSession(prepareOptions, host);
      built.push(session);
      return session.prepared();
    },
    fetchLinkToken: () => (tokens === 'call' ? undefined : Promise.resolve(scriptedToken())),
  };
  realm[SCRIPTED_LINKS] = scripted;

  const restore = () => {
    if (!installed) return;
    installed = false;
    if (realm[SCRIPTED_LINKS] === scripted) delete realm[SCRIPTED_LINKS];
    if (restoreCurrent === restore) restoreCurrent = undefined;
    for (const waiter of waiting.splice(0)) waiter.reject(new ScriptError('mockLink: restored before the app opened Link.'));
    for (const session of built) session.close();
  };
  restoreCurrent = restore;

  /** The session a play goes to: the last one opened. */
  const current = (): ScriptedLink => {
    const link = sessions.at(-1);
    if (!link) throw new ScriptError('mockLink: no session is open yet: the app has not opened Link (await link.opened() first).');
    return link;
  };

  return {
    opened() {
      if (!installed) return Promise.reject(new ScriptError('mockLink: opened() after restore().'));
      const ready = unclaimed.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise<ScriptedLink>((resolve, reject) => {
        const waiter = {
          resolve: (link: ScriptedLink) => (cancelLater(timer), resolve(link)),
          reject: (error: Error) => (cancelLater(timer), reject(error)),
        };
        const timer = later(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(
            new ScriptError(
              `mockLink: the app did not open Link within ${openTimeoutMs} ms (no <payroll-link> clicked or shown, no openLink() called).`,
            ),
          );
        }, openTimeoutMs);
        waiting.push(waiter);
      });
    },
    get sessions() {
      return sessions;
    },
    restore,
    login: (detail) => current().login(detail),
    success: (detail) => current().success(detail),
    error: (code, detail) => current().error(code, detail),
    exit: (exit) => current().exit(exit),
    event: (name, payload) => current().event(name, payload),
  };
}

/** How a test brings about the widget's own failures, which no Link page sends. */
const HOW_ELSE =
  "bring it about as a user's browser would (a token request that fails: mockLink({ tokenUrl: 'call' }) and a failing endpoint; a hidden modal: hide its container), or script the Link page's JOB_FAILED, NETWORK_ERROR, ….";
/** The widget's own codes but those the Link page gives too (ACCOUNT_MISMATCH, UNEXPECTED), and `TOKEN_HTTP_<status>`. */
const WIDGET_OWN = new RegExp(
  `^(${Object.entries(LINK_ERROR_CODES)
    .filter(([, meaning]) => !('linkPageToo' in meaning))
    .map(([code]) => code.replace('<status>', '\\d+'))
    .join('|')})$`,
);

/** The script's side of one session: its plays, each filled in as a real Link page would. */
export function scriptedLink(session: ScriptedSession): ScriptedLink {
  let login: LoginDetail | undefined;
  let succeeded = false;
  return {
    options: session.options,
    get state() {
      return session.state;
    },
    closed: session.closed,
    login(detail = {}) {
      login = session.play('login', {
        accountId: detail.accountId ?? session.options.accountId ?? randomUuid(),
        platformId: detail.platformId ?? randomUuid(),
        linkTokenId: detail.linkTokenId ?? session.linkTokenId,
      });
      return login;
    },
    success(detail = {}) {
      const success = session.play('success', {
        accountId: detail.accountId ?? login?.accountId ?? session.options.accountId ?? randomUuid(),
        platformId: detail.platformId ?? login?.platformId ?? randomUuid(),
        jobId: detail.jobId ?? randomUuid(),
        job: detail.job ?? 'direct_deposit_switch',
        params: detail.params ?? {},
        linkTokenId: detail.linkTokenId ?? session.linkTokenId,
      });
      succeeded = true;
      return success;
    },
    error(code, detail = {}) {
      if (WIDGET_OWN.test(code)) throw new ScriptError(`mockLink: ${code} is the widget's own error, not the Link page's: ${HOW_ELSE}`);
      const known =
        (LINK_PAGE_ERROR_CODES as Record<string, { type: LinkErrorType; cause: string }>)[code] ??
        (LINK_ERROR_CODES as Record<string, { type: LinkErrorType; cause: string }>)[code.replace(/\d+$/, '<status>')];
      return session.play('error', {
        type: detail.type ?? known?.type ?? 'systemError',
        code,
        message: detail.message ?? known?.cause ?? `${code} (scripted by mockLink)`,
        pendingRetry: detail.pendingRetry ?? known?.type === 'invalidCredentials',
      });
    },
    exit({ reason = succeeded ? 'completed' : 'user_closed', error } = {}) {
      return session.exit(reason, error);
    },
    event: (name, payload) => session.play(name, payload),
  };
}
