import { createLinkInline } from '../inline/link-inline.js';
import { LinkFailure, linkError } from '../link-error.js';
import type { OpenLinkOptions } from '../link-options.js';
import { saveFocus } from './focus-return.js';
import { createLinkModal, type LinkModalOptions, type LinkPresentation } from './link-modal.js';
import { lockScroll } from './scroll-lock.js';

/** Options of {@link createPresentation}: the session's (`display`, `container`...), and the modal's own. */
export type PresentationOptions = Pick<OpenLinkOptions, 'display'> & LinkModalOptions;

/**
 * Builds the flow a session asked for, hidden: the inline box in `container` (`display: 'inline'`), or the modal,
 * which locks the page's scroll while it shows and gives focus back when it goes. Throws when it cannot be built:
 * inline without a container (`NO_CONTAINER`), or a browser without what it needs (constructed stylesheets).
 */
export function createPresentation(options: PresentationOptions): LinkPresentation {
  const { container } = options;
  if (options.display === 'inline') {
    if (!container) throw new LinkFailure(linkError('clientError', 'NO_CONTAINER', "display: 'inline' needs a container to show the Link flow in."));
    return createLinkInline({ ...options, container });
  }
  const modal = createLinkModal(options);
  let release = () => {};
  return {
    get frame() {
      return modal.frame;
    },
    show(theme, colorScheme, returnFocusTo) {
      const restoreFocus = saveFocus(returnFocusTo ?? undefined);
      const releaseScroll = lockScroll();
      release = () => (releaseScroll(), restoreFocus());
      modal.show(theme, colorScheme);
    },
    markReady: modal.markReady,
    replaceFrame: modal.replaceFrame,
    remove() {
      modal.remove();
      release();
    },
  };
}
