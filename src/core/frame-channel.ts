import { EventMessageSchema, InitMessageSchema, LinkEventEnvelopeSchema, PortMessageSchema, ReadyMessageSchema } from '../protocol.js';
import { PROTOCOL_VERSION, type OpenUrlResultMessage } from '../protocol.js';
import type { CloseAnswerMessage, CloseRequestMessage, EventMessage, InitMessage, LinkEventEnvelope } from '../protocol.js';

/** Why an incoming message was dropped. */
export type DropReason = 'origin' | 'source' | 'schema';

/** A message the session refused, for the optional debug hook. */
export interface DroppedMessage {
  reason: DropReason;
  /** The message's data, deserialized when first read (a large payload costs nothing until then). */
  readonly data: unknown;
}

export interface FrameChannelOptions {
  frame: HTMLIFrameElement;
  /** The exact origin of the Link page: the only origin whose messages count. */
  linkOrigin: string;
  /** The Link page announced it can take a token (again, if it reloaded). */
  onReady(): void;
  /** A Link event arrived over the session's port and passed the schema of its name. */
  onEvent(message: EventMessage): void;
  /** A Link event arrived over the session's port outside the contract (see `LinkEventEnvelopeSchema`): passed on untyped. */
  onUntypedEvent(message: LinkEventEnvelope): void;
  /** The Link page reported its content's height (a valid one: a bad report is dropped as `schema`). */
  onHeight?(height: number): void;
  /** The Link page asks for a window (`open-url`): the URL as sent, not yet checked. */
  onOpenUrl(url: string): void;
  /** The Link page answered a close request without ending: it asks its user, or the user stays. */
  onCloseAnswer(answer: CloseAnswerMessage['answer']): void;
  onDrop(dropped: DroppedMessage): void;
}

/** What the Link page is told with its token: the init message's fields but the token and the envelope's. */
export type InitFields = Omit<InitMessage, 'type' | 'version' | 'token'>;

/** The page's side of the frame protocol for one frame. */
export interface FrameChannel {
  /**
   * Hands the token to the frame with a fresh MessagePort for everything after, and what the Link page is told with
   * it: the init message's other fields (see InitMessageSchema), each only when the contract accepts it.
   */
  sendToken(token: string, fields: InitFields): void;
  /** Sends a message to the Link page over the session's port (nothing before the token was handed over). */
  send(message: OpenUrlResultMessage | CloseRequestMessage): void;
  /** Stops listening and closes the port. */
  dispose(): void;
}

/**
 * Listens to exactly one frame. A window message counts only when its origin is the Link origin, its source is this
 * frame's window and it passes the schema; after the token is handed over, Link events arrive only over a MessagePort
 * that nobody else holds, each checked against the envelope every event must fit, then typed by its name's schema where
 * it fits one. Everything else is dropped, never thrown.
 */
export function connectFrame(options: FrameChannelOptions): FrameChannel {
  const { frame, linkOrigin } = options;
  let port: MessagePort | null = null;
  // A dropped message's `data` is read only if the debug hook reads it: the browser deserializes a message's data on
  // first access, so a megabyte posted by a foreign window would otherwise cost the host page that work for nothing.
  const drop = (reason: DropReason, event: MessageEvent) =>
    options.onDrop({
      reason,
      get data() {
        return event.data as unknown;
      },
    });

  const onWindowMessage = (event: MessageEvent) => {
    if (event.origin !== linkOrigin) return drop('origin', event);
    if (event.source === null || event.source !== frame.contentWindow) return drop('source', event);
    if (!ReadyMessageSchema.safeParse(event.data).success) return drop('schema', event);
    options.onReady();
  };

  const onPortMessage = (event: MessageEvent) => {
    if ((event.data as { type?: unknown } | null | undefined)?.type === 'payroll-link:event') {
      // The envelope first: it bounds the payload before any schema of a name reads it.
      const envelope = LinkEventEnvelopeSchema.safeParse(event.data);
      if (!envelope.success) return drop('schema', event);
      const typed = EventMessageSchema.safeParse(envelope.data);
      return typed.success ? options.onEvent(typed.data) : options.onUntypedEvent(envelope.data);
    }
    const parsed = PortMessageSchema.safeParse(event.data);
    if (!parsed.success) return drop('schema', event);
    const message = parsed.data;
    if (message.type === 'payroll-link:height') options.onHeight?.(message.height);
    else if (message.type === 'payroll-link:open-url') options.onOpenUrl(message.url);
    else options.onCloseAnswer(message.answer);
  };

  const closePort = () => {
    if (!port) return;
    port.onmessage = null;
    port.close();
    port = null;
  };

  window.addEventListener('message', onWindowMessage);

  return {
    sendToken(token, fields) {
      const target = frame.contentWindow;
      if (!target) return;
      closePort();
      const channel = new MessageChannel();
      port = channel.port1;
      port.onmessage = onPortMessage;
      const init: Record<string, unknown> = { type: 'payroll-link:init', version: PROTOCOL_VERSION, token };
      // Each field only when the contract accepts it (the page's `lang`, an option's value): the Link page drops an
      // init that fails the schema, and a page's odd `lang` must never cost the session.
      for (const [name, schema] of Object.entries(InitMessageSchema.shape)) {
        const value = (fields as Record<string, unknown>)[name];
        if (!(name in init) && value !== undefined && schema.safeParse(value).success) init[name] = value;
      }
      // Targeted at the exact Link origin: if the frame has navigated elsewhere, the browser drops it.
      target.postMessage(init, linkOrigin, [channel.port2]);
    },
    send(message) {
      port?.postMessage(message);
    },
    dispose() {
      window.removeEventListener('message', onWindowMessage);
      closePort();
    },
  };
}
