/**
 * The launch page's bridge to the native app that shows it (`payroll-link/react-native`, a WKWebView or an Android
 * WebView): one JSON string per message, every element event the page can fire with the element's own detail, and
 * three of the bridge's own: `launch-start` (the Link page's origin, which the view lets load in the page's frame),
 * `open-url` (an external window, which a WebView cannot open well) and `launch-done` (posted before the page
 * navigates). Both sides parse with these schemas; a message that fails them is ignored.
 *
 * Each message carries the app's nonce and its `seq` (docs/native-apps.md): the nonce sits in the launch URL's
 * fragment, which only the top frame can read and no server logs, and it is what tells the page's messages from a
 * frame's on Android, where react-native-webview's JavaScript-interface fallback reports the top frame's URL for
 * every frame; `seq` counts from 1, so that a message posted again is acted on once.
 */
import * as z from 'zod/mini';
import * as protocol from './protocol.js';
import { ELEMENT_EVENTS } from './protocol/element-events.js';
import type { BridgedEventName, ElementEventRow, PayrollLinkEventDetail, PayrollLinkEventName } from './protocol/element-events.js';

/** Names the package as the sender, so that an app can tell the bridge's messages from others on the same channel. */
export const LAUNCH_BRIDGE_SOURCE = 'payroll-link';

/** The launch URL's fragment parameter that carries the app's nonce: `#payroll-link-bridge=<nonce>`. */
export const LAUNCH_BRIDGE_NONCE_PARAM = 'payroll-link-bridge';

/**
 * What a nonce may be: 16 to 128 characters of the URL-safe alphabet (hex, base64url, a UUID), so that it sits in
 * the fragment as it is. The app makes it from a CSPRNG; the page sends what it found, or null for anything else.
 */
const NONCE = /^[A-Za-z0-9_-]{16,128}$/;

/** An origin the page may name as the Link page's: https, or http on loopback (the sandbox). */
const LINK_ORIGIN = /^(https:\/\/[^/?#\\@\s]+|http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?)$/;

const bridgeMessage = <E extends string, D extends z.ZodMiniType>(event: E, detail: D) =>
  z.object({
    source: z.literal(LAUNCH_BRIDGE_SOURCE),
    event: z.literal(event),
    detail,
    /** The nonce the page read from its URL's fragment, or null when it had none (a browser tab, an app that set none). */
    nonce: z.nullable(z.string().check(z.regex(NONCE))),
    /** The message's number on this page: 1 for the first, one more for each after it. */
    seq: z.int().check(z.positive()),
  });

/** The schema of {@link LaunchDoneDetail}. */
export const LaunchDoneDetailSchema = /* @__PURE__ */ z.object({
  status: z.enum(['success', 'exit']),
  redirect: z.nullable(z.string().check(z.maxLength(4_096))),
});

/** `launch-start`'s detail: the origin of the Link page the launch page frames (`linkUrl`'s), lower case, no default port. */
export const LaunchStartDetailSchema = /* @__PURE__ */ z.object({
  linkOrigin: z.string().check(z.maxLength(2_048), z.regex(LINK_ORIGIN)),
});

/** `open-url`'s detail: the window the Link page asked for (https, or http on loopback: the sandbox). */
export const BridgeOpenUrlDetailSchema = /* @__PURE__ */ z.object({
  url: z.url({ protocol: /^https?$/ }).check(
    z.maxLength(8_192),
    z.refine((url) => url.startsWith('https:') || /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(url)),
  ),
});

/** `link-event`'s detail as it crosses the bridge: the element's own ({@link protocol.LinkEventDetail}). */
export const BridgeLinkEventDetailSchema = protocol.LinkEventDetailSchema;

/** The contract's schema of a Link event's payload: the detail of the element's event it brings. */
const linkEventPayload = (name: protocol.LinkEventName) =>
  protocol.EventMessageSchema._zod.def.options.find((message) => (message.shape.name._zod.def.values as readonly string[]).includes(name))!
    .shape.payload as z.ZodMiniType;

/** The bridge's messages of the element's events: each row of `ELEMENT_EVENTS` with `bridge: true`, with its detail's schema. */
type ElementEventMessages = {
  [E in BridgedEventName]: ReturnType<typeof bridgeMessage<E, z.ZodMiniType<PayrollLinkEventDetail<E>>>>;
}[BridgedEventName];

/**
 * The schema of {@link LaunchBridgeMessage}: the element's events a launch page forwards (`bridge: true` in
 * `ELEMENT_EVENTS`; not `link-ready`, which the element fires for a prefetched frame only, and the launch page never
 * prefetches: it mints nothing before the user's tap), and the bridge's own three. Pure, so that the launch page,
 * which sends and never parses, bundles none of it (the size check's row (f)).
 */
export const LaunchBridgeMessageSchema = /* @__PURE__ */ (() =>
  z.discriminatedUnion('event', [
    bridgeMessage('launch-start', LaunchStartDetailSchema),
    bridgeMessage('open-url', BridgeOpenUrlDetailSchema),
    bridgeMessage('launch-done', LaunchDoneDetailSchema),
    ...(Object.entries(ELEMENT_EVENTS) as [PayrollLinkEventName, ElementEventRow][])
      .filter(([, row]) => row.bridge !== false)
      .map(([event, row]) => bridgeMessage(event, row.detail ? protocol[row.detail] : linkEventPayload(row.linkEvent!))),
  ]) as unknown as z.ZodMiniDiscriminatedUnion<
    [
      ReturnType<typeof bridgeMessage<'launch-start', typeof LaunchStartDetailSchema>>,
      ReturnType<typeof bridgeMessage<'open-url', typeof BridgeOpenUrlDetailSchema>>,
      ReturnType<typeof bridgeMessage<'launch-done', typeof LaunchDoneDetailSchema>>,
      ElementEventMessages,
    ]
  >)();

/** One message of the launch page's bridge, by its `event`. */
export type LaunchBridgeMessage = z.infer<typeof LaunchBridgeMessageSchema>;
/** The names of the bridge's messages. */
export type LaunchBridgeEvent = LaunchBridgeMessage['event'];
/** The detail of the bridge's message `E`. */
export type LaunchBridgeDetail<E extends LaunchBridgeEvent> = Extract<LaunchBridgeMessage, { event: E }>['detail'];
/** `launch-done`'s detail: how the flow ended, and where the page goes next (null: it stays on its own end screen). */
export type LaunchDoneDetail = z.infer<typeof LaunchDoneDetailSchema>;

/**
 * Parses one message as it arrives (a JSON string): the message, or null for anything that is not one of the
 * bridge's (not JSON, another sender's, a detail that fails its schema, no `seq`). Never throws. It does not check
 * the nonce: that is the app's own (compare `nonce` with the one you put in the URL, and take each `seq` once).
 */
export function parseLaunchBridgeMessage(data: unknown): LaunchBridgeMessage | null {
  if (typeof data !== 'string' || data.length > 65_536) return null;
  try {
    const parsed = LaunchBridgeMessageSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The nonce in a launch URL's fragment (`#payroll-link-bridge=<nonce>`), or null when there is none, or not one. */
function launchBridgeNonce(url: string): string | null {
  const fragment = url.indexOf('#');
  if (fragment === -1) return null;
  const nonce = new URLSearchParams(url.slice(fragment + 1)).get(LAUNCH_BRIDGE_NONCE_PARAM);
  return nonce !== null && NONCE.test(nonce) ? nonce : null;
}

/**
 * The launch page's side of the bridge, for the page at `launchUrl`: a function that makes each message the page
 * posts, as a JSON string, with the nonce of `launchUrl`'s fragment and the next `seq`. The page itself sends with
 * it; a test of an app plays the page's messages with it, from the URL the app loaded.
 *
 * @example
 * ```ts
 * import { createLaunchBridgeSender } from 'payroll-link/core';
 *
 * const page = createLaunchBridgeSender(loadedUri); // the URL your WebView was given, fragment and all
 * webView.props.onMessage({ nativeEvent: { url: loadedUri, data: page('launch-done', { status: 'exit', redirect: null }) } });
 * ```
 */
export function createLaunchBridgeSender(
  launchUrl: string,
): <E extends LaunchBridgeEvent>(event: E, detail: LaunchBridgeDetail<E>) => string {
  const nonce = launchBridgeNonce(launchUrl);
  let seq = 0;
  return (event, detail) => JSON.stringify({ source: LAUNCH_BRIDGE_SOURCE, event, detail, nonce, seq: ++seq });
}
