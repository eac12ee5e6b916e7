/**
 * `payroll-link/testing/playwright`: the sandbox's hosted Link page driven in one line of a Playwright test, wherever
 * the widget put the Link frame (the modal, inline, a launch page), following the steps of link-flow-steps.ts.
 *
 * @example
 * ```ts
 * import { linkFlow } from 'payroll-link/testing/playwright';
 *
 * await page.getByRole('button', { name: 'Connect payroll' }).click();
 * const { accountId, jobId, exit } = await linkFlow(page).connect({ employer: 'PayPoint', username: 'user_good', password: 'pass_good' });
 * ```
 *
 * Typed against the few members of Playwright's `Page`, `Locator` and `FrameLocator` it uses ({@link LinkFlowPage}),
 * not `import type` from `@playwright/test` or `playwright-core`: a declaration file that imports a package resolves only
 * where that package is, and an app has one or the other (`@playwright/test` brings `playwright-core` only as a
 * dependency of its own, which pnpm does not hoist), while this package builds with `playwright-core` alone. So the
 * declarations import nothing of Playwright, and a `Page` of either package, of any version from 1.40 on, fits them
 * (the e2e tests pass `playwright-core`'s, the packaging test's app `@playwright/test`'s). Nothing of Playwright runs
 * here either: the page given does it all.
 */
import type { LinkError } from '../protocol.js';
import type { PayrollLinkEventDetail } from '../protocol/element-events.js';
import {
  LINK_FRAME,
  LINK_PAGE_ROOT,
  LINK_SCREENS,
  OAUTH_WINDOW,
  SANDBOX_CREDENTIALS,
  textPattern,
  type FailingSandboxUsername,
  type LinkControl,
  type LinkScreenName,
} from './link-flow-steps.js';

export type { FailingSandboxUsername } from './link-flow-steps.js';

/**
 * The members of Playwright's `Locator` the flow uses. `L` is the locator type itself (Playwright's `Locator`): the
 * methods that take a locator take one of the page's own, as Playwright's do.
 */
export interface LinkFlowLocator<L> {
  click(): Promise<void>;
  fill(value: string): Promise<void>;
  check(): Promise<void>;
  focus(): Promise<void>;
  press(key: string): Promise<void>;
  count(): Promise<number>;
  textContent(): Promise<string | null>;
  waitFor(): Promise<void>;
  first(): L;
  locator(selector: string): L;
  getByRole(role: LinkControl['role'], options: { name: RegExp }): L;
  filter(options: { has?: L; hasText?: RegExp }): L;
  or(locator: L): L;
}

/** The members of Playwright's `FrameLocator` the flow uses. */
export interface LinkFlowFrameLocator<L> {
  locator(selector: string): L;
}

/** The members of Playwright's `Page` the flow uses in the OAuth platform's window. */
export interface LinkFlowPopup<L> {
  locator(selector: string): L;
  close(): Promise<void>;
}

/** The member of Playwright's `Page` that runs a function in it. */
export interface LinkFlowEvaluates {
  evaluate<R, Arg>(pageFunction: (arg: Arg) => R | Promise<R>, arg: Arg): Promise<R>;
}

/** The members of Playwright's `Page` the flow uses: a `Page` of `@playwright/test` or `playwright-core` is one. */
export interface LinkFlowPage<L extends LinkFlowLocator<L>> extends LinkFlowEvaluates {
  locator(selector: string): L;
  frameLocator(selector: string): LinkFlowFrameLocator<L>;
  waitForEvent(event: 'popup'): Promise<LinkFlowPopup<L>>;
}

/** What the user types on the login screens (or the OAuth platform's window): the sandbox's `user_good` by default. */
export interface LinkFlowCredentials {
  /** Default `user_good`; the sandbox's test users are in docs/sandbox.md ("Credentials"). */
  username?: string;
  /** Default `pass_good`, every test user's. */
  password?: string;
  /** Typed when the one-time code screen comes (`user_mfa`); default `mfa_code`. */
  mfaCode?: string;
}

/** What {@link LinkFlow.connect} answers on the screens that come. */
export interface LinkFlowConnectOptions extends LinkFlowCredentials {
  /**
   * The employer or payroll provider to search for and pick, by its name as the search lists it (`'PayPoint'`,
   * `'OAuth Payroll'`). Default: the first employer on a payroll platform the search lists. Not asked when the Link
   * token named one.
   */
  employer?: string;
  /**
   * On the allocation screen, when it comes: a fixed amount in dollars (`{ amount: '250.00' }`) or a whole percentage
   * (`{ percentage: '50' }`, where offered), as the user types it. Default: the entire paycheck, the screen's choice.
   */
  allocation?: { amount: string } | { percentage: string };
}

/** What {@link LinkFlow.connect} resolves with: the element's `link-success` detail, and its `link-exit` after Done. */
export type LinkFlowConnected = PayrollLinkEventDetail<'link-success'> & {
  /** The session's end (`reason: 'completed'`), once Done was pressed. */
  readonly exit: PayrollLinkEventDetail<'link-exit'>;
};

/** What {@link LinkFlow.fail} resolves with: the element's `link-exit` detail (`reason: 'error'`), its error set. */
export type LinkFlowFailed = PayrollLinkEventDetail<'link-exit'> & { readonly error: LinkError };

/** The Link flow of one page, driven as its user would: {@link linkFlow}. */
export interface LinkFlow {
  /**
   * Connects an account: goes through the screens as they come (intro, employer, login, the one-time code, the
   * OAuth platform's window, the allocation), waits for the job, presses Done. Rejects with a {@link LinkFlowError}
   * when a screen refuses what it was given (wrong credentials) or the flow ends on an error.
   */
  connect(options?: LinkFlowConnectOptions): Promise<LinkFlowConnected>;
  /**
   * Closes the flow before its outcome, as the user would: the modal's close control, or inline the Link page's own;
   * while a job runs, the Link page asks first, and the answer is Leave. Resolves with `link-exit`'s detail
   * (`reason: 'user_closed'`).
   */
  exit(): Promise<PayrollLinkEventDetail<'link-exit'>>;
  /**
   * Logs in as a sandbox user whose job fails (`user_error`; `user_pending` after the sandbox's `pendingJobDelayMs`),
   * waits for the error screen and closes it. Resolves with `link-exit`'s detail: `reason: 'error'`, and the error.
   */
  fail(username?: FailingSandboxUsername, options?: Omit<LinkFlowConnectOptions, 'username'>): Promise<LinkFlowFailed>;
}

/** The flow could not go on as asked: a screen refused what it was given, or the session ended otherwise. */
export class LinkFlowError extends Error {
  override name = 'LinkFlowError';
  /** The Link page's error, when the flow ended on one (`link-error`'s detail). */
  readonly error: LinkError | null;

  constructor(message: string, error: LinkError | null = null) {
    super(error ? `${message}: ${error.code} (${error.message})` : message);
    this.error = error;
  }
}

/**
 * The Link flow in `page` (a Playwright `Page`): the frame of the `<payroll-link>` element's modal, its inline box, or
 * a launch page's, found through their shadow roots whenever an action starts. Call its actions once the flow is open
 * (after the click on the element's button); each resolves with what the element dispatched, heard as its events
 * bubble to `document`.
 */
export function linkFlow<L extends LinkFlowLocator<L>>(page: LinkFlowPage<L>): LinkFlow {
  const frame = page.frameLocator(FRAME);
  return {
    async connect(options = {}) {
      await listen(page);
      await drive(page, frame, options, 'success');
      // Waiting before the press: a launch page may go to its redirect right after link-exit.
      const ended = exited(page);
      await pressFinal(frame, 'success');
      const { success, exit } = await ended;
      if (!success) throw new LinkFlowError('The session ended without link-success', exit.error);
      return { ...success, exit };
    },
    async exit() {
      await listen(page);
      const showing = await screenShowing(frame, SCREEN_NAMES);
      const modal = (await page.locator(MODAL_FRAME).count()) > 0;
      const close = modal
        ? page.locator(MODAL_CLOSE)
        : frame.locator(LINK_PAGE_ROOT).getByRole('button', { name: textPattern(INLINE_CLOSE) });
      const ended = exited(page);
      await close.click();
      if (showing === 'running') await control(frame, 'running', 'leave').click();
      return (await ended).exit;
    },
    async fail(username = 'user_error', options = {}) {
      await listen(page);
      await drive(page, frame, { ...options, username }, 'error');
      const ended = exited(page);
      await pressFinal(frame, 'error');
      const { errors, exit } = await ended;
      const error = exit.error ?? errors.at(-1) ?? null;
      if (exit.reason !== 'error' || !error) throw new LinkFlowError(`The session ended with ${exit.reason}, not an error`);
      return { ...exit, error };
    },
  };
}

/** The Link frame, modal or inline (Playwright's CSS pierces the shadow roots in between). */
const MODAL_FRAME = `${LINK_FRAME.modal.host} ${LINK_FRAME.modal.frame}`;
const FRAME = `${MODAL_FRAME}, ${LINK_FRAME.inline.host} ${LINK_FRAME.inline.frame}`;
const MODAL_CLOSE = `${LINK_FRAME.modal.host} ${LINK_FRAME.modal.close.css}`;
const INLINE_CLOSE = LINK_FRAME.inline.close.name;

const SCREEN_NAMES = Object.keys(LINK_SCREENS) as LinkScreenName[];
/** The screens that ask something, or end the flow: all but the running job's. */
const ASKING = SCREEN_NAMES.filter((name): name is Exclude<LinkScreenName, 'running'> => name !== 'running');
/** More screens than any flow has: a flow that keeps coming back is stuck, not long. */
const MAX_SCREENS = 12;

type ControlOf<S extends LinkScreenName> = keyof (typeof LINK_SCREENS)[S]['controls'];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The screen's element, while it shows. */
function screen<L extends LinkFlowLocator<L>>(frame: LinkFlowFrameLocator<L>, name: LinkScreenName): L {
  const steps: { element: string; marker?: string } = LINK_SCREENS[name];
  const element = frame.locator(steps.element);
  return steps.marker ? element.filter({ has: frame.locator(steps.marker) }) : element;
}

/** A control of a screen: by role and name where it has one (the contract), else by its CSS. */
function control<L extends LinkFlowLocator<L>, S extends LinkScreenName>(frame: LinkFlowFrameLocator<L>, name: S, which: ControlOf<S>): L {
  const steps = (LINK_SCREENS[name].controls as Record<ControlOf<S>, LinkControl>)[which];
  const scope = screen(frame, name);
  return steps.name ? scope.getByRole(steps.role, { name: textPattern(steps.name) }) : scope.locator(steps.css);
}

/** Waits for one of `names` to show, and says which. */
async function screenShowing<L extends LinkFlowLocator<L>, N extends LinkScreenName>(
  frame: LinkFlowFrameLocator<L>,
  names: readonly N[],
): Promise<N> {
  const screens = names.map((name) => screen(frame, name));
  for (;;) {
    await screens
      .reduce((any, next) => any.or(next))
      .first()
      .waitFor();
    // The screen may have moved on since: then wait again.
    for (const [i, found] of screens.entries()) if ((await found.count()) > 0) return names[i]!;
  }
}

/** After an answer on `name`: waits for the next screen, or for the screen's alert to say why it stays. */
async function leave<L extends LinkFlowLocator<L>>(frame: LinkFlowFrameLocator<L>, name: LinkScreenName): Promise<void> {
  const next = SCREEN_NAMES.filter((other) => other !== name)
    .map((other) => screen(frame, other))
    .reduce((any, other) => any.or(other));
  const controls: Record<string, LinkControl> = LINK_SCREENS[name].controls;
  const problem = controls.problem && screen(frame, name).locator(controls.problem.css).filter({ hasText: /\S/ });
  await (problem ? next.or(problem) : next).first().waitFor();
  if (problem && (await problem.count()) > 0)
    throw new LinkFlowError(`The ${name} screen refused it: ${(await problem.textContent())?.trim()}`);
}

/** Answers each screen as it comes, until `until` shows; the other end of the flow is an error. */
async function drive<L extends LinkFlowLocator<L>>(
  page: LinkFlowPage<L>,
  frame: LinkFlowFrameLocator<L>,
  options: LinkFlowConnectOptions,
  until: 'success' | 'error',
) {
  for (let count = 0; count < MAX_SCREENS; count++) {
    const name = await screenShowing(frame, ASKING);
    if (name === until) return;
    if (name === 'success' || name === 'error') {
      const { errors } = await recorded(page);
      throw new LinkFlowError(`The flow ended on its ${name} screen`, name === 'error' ? (errors.at(-1) ?? null) : null);
    }
    await ANSWERS[name](page, frame, options);
    await leave(frame, name);
  }
  throw new LinkFlowError(`The flow did not reach its ${until} screen in ${MAX_SCREENS} screens`);
}

type Answer = <L extends LinkFlowLocator<L>>(
  page: LinkFlowPage<L>,
  frame: LinkFlowFrameLocator<L>,
  options: LinkFlowConnectOptions,
) => Promise<void>;

/** What each screen that asks is answered. */
const ANSWERS: Record<Exclude<LinkScreenName, 'running' | 'success' | 'error'>, Answer> = {
  intro: (_, frame) => control(frame, 'intro', 'continue').click(),
  async search(_, frame, { employer }) {
    if (employer === undefined) return control(frame, 'search', 'anyPayrollEmployer').first().click();
    await control(frame, 'search', 'query').fill(employer);
    const { result } = LINK_SCREENS.search.controls;
    const named = frame.locator(result.nameCss).filter({ hasText: new RegExp(`^\\s*${escape(employer)}\\s*$`) });
    await control(frame, 'search', 'result').filter({ has: named }).first().click();
  },
  async login(_, frame, options) {
    await control(frame, 'login', 'username').fill(options.username ?? 'user_good');
    await control(frame, 'login', 'password').fill(options.password ?? SANDBOX_CREDENTIALS.password);
    await control(frame, 'login', 'submit').click();
  },
  async oauth(page, frame, options) {
    const opened = page.waitForEvent('popup');
    await control(frame, 'oauth', 'open').click();
    const popup = await opened;
    const { controls } = OAUTH_WINDOW;
    await popup.locator(controls.username.css).fill(options.username ?? 'user_good');
    await popup.locator(controls.password.css).fill(options.password ?? SANDBOX_CREDENTIALS.password);
    await popup.locator(controls.submit.css).click();
    const outcome = popup.locator(controls.done.css).or(popup.locator(controls.problem.css));
    await outcome.first().waitFor();
    const problem = popup.locator(controls.problem.css);
    const refused = (await problem.count()) > 0 ? (await problem.textContent())?.trim() : null;
    await popup.close();
    if (refused) throw new LinkFlowError(`The OAuth platform's window refused the login: ${refused}`);
  },
  async mfa(_, frame, options) {
    await control(frame, 'mfa', 'code').fill(options.mfaCode ?? SANDBOX_CREDENTIALS.mfaCode);
    await control(frame, 'mfa', 'submit').click();
  },
  async allocation(_, frame, { allocation }) {
    if (allocation) {
      const [type, value] =
        'amount' in allocation ? (['amount', allocation.amount] as const) : (['percentage', allocation.percentage] as const);
      await control(frame, 'allocation', type).check();
      await control(frame, 'allocation', 'value').fill(value);
    }
    await control(frame, 'allocation', 'submit').click();
  },
};

/**
 * Presses the final screen's button (Done, Close), which ends the session; in the modal the frame goes with it, so
 * the key press is not awaited (Playwright may wait for the gone frame's acknowledgement): the caller waits for
 * `link-exit`.
 */
async function pressFinal<L extends LinkFlowLocator<L>>(frame: LinkFlowFrameLocator<L>, name: 'success' | 'error'): Promise<void> {
  const button = name === 'success' ? control(frame, 'success', 'done') : control(frame, 'error', 'close');
  await button.focus();
  void button.press('Enter').catch(() => {});
}

/** The element's events an action waits for, as a page records them ({@link listen}). */
interface Recorded {
  login: PayrollLinkEventDetail<'link-login'> | null;
  success: PayrollLinkEventDetail<'link-success'> | null;
  errors: PayrollLinkEventDetail<'link-error'>[];
  exit: PayrollLinkEventDetail<'link-exit'> | null;
}

/** Where the page keeps its recorder: a registered symbol on its window, so that nothing of the page's names clashes. */
const RECORDER = 'payroll-link/testing/playwright: recorder';

/**
 * Listens, in the page, for the element's events from now on (they bubble and are composed: `document` hears them
 * from any shadow root), in place of an earlier action's listeners. Before the action drives anything, so that no
 * event comes before its listener.
 */
const listen = (page: LinkFlowEvaluates) =>
  page.evaluate((key) => {
    // No named function in here: a page function travels as its source, and a transpiler that keeps names (tsx,
    // esbuild's keepNames) would wrap each in a helper the page does not have. Hence the members assigned below.
    type Recorder = { record: Recorded; exited?: Promise<Recorded>; hear?(event: Event): void; stop?(): void };
    const slots = globalThis as unknown as Record<symbol, Recorder | undefined>;
    slots[Symbol.for(key)]?.stop?.();
    const names = ['link-login', 'link-success', 'link-error', 'link-exit'];
    const recorder: Recorder = { record: { login: null, success: null, errors: [], exit: null } };
    recorder.exited = new Promise<Recorded>((settle) => {
      recorder.hear = (event: Event) => {
        const { record } = recorder;
        const { detail } = event as CustomEvent<unknown>;
        if (event.type === 'link-login') record.login = detail as Recorded['login'];
        else if (event.type === 'link-success') record.success = detail as Recorded['success'];
        else if (event.type === 'link-error') record.errors.push(detail as Recorded['errors'][number]);
        else {
          record.exit = detail as Recorded['exit'];
          recorder.stop!();
          settle(record);
        }
      };
    });
    recorder.stop = () => names.forEach((name) => document.removeEventListener(name, recorder.hear!, true));
    names.forEach((name) => document.addEventListener(name, recorder.hear!, true));
    slots[Symbol.for(key)] = recorder;
  }, RECORDER);

/** What the page has recorded so far. */
const recorded = (page: LinkFlowEvaluates) =>
  page.evaluate((key) => (globalThis as unknown as Record<symbol, { record: Recorded }>)[Symbol.for(key)]!.record, RECORDER);

/**
 * The record once `link-exit` has fired: asked before the press that ends the flow, which the caller awaits first
 * (a failure of that press then leaves this one handled, not an unhandled rejection).
 */
function exited(page: LinkFlowEvaluates): Promise<Recorded & { exit: PayrollLinkEventDetail<'link-exit'> }> {
  const ended = page.evaluate(
    (key) => (globalThis as unknown as Record<symbol, { exited: Promise<Recorded> }>)[Symbol.for(key)]!.exited,
    RECORDER,
  ) as Promise<Recorded & { exit: PayrollLinkEventDetail<'link-exit'> }>;
  ended.catch(() => {});
  return ended;
}
