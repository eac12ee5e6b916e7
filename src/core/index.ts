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
export {
  ColorSchemeSchema,
  ExitDetailSchema,
  ExitReasonSchema,
  LinkErrorSchema,
  LinkErrorTypeSchema,
  LinkEventNameSchema,
  LinkModeSchema,
  LinkTokenEnvelopeSchema,
  LinkTokenSchema,
  LoginDetailSchema,
  OpenDetailSchema,
  SuccessDetailSchema,
  InputAllocationPayloadSchema,
  LoginAttemptPayloadSchema,
  OpenPayloadSchema,
  ScreenTransitionPayloadSchema,
  SelectEmployerPayloadSchema,
  SelectPlatformPayloadSchema,
  type ColorScheme,
  type ExitDetail,
  type ExitReason,
  type LinkError,
  type LinkErrorType,
  type LinkEventDetail,
  type LinkEventName,
  type LinkMode,
  type LinkToken,
  type LinkTokenEnvelope,
  type LoginDetail,
  type OpenDetail,
  type ReadyDetail,
  type SuccessDetail,
  type InputAllocationPayload,
  type LoginAttemptPayload,
  type OpenPayload,
  type ScreenTransitionPayload,
  type SelectEmployerPayload,
  type SelectPlatformPayload,
  type TypedLinkEvent,
  type UntypedLinkEvent,
} from '../protocol.js';
// The launch page's bridge to a native app (payroll-link/server/launches → payroll-link/react-native, WebViews).
export {
  BridgeLinkEventDetailSchema,
  BridgeOpenUrlDetailSchema,
  createLaunchBridgeSender,
  LAUNCH_BRIDGE_NONCE_PARAM,
  LAUNCH_BRIDGE_SOURCE,
  LaunchBridgeMessageSchema,
  LaunchDoneDetailSchema,
  LaunchStartDetailSchema,
  parseLaunchBridgeMessage,
  type LaunchBridgeDetail,
  type LaunchBridgeEvent,
  type LaunchBridgeMessage,
  type LaunchDoneDetail,
} from '../launch-bridge.js';
