/**
 * payroll-link: the `<payroll-link>` element (registered on import), the
 * framework-free `openLink()`, and the wire contract's schemas and types.
 */
export {
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
  openLink,
  prepareLink,
  type DropReason,
  type DroppedMessage,
  type ExitDetail,
  type ExitReason,
  type LinkCallbacks,
  type LinkError,
  type LinkErrorCode,
  type LinkErrorType,
  type LinkEventDetail,
  type LinkEventName,
  type LinkHandle,
  type LinkMode,
  type LinkToken,
  type LinkTokenEnvelope,
  type LoginDetail,
  type OpenDetail,
  type OpenLinkOptions,
  type OpenPreparedOptions,
  type PrepareLinkOptions,
  type PreparedLink,
  type ReadyDetail,
  type SuccessDetail,
  type TokenFetchTuning,
  type TokenInput,
  type TokenSource,
} from './core/index.js';
export { PayrollLink } from './element/payroll-link.js';
export type { PayrollLinkEventMap, PayrollLinkEventName, PayrollLinkEventDetail } from './element/events.js';
export { WIDGET_STRINGS, type WidgetLanguage, type WidgetStrings } from './core/strings.js';
