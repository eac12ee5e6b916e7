/**
 * The Link frame's side of the frame protocol in `src/protocol.ts`: announce
 * `ready` to the parent window, take exactly one `init` from that window, and
 * from then on speak only over the MessagePort that came with it.
 */
import {
  CloseRequestMessageSchema,
  EventMessageSchema,
  HeightMessageSchema,
  type HeightMessage,
  InitMessageSchema,
  OpenUrlResultMessageSchema,
  type CloseAnswerMessage,
  type OpenUrlMessage,
  type OpenUrlResultMessage,
  type InitMessage,
  LinkEventEnvelopeSchema,
  PROTOCOL_VERSION,
  type EventMessage,
  type LinkError,
  type ReadyMessage,
} from '../../../src/protocol.js';
import { linkError } from '../../../src/shared/link-error.js';
import { giveFocus } from './link-focus.js';
import { setPageLanguage } from './link-strings.js';

/** What the widget may tell the flow over the port, after the init. */
export interface HostMessages {
  /** What came of an `open-url`: opened, blocked by the browser (offer a button), or refused. */
  onOpenUrlResult(result: OpenUrlResultMessage): void;
  /** The page asks the flow to close (Escape or the close control outside the frame, `requestClose()`). */
  onCloseRequest(): void;
}

/**
 * The frame's channel to the widget that embeds it.
 *
 * Trust comes from the source, not the origin: any integrator's page may embed
 * the Link page (`frame-ancestors *`), so the one window whose `init` counts is
 * `window.parent`, and only its first `init`. An `init` this page cannot accept
 * (another protocol version, a malformed token) is answered, not ignored: the
 * page's error screen and an `error` event over its port, so the widget never
 * waits on "Getting ready". Everything else is dropped, never thrown.
 *
 * @example
 * ```ts
 * const channel = LinkPageChannel.connect((init) => start(init.token), (error) => showError(error));
 * channel?.send({ type: 'payroll-link:event', name: 'open', payload: { link_token_id } });
 * ```
 */
export class LinkPageChannel {
  #port: MessagePort | null = null;
  #initialised = false;
  readonly #onInit: (init: InitMessage) => void;
  readonly #onRefused: (error: LinkError) => void;
  readonly #host: HostMessages | undefined;

  private constructor(onInit: (init: InitMessage) => void, onRefused: (error: LinkError) => void, host?: HostMessages) {
    this.#onInit = onInit;
    this.#onRefused = onRefused;
    this.#host = host;
  }

  /**
   * Starts listening and tells the parent window the page is ready. Returns
   * null when the page is not inside a frame: then nobody can hand it a token.
   * `onRefused` hears of an `init` the page cannot accept; its port, if it came
   * with one, carries the events that follow (the error, then the exit). `host` hears what the widget says over
   * the port after the init.
   */
  static connect(onInit: (init: InitMessage) => void, onRefused: (error: LinkError) => void, host?: HostMessages): LinkPageChannel | null {
    if (window.parent === window) return null;
    const channel = new LinkPageChannel(onInit, onRefused, host);
    window.addEventListener('message', channel.#onWindowMessage);
    const ready: ReadyMessage = { type: 'payroll-link:ready', version: PROTOCOL_VERSION };
    // '*' is safe: `ready` carries nothing secret, and the embedding origin is not known in advance.
    window.parent.postMessage(ready, '*');
    return channel;
  }

  /** True once an `init` with a port has been accepted. */
  get connected(): boolean {
    return this.#port !== null;
  }

  /**
   * Sends one Link event over the port, after checking it against the
   * contract. Returns false (and logs why, without the payload) when there is no
   * port yet or the event breaks the schema: a broken event never reaches the widget.
   */
  send(message: EventMessage): boolean {
    if (!this.#port) return false;
    // The envelope too: what fails it, the widget drops (an `undefined` in the payload, a payload too big).
    const envelope = LinkEventEnvelopeSchema.safeParse(message);
    const parsed = EventMessageSchema.safeParse(message);
    if (!envelope.success || !parsed.success) {
      console.error(`payroll-link: refused to send an invalid "${message.name}" event`, (envelope.error ?? parsed.error)!.issues);
      return false;
    }
    this.#port.postMessage(parsed.data);
    return true;
  }

  /**
   * Tells the widget the height of the page's content (CSS pixels), for an inline frame to follow. False when
   * there is no port yet or the height breaks the contract (zero, negative, not finite, too tall).
   */
  sendHeight(height: number): boolean {
    const message: HeightMessage = { type: 'payroll-link:height', version: PROTOCOL_VERSION, height };
    if (!this.#port || !HeightMessageSchema.safeParse(message).success) return false;
    this.#port.postMessage(message);
    return true;
  }

  /** Asks the widget to open `url` in a new window (a login that refuses to be framed); the outcome comes to `host`. */
  openUrl(url: string): void {
    this.#port?.postMessage({ type: 'payroll-link:open-url', url } satisfies OpenUrlMessage);
  }

  /** Answers a close request without ending: `confirming` while the user is asked, `stay` once they stay. */
  answerClose(answer: CloseAnswerMessage['answer']): void {
    this.#port?.postMessage({ type: 'payroll-link:close-answer', answer } satisfies CloseAnswerMessage);
  }

  /** Stops listening and closes the port. */
  dispose(): void {
    window.removeEventListener('message', this.#onWindowMessage);
    this.#port?.close();
    this.#port = null;
  }

  readonly #onPortMessage = ({ data }: MessageEvent): void => {
    const result = OpenUrlResultMessageSchema.safeParse(data);
    if (result.success) this.#host?.onOpenUrlResult(result.data);
    else if (CloseRequestMessageSchema.safeParse(data).success) this.#host?.onCloseRequest();
  };

  readonly #onWindowMessage = (event: MessageEvent): void => {
    // Only an init from the embedding window counts; any other message is not for this channel.
    if (this.#initialised || event.source !== window.parent || !isInit(event.data)) return;
    // Read before the schema: an init this page refuses still says whether its screen (the error) may take focus.
    giveFocus(event.data.takeFocus !== false);
    const parsed = InitMessageSchema.safeParse(event.data);
    const port = event.ports[0] ?? null;
    this.#initialised = true;
    this.#port = port;
    // The widget's messages over the port (results of open-url, close requests); anything else is dropped.
    if (port) port.onmessage = this.#onPortMessage;
    window.removeEventListener('message', this.#onWindowMessage);
    // Refused, with or without a port to say so over: the screen says it either way.
    if (!parsed.success || !port) return this.#onRefused(refusal(event.data));
    // The embedding page's language, until the Link token says otherwise (see link-strings.ts).
    setPageLanguage(parsed.data.language);
    this.#onInit(parsed.data);
  };
}

const isInit = (data: unknown): data is Record<string, unknown> =>
  typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'payroll-link:init';

/** Why an init was refused, as the error the widget hears: the version first, since it decides how the rest reads. */
function refusal(init: Record<string, unknown>): LinkError {
  if (init['version'] !== PROTOCOL_VERSION) {
    const message = `This Link page speaks frame protocol version ${PROTOCOL_VERSION}; the widget sent ${JSON.stringify(init['version'])}.`;
    return linkError('clientError', 'UNSUPPORTED_PROTOCOL_VERSION', message);
  }
  if (!InitMessageSchema.shape.token.safeParse(init['token']).success) {
    return linkError('invalidLinkToken', 'INVALID_LINK_TOKEN', 'The widget handed over a malformed Link token.');
  }
  return linkError(
    'clientError',
    'INVALID_INIT',
    'The widget sent an init message that breaks the frame protocol (or no MessagePort with it).',
  );
}
