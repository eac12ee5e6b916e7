/**
 * The Link frame's side of the frame protocol in `src/protocol.ts`: announce
 * `ready` to the parent window, take exactly one `init` from that window, and
 * from then on speak only over the MessagePort that came with it.
 */
import {
  EventMessageSchema,
  InitMessageSchema,
  type InitMessage,
  PROTOCOL_VERSION,
  type EventMessage,
  type ReadyMessage,
} from '../../src/protocol.js';
import { setPageLanguage } from './link-strings.js';

/**
 * The frame's channel to the widget that embeds it.
 *
 * Trust comes from the source, not the origin: any integrator's page may embed
 * the Link page (`frame-ancestors *`), so the one window whose `init` counts is
 * `window.parent`, and only its first valid `init`. Everything else is dropped,
 * never thrown.
 *
 * @example
 * ```ts
 * const channel = FrameChannel.connect((init) => start(init.token));
 * channel?.send({ type: 'payroll-link:event', name: 'open', payload: { link_token_id } });
 * ```
 */
export class FrameChannel {
  #port: MessagePort | null = null;
  #initialised = false;
  readonly #onInit: (init: InitMessage) => void;

  private constructor(onInit: (init: InitMessage) => void) {
    this.#onInit = onInit;
  }

  /**
   * Starts listening and tells the parent window the page is ready. Returns
   * null when the page is not inside a frame: then nobody can hand it a token.
   */
  static connect(onInit: (init: InitMessage) => void): FrameChannel | null {
    if (window.parent === window) return null;
    const channel = new FrameChannel(onInit);
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
    const parsed = EventMessageSchema.safeParse(message);
    if (!parsed.success) {
      console.error(`payroll-link: refused to send an invalid "${message.name}" event`, parsed.error.issues);
      return false;
    }
    this.#port.postMessage(parsed.data);
    return true;
  }

  /** Stops listening and closes the port. */
  dispose(): void {
    window.removeEventListener('message', this.#onWindowMessage);
    this.#port?.close();
    this.#port = null;
  }

  readonly #onWindowMessage = (event: MessageEvent): void => {
    if (this.#initialised || event.source !== window.parent) return;
    const parsed = InitMessageSchema.safeParse(event.data);
    const port = event.ports[0];
    if (!parsed.success || !port) return;
    this.#initialised = true;
    this.#port = port;
    // Nothing comes back over the port, but starting it keeps the channel's state explicit.
    port.start();
    window.removeEventListener('message', this.#onWindowMessage);
    // The embedding page's language, until the Link token says otherwise (see link-strings.ts).
    setPageLanguage(parsed.data.language);
    this.#onInit(parsed.data);
  };
}
