/**
 * The framework-free core: `openLink()`, `prepareLink()` and their types, and the wire contract's public
 * schemas and types, without Lit. Import `payroll-link/core` when you build your own button.
 */
export { openLink, prepareLink } from './open-link.js';
export type { LinkCallbacks, LinkHandle, OpenLinkOptions, OpenPreparedOptions, PrepareLinkOptions, PreparedLink } from './link-options.js';
export type { TokenInput, TokenSource, TokenFetchTuning } from './fetch-link-token.js';
export type { DroppedMessage, DropReason } from './frame-channel.js';
export type { LinkErrorCode } from './link-error.js';
export type { WidgetLanguage, WidgetStrings } from './strings.js';
// The wire contract's public half: what a callback or an event hands over, and the Link token the backend passes on.
// The frame messages (`PROTOCOL_VERSION`, `ReadyMessageSchema`, `InitMessageSchema`, `FrameExitPayloadSchema`,
// `EventMessageSchema`, `HeightMessageSchema`) are the widget's business with the Link page, and stay out.
export { ColorSchemeSchema, ExitDetailSchema, ExitReasonSchema, LinkErrorSchema, LinkErrorTypeSchema } from '../protocol.js';
export { LinkEventNameSchema, LinkModeSchema, LinkTokenEnvelopeSchema, LinkTokenSchema, LoginDetailSchema } from '../protocol.js';
export { OpenDetailSchema, SuccessDetailSchema, InputAllocationPayloadSchema, LoginAttemptPayloadSchema } from '../protocol.js';
export { OpenPayloadSchema, ScreenTransitionPayloadSchema, SelectEmployerPayloadSchema, SelectPlatformPayloadSchema } from '../protocol.js';
export type { ColorScheme, ExitDetail, ExitReason, LinkError, LinkErrorType, LinkEventDetail, LinkEventName } from '../protocol.js';
export type { LinkMode, LinkToken, LinkTokenEnvelope, LoginDetail, OpenDetail, ReadyDetail, SuccessDetail } from '../protocol.js';
export type { TypedLinkEvent, UntypedLinkEvent, InputAllocationPayload, LoginAttemptPayload, OpenPayload } from '../protocol.js';
export type { ScreenTransitionPayload, SelectEmployerPayload, SelectPlatformPayload } from '../protocol.js';
// The launch page's bridge to a native app (payroll-link/server/launches → payroll-link/react-native, WebViews).
export { BridgeLinkEventDetailSchema, BridgeOpenUrlDetailSchema, LaunchBridgeMessageSchema } from '../launch-bridge.js';
export { LaunchDoneDetailSchema, LaunchStartDetailSchema, createLaunchBridgeSender, parseLaunchBridgeMessage } from '../launch-bridge.js';
export { LAUNCH_BRIDGE_NONCE_PARAM, LAUNCH_BRIDGE_SOURCE } from '../launch-bridge.js';
export type { LaunchBridgeDetail, LaunchBridgeEvent, LaunchBridgeMessage, LaunchDoneDetail } from '../launch-bridge.js';
