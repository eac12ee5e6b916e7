import { createLinkInline } from '../inline/link-inline.js';
import { LinkFailure, linkError } from '../link-error.js';
import type { OpenLinkOptions } from '../link-options.js';
import { createLinkModal, type LinkModalOptions, type LinkPresentation } from './link-modal.js';

/** Options of {@link createPresentation}: the session's `display`, and the modal's own (the inline box reads a few). */
export type PresentationOptions = Pick<OpenLinkOptions, 'display'> & LinkModalOptions;

/**
 * Builds the flow a session asked for, hidden: the modal (the default), or the inline box in `container`
 * (`display: 'inline'`). Throws when it cannot be built: inline without a container (`NO_CONTAINER`), or a
 * browser without what it needs (constructed stylesheets).
 */
export function createPresentation(options: PresentationOptions): LinkPresentation {
  if (options.display !== 'inline') return createLinkModal(options);
  const { container } = options;
  if (!container)
    throw new LinkFailure(linkError('clientError', 'NO_CONTAINER', "display: 'inline' needs a container to show the Link flow in."));
  return createLinkInline({ ...options, container });
}
