/**
 * One scripted Link session: what `prepareLink()` builds while a test's `mockLink()` is installed. No frame, no page,
 * no network (unless the token request is kept): the test plays the Link page's events into it, and it moves by the
 * real session's own table (`transition` and `MOVES`, src/core/session-moves.ts), running the same effects a real
 * session runs that an app can see (its callbacks, `ready`, `closed`). A play its rules refuse (a second success,
 * anything after the exit) throws a {@link ScriptError} that says why, instead of the silent drop a real session
 * makes of a Link page that misbehaves: in a test, that is a script to fix.
 */
import { acquireToken, canFetch, fetchLinkToken, type SessionToken, type TokenInput } from '../core/fetch-link-token.js';
import type {
  LinkCallbacks,
  LinkHandle,
  OpenLinkOptions,
  OpenPreparedOptions,
  PrepareLinkOptions,
  PreparedLink,
} from '../core/link-options.js';
import { LinkFailure, linkError } from '../core/link-error.js';
import {
  MOVES,
  transition,
  type EffectRunners,
  type SessionEvent,
  type SessionState,
  type SessionStateName,
} from '../core/session-moves.js';
import { prepareLink } from '../core/open-link.js';
import { trustedLinkUrl } from '../core/trusted-urls.js';
import { EventMessageSchema, type EventMessage, type ExitDetail, type ExitReason, type LinkError } from '../protocol.js';
import { ELEMENT_EVENTS, type ElementEventRow } from '../protocol/element-events.js';
import { guarded } from '../shared/guarded.js';
import { ScriptError } from './script-error.js';
import { randomUuid, soon } from './test-clock.js';

/** How the scripted sessions get their token: a made-up one, or the app's own request (`'call'`). */
export type TokenMode = 'scripted' | 'call';

/** What a Link page's event of name `N` carries, as the contract types it. */
export type LinkPayload<N extends EventMessage['name']> = Extract<EventMessage, { name: N }>['payload'];

/**
 * A token that was never minted: a session plays on it without asking anyone (`mockLink()` without `tokenUrl: 'call'`).
 * It expires as it is made, and says so in what it hands over (a Link token's `expires`), so that nothing keeps it:
 * the element's prefetch drops it, and a real session it reaches after `restore()` fetches a token of its own.
 */
export function scriptedToken(): SessionToken {
  const now = Date.now();
  const input = {
    token: `link-token-scripted-${randomUuid()}`,
    id: randomUuid(),
    expires: new Date(now).toISOString(),
    mode: 'sandbox',
  } as const;
  return { token: input.token, id: input.id, expires: now, receivedAt: now, input };
}

/** What a scripted session needs of the `mockLink()` that made it. */
export interface ScriptHost {
  /** How the session gets its token. */
  tokens: TokenMode;
  /** The app opened it: its token handed over, or its end came first. */
  onOpened(session: ScriptedSession): void;
  /** Whether the `mockLink()` is still installed: a flow built under it and opened after `restore()` is a real one. */
  installed(): boolean;
}

/**
 * A scripted session, from its flow built (`prepareLink`) to its end. `onOpened` hears it once its token is handed over
 * (or once it ended before that): `mockLink().opened()` resolves then.
 */
export class ScriptedSession {
  #state: SessionState = { name: 'prefetched', frameReady: false };
  readonly #options: OpenLinkOptions;
  readonly #host: ScriptHost;
  readonly #abort = new AbortController();
  /** The Link page's URL, resolved, or null when the real session could not start with it (then `#cannotShow` says why). */
  readonly #linkUrl: string;
  readonly #cannotShow: LinkError | null;
  #handle: LinkHandle | null = null;
  #resolveReady = () => {};
  #resolveClosed: (detail: ExitDetail) => void = () => {};
  /** The last error the script played that ends the flow: the exit's when the script gives none. */
  #lastError: LinkError | null = null;
  /** Settles when the Link frame would be ready with its token, or the session ended first. Never rejects. */
  readonly ready = new Promise<void>((resolve) => (this.#resolveReady = resolve));
  /** Settles with the exit detail when the session ends. Never rejects. */
  readonly closed = new Promise<ExitDetail>((resolve) => (this.#resolveClosed = resolve));

  constructor(options: PrepareLinkOptions, host: ScriptHost) {
    this.#options = { ...options };
    this.#host = host;
    // The real session's checks before it builds anything: a Link URL it would hand no token to, inline without a
    // container. The URL's rule needs the page's URL to resolve against: without a DOM (Node), only its text is kept.
    const url = typeof document === 'undefined' ? URL.parse(options.linkUrl) : trustedLinkUrl(options.linkUrl);
    this.#linkUrl = url?.href ?? options.linkUrl;
    this.#cannotShow = !url
      ? linkError('clientError', 'INVALID_LINK_URL', 'link-url (linkUrl) must be an https URL (plain http only on localhost or 127.0.0.1).')
      : options.display === 'inline' && !options.container
        ? linkError('clientError', 'NO_CONTAINER', "display: 'inline' needs a container to show the Link flow in.")
        : null;
    // The Link page "loads" at once: a flow built ahead is ready before its click (`link-ready`), as a real one soon is.
    if (!this.#cannotShow) soon(() => this.#send({ type: 'frameReady' }));
  }

  /** The options the app opened the session with (those given to `prepareLink()` and to `open()`), to assert on. */
  get options(): Readonly<OpenLinkOptions> {
    return this.#options;
  }

  /** Where the session is (the real session's states: `waiting`, `open`, `ended`, …). */
  get state(): SessionStateName {
    return this.#state.name;
  }

  /** The id of the token handed over (a Link event's `linkTokenId`); a new UUID for a bare token string, or before that. */
  get linkTokenId(): string {
    const state = this.#state;
    if (state.name !== 'open') return randomUuid();
    return state.token.id ?? (this.#bareTokenId ??= randomUuid());
  }
  /** The id the events of a session opened with a bare token string (no id of its own) carry, the same for each. */
  #bareTokenId: string | undefined;

  /** Ends the session if the app opened it under the script and it runs still (`closed_by_host`): `mockLink().restore()`. */
  close(): void {
    if (this.#announced || this.#state.name === 'waiting') this.#handle?.close();
  }

  /** The flow, as `prepareLink()` returns it. */
  prepared(): PreparedLink {
    return { open: (openOptions) => this.open(openOptions), dispose: () => this.#send({ type: 'dispose' }) };
  }

  /** `PreparedLink.open`, as the real session does it: the options merged, the flow shown, the token taken. */
  open(openOptions?: OpenPreparedOptions): LinkHandle {
    if (this.#handle) return this.#handle;
    // Built while mockLink() was installed (the element's prefetch), opened after its restore(): the real session.
    if (!this.#host.installed()) return (this.#handle = prepareLink({ ...this.#options, ...openOptions }).open());
    Object.assign(this.#options, openOptions);
    const session = this;
    this.#handle = {
      close: () => this.#sendWithEnding('close', 'closed_by_host'),
      requestClose: () => this.#sendWithEnding('requestClose', 'closed_by_host'),
      closed: this.closed,
      ready: this.ready,
      get droppedMessages() {
        return session.#dropped;
      },
    };
    this.#sendWithEnding('show', 'closed_by_host');
    return this.#handle;
  }

  /** Plays one of the Link page's events, as the contract's schema takes it; returns the payload the app was given. */
  play<N extends EventMessage['name']>(name: N, payload: LinkPayload<N>): LinkPayload<N> {
    const parsed = EventMessageSchema.safeParse({ type: 'payroll-link:event', name, payload });
    if (!parsed.success)
      throw new ScriptError(`mockLink: ${name} ${JSON.stringify(payload)} does not fit the contract: ${parsed.error.message}`);
    const message = parsed.data;
    if (message.name === 'error' && !message.payload.pendingRetry) this.#lastError = message.payload;
    this.#expect('link', `the Link page's ${name} event`);
    const moved = this.#send({ type: 'link', message, accountId: this.#options.accountId, renewable: canFetch(this.#options) });
    if (!moved)
      throw new ScriptError(`mockLink: a second ${name} in one session: the real session drops it (at most one ${name} per session).`);
    return message.payload as LinkPayload<N>;
  }

  /** Plays the Link page's end (its `exit` event): the session ends as the real one does, with `onExit` last. */
  exit(reason: 'completed' | 'user_closed' | 'error', error: LinkError | null = reason === 'error' ? this.#lastError : null): ExitDetail {
    this.play('exit', { reason, error });
    if (this.#state.name !== 'ended') throw new ScriptError(`mockLink: the session did not end on exit (it is ${this.#state.name}).`);
    return this.#state.exit;
  }

  /** Messages refused so far: a scripted session refuses none (a bad script throws instead). */
  #dropped = 0;

  /** Throws unless the session's rules take `type` now: a clear word for the test, not a silent drop. */
  #expect(type: SessionEvent['type'], what: string): void {
    const state = this.#state;
    const row = MOVES[state.name] as Partial<Record<string, unknown>>;
    if (row[type]) return;
    const where =
      state.name === 'ended'
        ? `after the session's exit (${state.exit.reason}): nothing comes after it`
        : state.name === 'waiting' && state.renewed
          ? "while the session gets a new token after the Link page refused one (INVALID_LINK_TOKEN): the app's token request is under way"
          : state.name === 'waiting' || state.name === 'prefetched'
            ? 'before the session opened: await link.opened() first'
            : `while the session is ${state.name}`;
    throw new ScriptError(`mockLink: ${what} ${where}.`);
  }

  /** Tells `mockLink()` once that the app opened this session (its token handed over, or its end came first). */
  #announce(): void {
    if (this.#announced || !this.#handle) return;
    this.#announced = true;
    this.#host.onOpened(this);
  }
  #announced = false;

  #send(event: SessionEvent): boolean {
    const from = this.#state;
    const { state, effects } = transition(from, event);
    this.#state = state;
    for (const effect of effects) (this.#effects[effect] as (state: SessionState, event: SessionEvent) => void)(state, event);
    return state !== from;
  }

  #sendWithEnding(type: 'show' | 'close' | 'requestClose' | 'hidden', reason: ExitReason): void {
    this.#send({ type, reason, error: null, accountId: this.#options.accountId });
  }

  /** Calls an app's callback as the real session does: never after the end, never letting it break the session. */
  #call<T>(callback: ((detail: T) => void) | undefined, detail: T): void {
    if (this.#state.name !== 'ended') guarded(callback, detail);
  }

  /** The token, as the mode says: made up, or the app's request (its `token`, `fetchToken` or `tokenUrl`). */
  #takeToken(given?: TokenInput | Promise<TokenInput>, cancelGiven?: () => void): void {
    const options = this.#options;
    const pending =
      this.#host.tokens === 'call'
        ? given === undefined
          ? fetchLinkToken(options, this.#abort.signal, options.tokenFetch)
          : acquireToken(options, this.#abort.signal, options.tokenFetch, given, cancelGiven)
        : Promise.resolve(scriptedToken());
    pending.then(
      (token) => this.#send({ type: 'token', token }),
      (error: unknown) =>
        this.#send({
          type: 'fail',
          error: error instanceof LinkFailure ? error.linkError : linkError('systemError', 'UNEXPECTED', String(error)),
        }),
    );
  }

  /** The effects of the session's table, as a session without a page runs them (see `EffectInput` in src/core/session-moves.ts). */
  readonly #effects: EffectRunners = {
    onReady: () => guarded(this.#options.onReady, { linkUrl: this.#linkUrl }),
    show: () => {
      const options = this.#options;
      // A session that cannot start ends through the usual error path, once the caller holds its handle.
      const cannotShow = this.#cannotShow;
      if (cannotShow) return soon(() => this.#send({ type: 'fail', error: cannotShow }));
      this.#takeToken(options.token, options.token !== undefined ? options.cancelToken : undefined);
    },
    sendToken: () => {
      this.#resolveReady();
      this.#announce();
    },
    onOpen: ({ token }) => this.#call(this.#options.onOpen, { linkTokenId: token.id }),
    // A new frame and a new token: with a scripted token, at once (the next play finds the session open again); with
    // the app's request, once it answers.
    renew: () => {
      if (this.#host.tokens === 'call') {
        soon(() => this.#send({ type: 'frameReady' }));
        return this.#takeToken();
      }
      this.#send({ type: 'frameReady' });
      this.#send({ type: 'token', token: scriptedToken() });
    },
    onError: ({ error, reason }) => {
      this.#call(this.#options.onError, error);
      this.#sendWithEnding('close', reason);
    },
    dispose: () => this.#abort.abort(),
    keepScreen: () => this.#abort.abort(),
    onExit: ({ exit }) => {
      this.#resolveReady();
      this.#resolveClosed(exit);
      // A session that ended before its token was handed over is "opened" too: opened() hears how it ended.
      this.#announce();
      guarded(this.#options.onExit, exit);
    },
    // As the real session's onEvent (src/core/link-session.ts), which stays as it is there: a function both would share costs
    // the session's code about 16 B gzip, past the 60 B this kit may cost it. test/browser/mock-link.test.ts holds the
    // two to the same order of events.
    onEvent: (_, { message: { type, ...link } }) => {
      const options = this.#options;
      this.#call(options.onEvent, { ...link, typed: true });
      for (const { linkEvent, callback } of Object.values<ElementEventRow>(ELEMENT_EVENTS))
        if (linkEvent === link.name)
          this.#call(options[callback as keyof LinkCallbacks] as ((payload: typeof link.payload) => void) | undefined, link.payload);
      if (link.name === 'exit') this.#send({ type: 'exit', ...link.payload, accountId: link.payload.accountId ?? options.accountId });
    },
    onUntypedEvent: (_, { message }) => this.#call(this.#options.onEvent, { ...message, typed: false }),
    // The kit plays no window request of the Link page's.
    openUrl: () => {},
    // As the sandbox's Link page answers a close request while no job runs: its user closed it.
    requestClose: () => soon(() => this.#state.name === 'open' && void this.exit('user_closed')),
    closeAnswer: () => {},
  };
}
