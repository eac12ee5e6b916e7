/**
 * The framework-free core: `openLink()`, `prepareLink()` and their types, without Lit. Import
 * `payroll-link/core` when you build your own button.
 */
export {
  openLink,
  prepareLink,
  type LinkCallbacks,
  type LinkHandle,
  type OpenLinkOptions,
  type OpenPreparedOptions,
  type PrepareLinkOptions,
  type PreparedLink,
  type ReadyDetail,
} from './open-link.js';
export type { TokenInput, TokenSource, TokenFetchTuning } from './fetch-link-token.js';
export type { DroppedMessage, DropReason } from './frame-channel.js';
export type { LinkErrorCode } from './link-error.js';
export * from '../protocol.js';
