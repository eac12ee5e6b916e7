/**
 * The launch page's bridge to the native app that shows it: what the page that
 * `createLinkLaunches` serves (`payroll-link/server/launches`) posts to
 * `payroll-link/react-native`, a WKWebView or an Android WebView, one JSON
 * string per message. Every element event, with the element's own detail, and
 * two of the bridge's own: `open-url` (the Link page asked for an external
 * window, which a WebView cannot open well) and `launch-done` (the flow has
 * ended; posted before the page navigates). Both sides parse with these
 * schemas: a message that fails them is ignored.
 */
import * as z from 'zod/mini';
import {
  ExitDetailSchema,
  LinkErrorSchema,
  LinkEventEnvelopeSchema,
  LoginDetailSchema,
  OpenDetailSchema,
  SuccessDetailSchema,
} from './protocol.js';

/** Names the package as the sender, so that an app can tell the bridge's messages from others on the same channel. */
export const LAUNCH_BRIDGE_SOURCE = 'payroll-link';

const bridgeMessage = <E extends string, D extends z.ZodMiniType>(event: E, detail: D) =>
  z.object({ source: z.literal(LAUNCH_BRIDGE_SOURCE), event: z.literal(event), detail });

/** The schema of {@link LaunchDoneDetail}. */
export const LaunchDoneDetailSchema = /* @__PURE__ */ z.object({
  status: z.enum(['success', 'exit']),
  redirect: z.nullable(z.string().check(z.maxLength(4_096))),
});

/** `open-url`'s detail: the window the Link page asked for (https, or http on loopback: the sandbox). */
export const BridgeOpenUrlDetailSchema = /* @__PURE__ */ z.object({
  url: z.url({ protocol: /^https?$/ }).check(
    z.maxLength(8_192),
    z.refine((url) => url.startsWith('https:') || /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(url)),
  ),
});

/** `link-event`'s detail as it crosses the bridge: a Link event's name and payload, and whether the contract types it. */
export const BridgeLinkEventDetailSchema = /* @__PURE__ */ z.object({
  name: LinkEventEnvelopeSchema.shape.name,
  payload: LinkEventEnvelopeSchema.shape.payload,
  typed: z.boolean(),
});

/** The schema of {@link LaunchBridgeMessage}. */
export const LaunchBridgeMessageSchema = /* @__PURE__ */ z.discriminatedUnion('event', [
  bridgeMessage('link-ready', z.object({ linkUrl: z.string() })),
  bridgeMessage('link-open', OpenDetailSchema),
  bridgeMessage('link-login', LoginDetailSchema),
  bridgeMessage('link-success', SuccessDetailSchema),
  bridgeMessage('link-error', LinkErrorSchema),
  bridgeMessage('link-exit', ExitDetailSchema),
  bridgeMessage('link-event', BridgeLinkEventDetailSchema),
  bridgeMessage('open-url', BridgeOpenUrlDetailSchema),
  bridgeMessage('launch-done', LaunchDoneDetailSchema),
]);

/** One message of the launch page's bridge, by its `event`. */
export type LaunchBridgeMessage = z.infer<typeof LaunchBridgeMessageSchema>;
/** The names of the bridge's messages. */
export type LaunchBridgeEvent = LaunchBridgeMessage['event'];
/** `launch-done`'s detail: how the flow ended, and where the page goes next (null: it stays on its own end screen). */
export type LaunchDoneDetail = z.infer<typeof LaunchDoneDetailSchema>;

/**
 * Parses one message as it arrives (a JSON string): the message, or null for anything that is not one of the
 * bridge's (not JSON, another sender's, a detail that fails its schema). Never throws.
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
