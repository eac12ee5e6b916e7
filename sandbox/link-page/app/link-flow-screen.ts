/**
 * The Link flow's state as data: one screen at a time, each carrying what it shows and what the flow knows by
 * then. `transition()` (link-flow-moves.ts) moves from one to the next; `<link-app>` renders them.
 */
import type { LinkError } from '../../../src/protocol.js';
import type { LinkPageSession } from '../../api/link-api-schemas.js';
import type { LinkApi } from './link-api-client.js';
import type { LinkStrings } from './link-strings.js';

/** The employer or platform the user logs in to; `name` is null when the Link token preset the platform. */
export interface LinkProvider {
  platformId: string;
  employerId: string | null;
  name: string | null;
}

/** What the user typed on the login screen. */
export interface Credentials {
  username: string;
  password: string;
}

/** What the flow holds once the Link token has been accepted: the Link session and its API. */
export interface Started {
  readonly session: LinkPageSession;
  readonly api: LinkApi;
}

/** What a login gave: the account, the job it created (e.g. `direct_deposit_switch`, `shifts`), and whether its provider takes a percentage allocation. */
export interface Connected {
  readonly accountId: string;
  readonly jobId: string;
  readonly job: string;
  readonly percentageAllowed: boolean;
}

/**
 * Where a long wait (the login in the other window, the job) stands against its time limit (WCAG 2.2.1, Timing
 * Adjustable): `ahead` of it; `near` it (the user is warned and asked whether to keep waiting); `passed` it with no
 * answer (the polling pauses; the question stays until the user answers: no timer alone ends the session).
 */
export type WaitLimit = 'ahead' | 'near' | 'passed';

/**
 * One long wait: `round` counts its periods (each "keep waiting" starts a new one, with its own poll and timers,
 * whose events name it: a timer or a poll of an older round is dropped), and where it stands against the limit.
 */
export interface Wait {
  readonly round: number;
  readonly limit: WaitLimit;
}

/** A wait's first period. */
export const FRESH_WAIT: Wait = { round: 0, limit: 'ahead' };

/**
 * The OAuth-style platform's login window, once asked for: its URL, its `state` (what the sandbox's long poll is
 * asked with), whether the browser blocked the widget's popup (then the login screen's "Continue in a new window"
 * button opens it, its click being the gesture), and the wait for the login there.
 */
export interface OAuthWindow {
  readonly url: string;
  readonly state: string;
  readonly blocked: boolean;
  readonly wait: Wait;
}

/** A non-terminal problem a form shows, by the name of its words in link-strings.ts (the screen says it in the page's language). */
export type FormProblem = keyof Pick<LinkStrings, 'wrongCredentials' | 'wrongCode' | 'unreachable' | 'oauthRefused'>;

/** A form's state: a call it started is in flight, or a non-terminal problem to show (wrong password, wrong code). */
export interface Form {
  readonly busy: boolean;
  readonly formError: FormProblem | null;
}

/** What the flow has learnt by a screen, carried on to the next: an error screen keeps it for its events. */
export interface Known {
  readonly started: Started | null;
  readonly provider: LinkProvider | null;
  readonly connected: Connected | null;
}

/** A screen the session has ended on (or may end on); inline, it stays after the exit, with nothing left to press. */
export interface Final {
  readonly exited: boolean;
}

/**
 * The flow's whole state: the screen to show, carrying what it shows and what the flow knows by then (nothing
 * lives beside it). The names of the user-facing screens are also what `screen_transition` events carry.
 */
export type LinkFlowScreen =
  | { readonly name: 'waiting' }
  | { readonly name: 'standalone' }
  | { readonly name: 'intro'; readonly started: Started; readonly provider: LinkProvider | null }
  | { readonly name: 'search'; readonly started: Started; readonly provider: LinkProvider | null }
  | (Form & {
      readonly name: 'login';
      readonly started: Started;
      readonly provider: LinkProvider;
      readonly credentials: Credentials | null;
      readonly oauthWindow: OAuthWindow | null;
      /** Set once the login succeeded, while the job is being started from this screen. */
      readonly connected: Connected | null;
    })
  | (Form & {
      readonly name: 'mfa';
      readonly started: Started;
      readonly provider: LinkProvider;
      readonly credentials: Credentials | null;
      readonly connected: Connected | null;
    })
  | (Form & { readonly name: 'allocation'; readonly started: Started; readonly provider: LinkProvider; readonly connected: Connected })
  | {
      readonly name: 'running';
      readonly started: Started;
      readonly provider: LinkProvider;
      readonly connected: Connected;
      /** The user asked to leave while the job runs, and is asked to confirm. */
      readonly confirmingClose: boolean;
      /** The watch of the job against its time limit. */
      readonly wait: Wait;
    }
  | (Final & { readonly name: 'success'; readonly started: Started; readonly provider: LinkProvider; readonly connected: Connected })
  | (Final & Known & { readonly name: 'error'; readonly error: LinkError })
  | (Final & Known & { readonly name: 'invalid_token'; readonly error: LinkError })
  | { readonly name: 'closed' };

/** The name of a screen of the Link flow. */
export type LinkScreenName = LinkFlowScreen['name'];

/** The screen named `N`, with its data. */
export type ScreenOf<N extends LinkScreenName> = Extract<LinkFlowScreen, { name: N }>;

/**
 * Screens outside the flow proper: waiting for the host, opened outside a frame, or closed. They send no
 * `screen_transition`, and have nothing to close (no close control, and `close()` does nothing).
 */
export const SILENT_SCREENS: ReadonlySet<LinkScreenName> = new Set(['waiting', 'standalone', 'closed']);

/** Whether `screen` is one of `names`, narrowed to it. */
export const isOn = <N extends LinkScreenName>(screen: LinkFlowScreen, names: readonly N[]): screen is ScreenOf<N> =>
  (names as readonly LinkScreenName[]).includes(screen.name);

/** The screens the session ends on (success, error, invalid token): the ones that say whether the exit was sent. */
export const isFinal = (screen: LinkFlowScreen): screen is ScreenOf<'success' | 'error' | 'invalid_token'> => 'exited' in screen;

/** A form's fields on a screen just shown. */
export const FRESH_FORM: Form = { busy: false, formError: null };
