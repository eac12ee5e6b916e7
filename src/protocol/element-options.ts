/**
 * The options of `<payroll-link>`, one row each: the one place an option is written, its doc comment its description
 * everywhere. A row is the property's Lit declaration (`attribute`, `type` or `converter`, `reflect`) and its type and
 * default (`value`), whether `openLink()` takes it too (`session`) and whether the Link page is told it (`linkPage`).
 * Derived: the element's properties and fields, the hand-over to its session, `OpenLinkOptions`' fields of those
 * names, the framework typings, custom-elements.json and the element reference. Plain data: loaded before intent.
 *
 * To add an option: its row, what the element or the session does with it, a test, the CHANGELOG; for one the Link
 * page is told, the Link page's code that reads it (the init message has its field, from the row).
 */
import type { WidgetStrings } from '../core/widget-strings.js';
import type { TokenInput } from './link-token.js';
import type { RowsWhere } from './rows-where.js';

/** The colour modes (`ColorSchemeSchema` in src/protocol.ts checks them): the `colorScheme` row's values. */
export const COLOR_SCHEMES = ['light', 'dark', 'auto'] as const;
/** How the flow shows (`DisplaySchema` in src/protocol.ts checks them). */
export const DISPLAYS = ['modal', 'inline'] as const;
// The types src/protocol.ts exports under these names, for the rows (and the element reference, which shows them).
type ColorScheme = (typeof COLOR_SCHEMES)[number];
type Display = (typeof DISPLAYS)[number];

/** One option's row: Lit's declaration of the property, and the fields this table adds. */
export interface ElementOptionRow {
  readonly attribute?: string | false;
  readonly reflect?: boolean;
  readonly type?: BooleanConstructor;
  readonly converter?: { fromAttribute(value: string | null): unknown };
  /** The property's type (by the cast), and its default (`undefined`: none). */
  readonly value: unknown;
  /** `openLink()` takes it too, under the same name: the element hands it to each session it starts. */
  readonly session?: true;
  /**
   * The Link page is told it (needs `session`): the init message's field of its name, which takes one of `values`,
   * or text (at most 2,000 characters); the session sends a value the field takes, and none else.
   */
  readonly linkPage?: true;
  /** The values a `linkPage` option takes. */
  readonly values?: readonly string[];
}

export const ELEMENT_OPTIONS = {
  /** The integrator's backend endpoint: receives `POST {"end_user_id": ...}` (or `{}`; `account_id` too with `account-id`) and answers `{ data: LinkToken }`. */
  tokenUrl: { attribute: 'token-url', value: undefined as string | undefined },
  /** The hosted Link page. Its origin is the only origin whose messages are trusted. */
  linkUrl: { attribute: 'link-url', value: undefined as string | undefined },
  /** Sent to `token-url` as `end_user_id`, so the backend can mint the token for that user. */
  endUserId: { attribute: 'end-user-id', value: undefined as string | undefined },
  /**
   * Reconnects this account instead of connecting a new one (update mode), for an account that was disconnected
   * or whose platform wants its user to log in again. Sent to `token-url` as `account_id` (your backend forwards
   * it only for an account this user owns: `authorizeAccount`), and carried by the session's details
   * (`link-exit`'s `accountId`). A login to another account ends the session with `link-error` code
   * `ACCOUNT_MISMATCH`. With `fetchToken`, your function must ask for the reconnect token itself.
   */
  accountId: { attribute: 'account-id', value: undefined as string | undefined },
  /**
   * Fetch the token ahead so that the click opens at once. Each token is a billable call to the service
   * (`POST /link_tokens`), so the bare attribute (`true`) fetches on intent only: when the pointer moves over the
   * button, it gets focus or is pressed, and again after the user closes the flow unfinished; a page view with no
   * interaction mints nothing. `prefetch="load"` (`'load'`) fetches as soon as the element connects as well: for a
   * page where the button is the whole point (a "connect your payroll" step). At most one token fetched ahead is
   * outstanding per element; one never used is left to expire. Beside the token, the Link page loads hidden
   * ("Instant open"), so the click only shows it; that frame goes after 2 minutes without intent.
   */
  prefetch: { converter: { fromAttribute: prefetchFromAttribute }, value: false as boolean | 'load' },
  /**
   * How the flow shows: unset or `'modal'`, a button that opens it in a modal; `'inline'`, the flow itself, in the
   * page's flow inside this element (an onboarding step), with no button, backdrop, scroll lock or focus trap.
   * An inline element starts its session by itself once it comes within about one viewport of being visible (a
   * page with inline elements far below the fold mints no token), on connect with `prefetch="load"`, or on
   * `show()` (only these two where nothing says it is seen: jsdom, which has no IntersectionObserver). Its height follows the Link page's content within `--payroll-link-inline-min-height` and
   * `--payroll-link-inline-max-height`, and is `--payroll-link-inline-height` until the Link page's first report.
   * A session that ends on the Link page's final screen (completed, or an error) leaves the frame there until the
   * element is removed or `show()` starts a new session; one its user closes leaves nothing, and the element
   * takes no room then. A frame that goes with focus in it leaves focus on the element itself (made focusable,
   * `tabindex="-1"`, and named with the `title` words only then), unless a `link-exit` listener moves it. Same events, callbacks and errors as the modal. See docs/inline.md.
   */
  display: { reflect: true, value: undefined as Display | undefined },
  /** Disables the button; `show()` does nothing while set. */
  disabled: { type: Boolean, reflect: true, value: false as boolean },
  /** Whether the Link flow is showing. Reflected; setting it opens or closes the flow. */
  open: { type: Boolean, reflect: true, value: false as boolean },
  /**
   * Gets the token your own way (custom headers, an SDK); overrides `token-url`. A token fetched ahead belongs
   * to the function that fetched it, unless `end-user-id` says whom it is for: set `end-user-id`, or keep the
   * function stable (React's `useCallback`), so that a new function on every render keeps it.
   */
  fetchToken: { attribute: false, value: undefined as (() => Promise<TokenInput>) | undefined },
  /**
   * Opens a window the Link flow asks for (a payroll platform's own login page, which refuses to be framed) your
   * own way, in place of the widget's popup: for a native app's webview, where `window.open` does nothing, open
   * `url` in the system browser or an in-app browser tab. The URL has passed the contract's checks (https; plain
   * http on loopback only; no credentials; never the Link token). Unset: the widget opens a popup with `noopener`.
   * Read when a flow opens.
   */
  onOpenUrl: { attribute: false, session: true, value: undefined as ((url: string) => void) | undefined },
  /**
   * The widget's own words, over the defaults of the page's language: `connect` (the button, unless it has
   * content), `error`, and the modal's `title`, `close` and `loading`. The language is the nearest `lang`
   * attribute (the element's ancestors, then `<html lang>`): English and Spanish (`es`, `es-MX`...) are built
   * in, any other language gets English. The Link page is told the language too.
   */
  strings: { attribute: false, value: undefined as Partial<WidgetStrings> | undefined },
  /**
   * The colour mode of the modal and the Link page: `light` (the default), `dark`, or `auto`, which follows the
   * user's `prefers-color-scheme`. Read when the flow opens (`open()` of a prepared flow may give it too); the Link
   * page is told it. Another value falls back to `light`, with a console warning. The button keeps its own colours
   * (`--payroll-link-button-*`).
   */
  colorScheme: {
    attribute: 'color-scheme',
    session: true,
    linkPage: true,
    values: COLOR_SCHEMES,
    value: undefined as ColorScheme | undefined,
  },
} as const satisfies Record<string, ElementOptionRow>;

/** The options' rows, by property. */
export type ElementOptions = typeof ELEMENT_OPTIONS;

/** The value of each option `K`, by property, its doc comment the row's. */
export type OptionValues<K extends keyof ElementOptions = keyof ElementOptions> = {
  -readonly [P in keyof ElementOptions as P extends K ? P : never]: ElementOptions[P]['value'];
};

/** The options `openLink()` takes too (`session: true`). */
export type SessionOptionName = RowsWhere<ElementOptions, { session: true }>;
/** The options the Link page is told (`linkPage: true`). */
export type LinkPageOptionName = RowsWhere<ElementOptions, { linkPage: true }>;

/** `prefetch` as an attribute: absent is off, `"load"` fetches on connect too, any other value (the bare attribute) on intent. */
function prefetchFromAttribute(value: string | null): boolean | 'load' {
  return value === 'load' ? 'load' : value !== null;
}
