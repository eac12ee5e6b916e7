/**
 * The launch page of `payroll-link/server/launches` as a native app's test meets it: the messages its bridge posts
 * (src/launch-page/launch-page.ts, src/launch-page/app-bridge.ts), in the order it posts them, from a scripted Link
 * session (the kit's `ScriptedSession`, which moves by the real session's table). Free of React Native: the entry
 * `payroll-link/testing/react-native` hands it the URL a WebView was given and a way to deliver a message to it.
 */
import {
  createLaunchBridgeSender,
  parseLaunchBridgeMessage,
  type LaunchBridgeDetail,
  type LaunchBridgeEvent,
  type LaunchDoneDetail,
} from '../launch-bridge.js';
import type { LinkCallbacks } from '../core/link-options.js';
import type { ExitDetail, LinkError, LoginDetail, OpenDetail, SuccessDetail } from '../protocol.js';
import { ELEMENT_EVENTS, type BridgedEventName, type ElementEventRow } from '../protocol/element-events.js';
import { scriptedLink, type ScriptedErrorCode, type ScriptedExit, type ScriptedLink } from './mock-link.js';
import { ScriptError } from './script-error.js';
import { ScriptedSession, type LinkPayload } from './scripted-session.js';

/** Options of `simulateLaunch()`: what the launch's server would have told its page. */
export interface SimulatedLaunchOptions {
  /**
   * The origin of the Link page the launch page frames (`linkUrl`'s, named in its first message, `launch-start`):
   * the view lets it load. Default: the local sandbox's, `http://127.0.0.1:4010`.
   */
  linkOrigin?: string;
  /**
   * Where the page goes once the flow has ended (`launch-done`'s `redirect`: your `redirectUri` with the launch's
   * id, status and state, as your server would answer). Default: null (no `redirectUri`: the page stays on its end screen).
   */
  redirect?: string | null;
}

/** What a successful session played: each element event's detail, and the page's end (`onDone`'s). */
export interface SimulatedConnection {
  open: OpenDetail;
  login: LoginDetail;
  success: SuccessDetail;
  exit: ExitDetail;
  done: LaunchDoneDetail;
}

/** How a session ended: `onExit`'s detail, and the page's end (`onDone`'s). */
export interface SimulatedEnd {
  exit: ExitDetail;
  done: LaunchDoneDetail;
}

/**
 * One launch page, as the view loaded it: each play posts the page's messages, signed with the nonce of the URL the
 * view gave the WebView and numbered, as the real page does. The first play opens the flow (the user's tap:
 * `link-open` and the Link page's `open` event) unless it is open. Each returns the details the view's callbacks
 * were given; a play the real session or page refuses (a second success, anything after the exit, a message the
 * bridge's schema does not take) throws a {@link ScriptError} that says why, and posts nothing.
 */
export interface SimulatedLaunch {
  /** The user opened the flow: `link-open`, then the Link page's `open` event (`link-event`). Once; later calls return it. */
  open(): Promise<OpenDetail>;
  /** The user logged in: `link-login`. `accountId` and `platformId` are new UUIDs unless given. */
  login(detail?: Partial<Omit<LoginDetail, 'linkTokenId'>>): Promise<LoginDetail>;
  /** The job finished: `link-success`. Its account is the login's unless given; its job a direct deposit switch. */
  success(detail?: Partial<Omit<SuccessDetail, 'linkTokenId'>>): Promise<SuccessDetail>;
  /**
   * Something failed: `link-error`, its `type` the code's in docs/errors.md, `pendingRetry` true for a wrong password
   * or code (the flow goes on); then `exit({ reason: 'error' })` ends the flow with it.
   */
  error(code: ScriptedErrorCode, detail?: Partial<LinkError>): Promise<LinkError>;
  /** Another Link event of the contract (`select_employer`, `screen_transition`, …): `link-event`. */
  event<N extends 'select_employer' | 'select_platform' | 'login_attempt' | 'input_allocation' | 'screen_transition'>(
    name: N,
    payload: LinkPayload<N>,
  ): Promise<LinkPayload<N>>;
  /**
   * The Link page asked for a window (an OAuth login): `open-url`, which the view hands to `Linking.openURL`. https,
   * or http on loopback (the sandbox), as the bridge's schema takes it.
   */
  openUrl(url: string): Promise<{ url: string }>;
  /**
   * The session ended: `link-exit` (the real session's detail: `completed` after a success, the token's id, the
   * account), then the page's `launch-done` (`status` `success` after a success, else `exit`). Default reason:
   * `completed` after a success, else `user_closed`. Nothing comes after it.
   */
  exit(exit?: ScriptedExit): Promise<SimulatedEnd>;
  /** A whole successful session from where the launch is: the open and the login (unless played), the success, the exit. */
  connect(detail?: Partial<Omit<SuccessDetail, 'linkTokenId'>>): Promise<SimulatedConnection>;
}

/** The sandbox's Link page, which a launch page frames on a developer's machine. */
const SANDBOX_LINK_ORIGIN = 'http://127.0.0.1:4010';

/** A message the page is about to post: its event and detail, as the element fired it. */
type Outgoing = { [E in LaunchBridgeEvent]: [E, LaunchBridgeDetail<E>] }[LaunchBridgeEvent];

/** See {@link SimulatedLaunch}. */
export class SimulatedLaunchPage implements SimulatedLaunch {
  /** The page's own sender, from the URL the WebView loaded: its nonce, and the next `seq`. */
  readonly #message: ReturnType<typeof createLaunchBridgeSender>;
  readonly #deliver: (data: string) => void;
  readonly #run: <T>(play: () => Promise<T>) => Promise<T>;
  readonly #redirect: string | null;
  readonly #session: ScriptedSession;
  readonly #link: ScriptedLink;
  /** What the element fired during the play under way, posted when it returns (a callback must not throw into the session). */
  #outbox: Outgoing[] = [];
  #opened: OpenDetail | null = null;
  #login: LoginDetail | null = null;
  #success: SuccessDetail | null = null;
  /** The page's `launch-done`, once the session has ended. */
  #done: LaunchDoneDetail | null = null;
  #end: SimulatedEnd | null = null;

  /**
   * The page at `uri` (the launch URL with the view's nonce in its fragment), which has loaded: its first message,
   * `launch-start`, is delivered at once. `run` wraps each play (React's `act`).
   */
  constructor(
    uri: string,
    deliver: (data: string) => void,
    run: <T>(play: () => Promise<T>) => Promise<T>,
    options: SimulatedLaunchOptions = {},
  ) {
    this.#message = createLaunchBridgeSender(uri);
    this.#deliver = deliver;
    this.#run = run;
    this.#redirect = options.redirect ?? null;
    const linkOrigin = options.linkOrigin ?? SANDBOX_LINK_ORIGIN;
    // As the launch page listens: every element event it forwards (`bridge: true`) goes to the app, as it came.
    const callbacks: LinkCallbacks = {};
    for (const [name, row] of Object.entries(ELEMENT_EVENTS) as [BridgedEventName, ElementEventRow][])
      if (row.bridge !== false)
        (callbacks as Record<string, (detail: unknown) => void>)[row.callback] = (detail) => this.#outbox.push([name, detail] as Outgoing);
    // After the forwarded link-exit, the page reports the result and posts launch-done (with the server's answer).
    const onExit = callbacks.onExit!;
    callbacks.onExit = (exit) => {
      onExit(exit);
      const status = this.#success?.linkTokenId === exit.linkTokenId ? 'success' : 'exit';
      this.#done = { status, redirect: this.#redirect };
      this.#outbox.push(['launch-done', this.#done]);
    };
    this.#session = new ScriptedSession(
      { linkUrl: `${linkOrigin}/link`, ...callbacks },
      { tokens: 'scripted', onOpened: () => {}, installed: () => true },
    );
    this.#link = scriptedLink(this.#session);
    this.#outbox.push(['launch-start', { linkOrigin }]);
    this.#post();
  }

  open(): Promise<OpenDetail> {
    return this.#play('open()', () => this.#open());
  }

  login(detail?: Partial<Omit<LoginDetail, 'linkTokenId'>>): Promise<LoginDetail> {
    return this.#play('login()', async () => {
      await this.#open();
      return (this.#login = this.#script(() => this.#link.login(detail)));
    });
  }

  success(detail?: Partial<Omit<SuccessDetail, 'linkTokenId'>>): Promise<SuccessDetail> {
    return this.#play('success()', async () => {
      await this.#open();
      return (this.#success = this.#script(() => this.#link.success(detail)));
    });
  }

  error(code: ScriptedErrorCode, detail?: Partial<LinkError>): Promise<LinkError> {
    return this.#play('error()', async () => {
      await this.#open();
      return this.#script(() => this.#link.error(code, detail));
    });
  }

  event<N extends 'select_employer' | 'select_platform' | 'login_attempt' | 'input_allocation' | 'screen_transition'>(
    name: N,
    payload: LinkPayload<N>,
  ): Promise<LinkPayload<N>> {
    return this.#play(`event('${name}')`, async () => {
      await this.#open();
      return this.#script(() => this.#link.event(name, payload));
    });
  }

  openUrl(url: string): Promise<{ url: string }> {
    return this.#play('openUrl()', async () => {
      await this.#open();
      // What the launch page's onOpenUrl posts, for a window the session let through.
      this.#outbox.push(['open-url', { url }]);
      this.#post();
      return { url };
    });
  }

  exit(exit?: ScriptedExit): Promise<SimulatedEnd> {
    return this.#play('exit()', async () => {
      await this.#open();
      return this.#exit(exit);
    });
  }

  connect(detail: Partial<Omit<SuccessDetail, 'linkTokenId'>> = {}): Promise<SimulatedConnection> {
    return this.#play('connect()', async () => {
      const open = await this.#open();
      const { accountId, platformId } = detail;
      const login = this.#login ?? (this.#login = this.#script(() => this.#link.login({ accountId, platformId })));
      const success = (this.#success = this.#script(() => this.#link.success(detail)));
      return { open, login, success, ...this.#exit({ reason: 'completed' }) };
    });
  }

  /** Runs one play (inside `run`), unless the launch has ended: the page then posts nothing, and the view takes nothing. */
  #play<T>(what: string, play: () => Promise<T>): Promise<T> {
    if (this.#end)
      return Promise.reject(
        new ScriptError(
          `simulateLaunch: ${what} after the launch ended (link-exit ${this.#end.exit.reason}, then launch-done): the launch page posts nothing after it, and PayrollLinkView takes nothing.`,
        ),
      );
    return this.#run(play);
  }

  /**
   * The user's tap: the session opens (its token handed over: `link-open`), then the Link page says `open`. Once, even
   * for plays started together (one promise).
   */
  #open(): Promise<OpenDetail> {
    return (this.#opening ??= (async () => {
      this.#session.open();
      await this.#session.ready;
      this.#opened = { linkTokenId: this.#session.linkTokenId };
      this.#script(() => this.#link.event('open', { linkTokenId: this.#session.linkTokenId }));
      return this.#opened;
    })());
  }
  #opening: Promise<OpenDetail> | undefined;

  #exit(exit?: ScriptedExit): SimulatedEnd {
    const detail = this.#script(() => this.#link.exit(exit));
    return (this.#end = { exit: detail, done: this.#done! });
  }

  /** One play of the scripted session's, and the messages the page posts for it. The kit's refusals name this API. */
  #script<T>(play: () => T): T {
    let result: T;
    try {
      result = play();
    } catch (error) {
      this.#outbox = [];
      if (error instanceof ScriptError) throw new ScriptError(error.message.replace(/^mockLink: /, 'simulateLaunch: '));
      throw error;
    }
    this.#post();
    return result;
  }

  /**
   * Posts what the element fired, in order, each as the page's sender makes it and only as the bridge's schema
   * takes it (the view would drop any other): a test cannot play a message the real page never sends.
   */
  #post(): void {
    const outgoing = this.#outbox;
    this.#outbox = [];
    const messages = outgoing.map(([event, detail]) => {
      const data = this.#message(event, detail);
      if (parseLaunchBridgeMessage(data) === null)
        throw new ScriptError(
          `simulateLaunch: the launch page never posts ${event} ${JSON.stringify(detail)}: the bridge's schema refuses it.`,
        );
      return data;
    });
    for (const data of messages) this.#deliver(data);
  }
}
