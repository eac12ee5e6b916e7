/**
 * The sandbox's hosted Link page (`npx payroll-link-sandbox`, `startSandbox()`), step by step, as plain data: where
 * the widget puts the Link frame, which screens come in the frame, what each asks and which control answers it, by
 * ARIA role and accessible name (Playwright's `getByRole`, Testing Library, an Appium accessibility query) and by a CSS
 * selector (WebDriver). `payroll-link/testing/playwright`'s `linkFlow(page)` follows it; a WebDriver or Appium test
 * follows it the same way (docs/testing.md, "WebDriver and Appium: the steps as data").
 *
 * The roles and names are the Link page's contract (docs/testing.md, "The Link page's roles and labels"), in English:
 * the page the widget opens speaks English unless the Link token or the page asks for Spanish. The CSS selectors
 * name the sandbox's own markup, for a WebDriver that cannot query by role; they hold for the sandbox's page only.
 *
 * Everything the Link flow shows sits in open shadow roots: the widget's modal and inline box are shadow roots of
 * their own, the Link page is `<link-app>` with one element per screen, each with its own shadow root. Playwright's
 * locators pierce open shadow roots; a W3C WebDriver's selectors do not (WebKitGTK's has no piercing selector), so
 * {@link findLinkFrame} and {@link findInLinkPage} walk them: run them in the page with `browser.execute`.
 */

/** How a text is matched (whitespace trimmed and collapsed): the whole of it, how it starts, or a part of it. */
export type TextMatch = { readonly exact: string } | { readonly startsWith: string } | { readonly includes: string };

/** One control of a screen. */
export interface LinkControl {
  /** Its ARIA role. */
  readonly role: 'button' | 'textbox' | 'radio' | 'alert' | 'status';
  /** Its accessible name; absent for a live region (`alert`, `status`), which has none. */
  readonly name?: TextMatch;
  /** Where it is, inside the shadow root of its screen's element (its host's, for the widget's own controls). */
  readonly css: string;
  /** Inside it, the element whose text is what it names (a search result's name, without its kind). */
  readonly nameCss?: string;
}

/** One screen of the Link page. */
export interface LinkScreenSteps {
  /** The screen's element, in `<link-app>`'s shadow root; each screen is a new element. */
  readonly element: string;
  /** When several screens share an element: what only this one has, inside the element's shadow root. */
  readonly marker?: string;
  /** Its `h1`, one of these. */
  readonly headings: readonly TextMatch[];
  /** What the screen asks, and what answers it. */
  readonly asks: string;
  /** Its controls, by what they do. */
  readonly controls: Readonly<Record<string, LinkControl>>;
}

/**
 * Where the widget puts the Link frame: the `<iframe>` titled {@link LINK_FRAME.title}.
 *
 * - **Modal** (`<payroll-link>`, `openLink()`, a launch page): a `div[data-payroll-link-modal]` at the end of `<body>`,
 *   or inside the page's open modal when the element sits in one (a dialog library's), with an open shadow root
 *   holding `<dialog open>` and the frame. The modal's close control is the widget's, on that dialog, not in the frame.
 * - **Inline** (`<payroll-link display="inline">`, `openLink({ display: 'inline' })`): a `div[data-payroll-link-inline]`
 *   in the element's shadow root (or the container given to `openLink()`), with an open shadow root holding the frame;
 *   the Link page keeps its own close control.
 * - **A launch page** (`payroll-link/server/launches`): its `<payroll-link>` opens the modal when the user taps it.
 */
export const LINK_FRAME = {
  /** The frame's title (the `title` option of `openLink()` changes it), also the dialog's accessible name. */
  title: 'Connect your payroll account',
  modal: {
    /** The modal's container; in its shadow root, the dialog. */
    host: 'div[data-payroll-link-modal]',
    /** The frame, in the container's shadow root, once the modal shows (a frame built ahead waits in a closed dialog). */
    frame: 'dialog[open] iframe',
    /** The widget's close control, in the container's shadow root: the user's way out of the modal. */
    close: { role: 'button', name: { exact: 'Close' }, css: 'dialog[open] button[part="close-button"]' },
  },
  inline: {
    /** The inline box; in its shadow root, the frame. */
    host: 'div[data-payroll-link-inline]',
    frame: 'iframe',
    /** The Link page's own close control (inline only), in `<link-app>`'s shadow root, on every screen but a final one. */
    close: { role: 'button', name: { exact: 'Close Payroll Link' }, css: 'button.close' },
  },
  launchPage: {
    /** The element the user taps (its button is `button[part="button"]` in its shadow root). */
    element: 'payroll-link',
    /** What the page says once the flow ended (finished, left, expired). */
    status: '#payroll-link-launch-status',
  },
} as const satisfies {
  title: string;
  modal: { host: string; frame: string; close: LinkControl };
  inline: { host: string; frame: string; close: LinkControl };
  launchPage: { element: string; status: string };
};

/** The Link page's root element, in the frame's document: every screen is in its shadow root. */
export const LINK_PAGE_ROOT = 'link-app';

/**
 * The Link page's screens, in the order they may come: the intro (unless the Link token skips it), the search (unless
 * the token names the employer or platform), the login (or the OAuth platform's window), the one-time code (`user_mfa`),
 * the allocation (a deposit switch, unless the token presets it), the job running, then success or an error. A
 * `running` screen asks nothing: wait for the next.
 */
export const LINK_SCREENS = {
  intro: {
    element: 'link-intro',
    headings: [{ includes: ' wants to ' }],
    asks: 'Nothing: who asks for the connection (`<org_name> wants to switch your direct deposit`). Continue.',
    controls: { continue: { role: 'button', name: { exact: 'Continue' }, css: 'button.primary' } },
  },
  search: {
    element: 'link-search',
    headings: [{ exact: 'Find your employer' }],
    asks: 'The employer or payroll provider: type its name, then pick the result whose name it is.',
    controls: {
      query: { role: 'textbox', name: { exact: 'Employer or payroll provider' }, css: 'input#query' },
      /** Each result: its accessible name is `<name> <kind>` (kind: Employer, Payroll provider, ...); its name alone is in `span.name`. */
      result: { role: 'button', css: 'button.hit', nameCss: 'span.name' },
      /** The first employer on a payroll platform, when the test does not care which (the empty search lists the most popular). */
      anyPayrollEmployer: { role: 'button', css: 'button.hit[data-kind="employer"][data-platform-type="payroll"]' },
    },
  },
  login: {
    element: 'link-login',
    headings: [{ startsWith: 'Log in to ' }],
    asks: 'The username and password (sandbox: SANDBOX_CREDENTIALS). Wrong ones: the alert says so and the screen stays.',
    controls: {
      username: { role: 'textbox', name: { exact: 'Username' }, css: 'input#username' },
      password: { role: 'textbox', name: { exact: 'Password' }, css: 'input#password' },
      submit: { role: 'button', name: { exact: 'Log in' }, css: 'button[type="submit"]' },
      problem: { role: 'alert', css: '#login-error' },
    },
  },
  oauth: {
    element: 'link-oauth',
    headings: [{ startsWith: 'Log in to ' }],
    asks: "Nothing here: the login is on the platform's own page, in a new window (OAUTH_WINDOW). This screen goes on by itself once it is done.",
    controls: {
      open: { role: 'button', name: { startsWith: 'Log in with ' }, css: 'button.primary' },
      /** Where the browser blocked the window the widget opened (WebKit): this click opens it. */
      openBlocked: { role: 'button', name: { exact: 'Continue in a new window' }, css: 'button.primary' },
      problem: { role: 'alert', css: '.form-error' },
    },
  },
  mfa: {
    element: 'link-mfa',
    headings: [{ exact: 'Enter your one-time code' }],
    asks: 'The one-time code (sandbox: `mfa_code`). A wrong one: the alert says so and the screen stays.',
    controls: {
      code: { role: 'textbox', name: { exact: 'One-time code' }, css: 'input#code' },
      submit: { role: 'button', name: { exact: 'Verify' }, css: 'button[type="submit"]' },
      problem: { role: 'alert', css: '#mfa-error' },
    },
  },
  allocation: {
    element: 'link-allocation',
    headings: [{ exact: 'Choose your deposit' }],
    asks: 'How much of each paycheck: the entire paycheck (chosen already), a fixed amount or a percentage (where offered), then the switch.',
    controls: {
      remainder: { role: 'radio', name: { startsWith: 'My entire paycheck' }, css: 'input[value="remainder"]' },
      amount: { role: 'radio', name: { startsWith: 'A fixed amount' }, css: 'input[value="amount"]' },
      percentage: { role: 'radio', name: { startsWith: 'A percentage' }, css: 'input[value="percentage"]' },
      /** The amount in dollars (`250.00`) or the whole percentage (`50`), once `amount` or `percentage` is chosen. */
      value: { role: 'textbox', css: 'input#value' },
      submit: { role: 'button', name: { exact: 'Switch my deposit' }, css: 'button[type="submit"]' },
      problem: { role: 'alert', css: '#value-error' },
    },
  },
  running: {
    element: 'link-running',
    headings: [{ exact: 'Switching your direct deposit' }, { exact: 'Syncing your account' }],
    asks: 'Nothing: the job runs. Closing now asks Leave or Stay first.',
    controls: {
      leave: { role: 'button', name: { exact: 'Leave' }, css: 'section[role="alertdialog"] button.secondary' },
      stay: { role: 'button', name: { exact: 'Stay' }, css: 'section[role="alertdialog"] button.stay' },
    },
  },
  success: {
    element: 'link-result',
    marker: '.icon.success',
    headings: [{ exact: 'Your direct deposit is switched' }, { exact: 'Your account is connected' }],
    asks: 'Nothing: the job succeeded (`link-success` has fired). Done ends the session (`link-exit`, `completed`).',
    controls: { done: { role: 'button', name: { exact: 'Done' }, css: 'button.primary' } },
  },
  error: {
    element: 'link-result',
    marker: '.icon.error',
    headings: [
      { exact: 'Something went wrong' },
      { exact: 'Your payroll provider could not finish' },
      { exact: 'We could not reach the service' },
      { exact: 'This link is no longer valid' },
    ],
    asks: 'Nothing: a terminal error (`link-error`, `pendingRetry: false`, has fired). Close ends the session (`link-exit`, `error`).',
    controls: { close: { role: 'button', name: { exact: 'Close' }, css: 'button.primary' } },
  },
} as const satisfies Record<string, LinkScreenSteps>;

/** The name of a screen of {@link LINK_SCREENS}. */
export type LinkScreenName = keyof typeof LINK_SCREENS;

/** The OAuth platform's own login page, in the new window (a plain page: no shadow roots). */
export const OAUTH_WINDOW = {
  /** The sandbox's OAuth-style platform: search for it by this name. */
  platform: 'OAuth Payroll',
  controls: {
    username: { role: 'textbox', name: { exact: 'Username' }, css: 'input#username' },
    password: { role: 'textbox', name: { exact: 'Password' }, css: 'input#password' },
    submit: { role: 'button', name: { exact: 'Log in' }, css: 'button[type="submit"]' },
    /** Says the user is logged in: close the window, the Link page goes on. */
    done: { role: 'status', css: '[role="status"]' },
    problem: { role: 'alert', css: '[role="alert"]' },
  },
} as const satisfies { platform: string; controls: Record<string, LinkControl> };

/**
 * The sandbox's test users (docs/sandbox.md, "Credentials"): each one's password is `password`; `user_mfa` asks for
 * `mfaCode`. `fails`: the login works and the job then fails, ending on the error screen (`user_pending` after the
 * sandbox's `pendingJobDelayMs`).
 */
export const SANDBOX_CREDENTIALS = {
  password: 'pass_good',
  mfaCode: 'mfa_code',
  users: {
    user_good: { fails: false },
    user_mfa: { fails: false },
    user_error: { fails: true },
    user_pending: { fails: true },
  },
} as const;

/** A sandbox test user. */
export type SandboxUsername = keyof typeof SANDBOX_CREDENTIALS.users;
/** A sandbox test user whose job fails. */
export type FailingSandboxUsername = {
  [U in SandboxUsername]: (typeof SANDBOX_CREDENTIALS.users)[U]['fails'] extends true ? U : never;
}[SandboxUsername];

/** Whether `text` (an accessible name, a heading) is what `match` asks for, whitespace trimmed and collapsed. */
export function matchesText(match: TextMatch, text: string): boolean {
  const plain = text.replace(/\s+/g, ' ').trim();
  return 'exact' in match
    ? plain === match.exact
    : 'startsWith' in match
      ? plain.startsWith(match.startsWith)
      : plain.includes(match.includes);
}

/** A {@link TextMatch} as a pattern for an accessible-name query (Playwright's `getByRole`, Testing Library's). */
export function textPattern(match: TextMatch): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    'exact' in match ? `^${escape(match.exact)}$` : 'startsWith' in match ? `^${escape(match.startsWith)}` : escape(match.includes),
  );
}

/**
 * Runs in the page (`browser.execute(findLinkFrame)`; no named function inside, see playwright.ts's `listen`): the Link frame the widget shows, modal or inline, wherever it
 * is (the end of `<body>`, an open modal of the page, an element's shadow root, inside other shadow roots), or null
 * while there is none. Self-contained, so that a WebDriver can send it to the page as it is.
 */
export function findLinkFrame(): HTMLIFrameElement | null {
  const roots: Array<Document | ShadowRoot> = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const element of roots[i]!.querySelectorAll('*')) {
      const root = element.shadowRoot;
      if (!root) continue;
      const frame = element.matches('div[data-payroll-link-modal]')
        ? root.querySelector('dialog[open] iframe')
        : element.matches('div[data-payroll-link-inline]')
          ? root.querySelector('iframe')
          : null;
      if (frame instanceof HTMLIFrameElement) return frame;
      roots.push(root);
    }
  }
  return null;
}

/**
 * Runs in the Link frame's document (`browser.execute(findInLinkPage, 'link-login', 'input#username')`, after switching
 * to the frame): the element `css` matches inside the shadow root of the screen `screen` (a {@link LinkScreenSteps}'
 * `element`; `marker`, when given, must match there too), or in `<link-app>`'s own shadow root when `screen` is null;
 * null while there is none. Self-contained, so that a WebDriver can send it to the page as it is.
 */
export function findInLinkPage(screen: string | null, css: string, marker: string | null = null): HTMLElement | null {
  const app = document.querySelector('link-app')?.shadowRoot;
  if (!app) return null;
  if (screen === null) return app.querySelector<HTMLElement>(css);
  for (const element of app.querySelectorAll(screen)) {
    const root = element.shadowRoot;
    if (root && (marker === null || root.querySelector(marker))) return root.querySelector<HTMLElement>(css);
  }
  return null;
}

/**
 * Runs in the Link frame's document: the name of the screen showing (a key of {@link LINK_SCREENS}), or null while
 * none is (the page is getting ready). The screens are passed in (`browser.execute(linkScreenShowing, LINK_SCREENS)`),
 * so that the function stays self-contained.
 */
export function linkScreenShowing(screens: Readonly<Record<string, Pick<LinkScreenSteps, 'element' | 'marker'>>>): string | null {
  const app = document.querySelector('link-app')?.shadowRoot;
  if (!app) return null;
  for (const [name, { element, marker }] of Object.entries(screens)) {
    const found = app.querySelector(element);
    if (found?.shadowRoot && (marker === undefined || found.shadowRoot.querySelector(marker))) return name;
  }
  return null;
}
