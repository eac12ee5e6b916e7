/**
 * What moves the Link flow, and what a move asks to be done, both as data: the events `transition()` takes
 * (link-flow-moves.ts) and the effects it hands back for `LinkFlow` (link-flow.ts) to run.
 */
import type { CloseAnswerMessage, EventMessage, LinkError, OpenUrlResultMessage } from '../../../src/protocol.js';
import type { Allocation, LinkJob, LoginRequest, LoginResult, SearchResult } from '../../api/link-api-schemas.js';
import type { LinkApi } from './link-api-client.js';
import type { Credentials, Started } from './link-flow-screen.js';

/** Nothing more than the name (an event's or an effect's). */
type Bare = Record<never, never>;

/** A login that connected: the account, its job, and whether its provider takes a percentage allocation. */
export type ConnectedLogin = Extract<LoginResult, { status: 'connected' }>;

/**
 * What each event brings. Three sources: the widget, over the frame channel (`init`, `refused`, `standalone`
 * when there is no frame, `closeRequest`, `openUrlResult`); the user, through the screens (`begin` … `close`);
 * and the answers to the effects the flow asked for (`started` … `jobFailed`), each named for its effect. An
 * answer for a screen the user has left is an event that screen does not take: it changes nothing.
 * `inline`: how the widget shows the page (from its init), which decides whether a final screen stays after `exit`.
 */
interface EventData {
  init: { token: string };
  refused: { error: LinkError };
  standalone: Bare;
  closeRequest: { inline: boolean };
  openUrlResult: Pick<OpenUrlResultMessage, 'url' | 'outcome'>;
  begin: Bare;
  pick: { item: SearchResult };
  back: Bare;
  logIn: { credentials: Credentials };
  verify: { code: string };
  logInWithOAuth: Bare;
  allocate: { allocation: Allocation };
  leave: Bare;
  stay: Bare;
  /** Near or past a wait's time limit: another full period (link-flow-screen.ts, `Wait`). */
  keepWaiting: Bare;
  /** Near or past the OAuth wait's limit: a fresh login in a new window, in the same Link session. */
  tryAgain: Bare;
  close: { inline: boolean };
  /** Effect `start`. */
  started: { started: Started };
  startFailed: { cause: unknown };
  /** Effect `logIn`. */
  loggedIn: { result: LoginResult };
  loginFailed: { cause: unknown };
  /** Effect `startOAuth`. */
  oauthStarted: { state: string; url: string };
  oauthStartFailed: { cause: unknown };
  /** Effect `pollOAuth`, for the window at `url` (a new attempt has a new one). */
  oauthLoggedIn: { url: string; result: ConnectedLogin };
  oauthFailed: { url: string; cause: unknown };
  /** Effect `timeLimit` of the OAuth wait at `url`, period `round`: the limit is near, or has passed. */
  oauthWaitNear: { url: string; round: number };
  oauthWaitPassed: { url: string; round: number };
  /** Effect `runJob`. */
  jobStarted: Bare;
  jobStartFailed: { cause: unknown };
  /** Effect `pollJob`: the job ended (in success or error), or a poll failed for good. */
  jobEnded: { job: LinkJob };
  jobFailed: { cause: unknown };
  /** Effect `timeLimit` of the job's watch, period `round`: the limit is near, or has passed. */
  jobWaitNear: { round: number };
  jobWaitPassed: { round: number };
}

/** An event's name. */
export type LinkFlowEventType = keyof EventData;
/** An event of the Link flow, with what it brings. */
export type LinkFlowEvent = { [E in LinkFlowEventType]: { readonly type: E } & Readonly<EventData[E]> }[LinkFlowEventType];
/** The event named `E`. */
export type LinkFlowEventOf<E extends LinkFlowEventType> = Extract<LinkFlowEvent, { type: E }>;

/**
 * What each effect carries. `emit`: one Link event of the contract to the widget. `start` … `pollJob`: calls to
 * the sandbox (`/link/api`), whose results come back as the events named after them; a poll carries its wait's
 * period (`round`) and goes on while its screen would take that period's `passed` event. `timeLimit`: one period
 * of a wait, whose two timers come back as `near` and `passed`. `openUrl`, `answerClose`, `disconnect`: messages
 * to the widget, and the end of the channel. `logUnexpected`: a failure nobody planned for.
 */
interface EffectData {
  emit: { message: EventMessage };
  start: { token: string };
  logIn: { api: LinkApi; request: LoginRequest };
  startOAuth: { api: LinkApi; platformId: string; employerId: string | null };
  openUrl: { url: string };
  pollOAuth: { api: LinkApi; state: string; url: string; round: number };
  runJob: { api: LinkApi; jobId: string; allocation: Allocation | null };
  pollJob: { api: LinkApi; jobId: string; round: number };
  timeLimit: { near: LinkFlowEvent; passed: LinkFlowEvent };
  answerClose: { answer: CloseAnswerMessage['answer'] };
  disconnect: Bare;
  logUnexpected: { cause: unknown };
}

/** An effect's name. */
export type LinkFlowEffectType = keyof EffectData;
/** An effect a move asks for. */
export type LinkFlowEffect = { [T in LinkFlowEffectType]: { readonly type: T } & Readonly<EffectData[T]> }[LinkFlowEffectType];
/** The effect named `T`. */
export type LinkFlowEffectOf<T extends LinkFlowEffectType> = Extract<LinkFlowEffect, { type: T }>;
