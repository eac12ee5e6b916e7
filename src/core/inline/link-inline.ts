import { createFrame, createLoading, createSheet, replaceWithFreshFrame, type LinkPresentation } from '../modal/link-modal.js';
import { deepActiveElement } from '../modal/focus-return.js';
import { inlineCss } from './inline.styles.js';

/** Options of {@link createLinkInline}. */
export interface LinkInlineOptions {
  /** Where the box goes: the element's shadow root, or the integrator's container. */
  container: ParentNode;
  linkUrl: string;
  /** Accessible name of the frame. */
  title: string;
  /** Shown until the Link page is ready. */
  loadingText: string;
}

let sharedSheet: CSSStyleSheet | undefined;

/**
 * Builds the inline box, `<div data-payroll-link-inline>` with a shadow root of its own holding the Link frame,
 * at the end of `container`, in the page's flow: no backdrop, no scroll lock, no focus trap, nothing moves focus;
 * Tab goes in and out of the frame like any other content. Styled by constructed stylesheets, never inline
 * styles (strict CSP). Its parts `frame` and `loading` are exported to the container's styles.
 * Throws when it cannot be built (no constructed stylesheets): nothing stays behind then.
 */
export function createLinkInline(options: LinkInlineOptions): LinkPresentation {
  const sized = new CSSStyleSheet();
  sharedSheet ??= createSheet(inlineCss);
  const host = document.createElement('div');
  host.setAttribute('data-payroll-link-inline', '');
  host.setAttribute('exportparts', 'frame,loading');
  const root = host.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = [sharedSheet, sized];
  let frame = createFrame(options);
  root.append(createLoading(options.loadingText), frame);
  options.container.append(host);
  let removed = false;
  /** Where focus goes when the frame goes while it had focus (see `returnFocusTo`): nothing else took focus inline. */
  let focusTarget: HTMLElement | null | undefined;
  // The Link page's heights apply once its user is in the frame (it has focus as a report comes: the user clicked
  // or tabbed into it, and its screen changed). Until then the box keeps the room it took from the page's first
  // paint, so the session's start and the Link page's first screen move nothing (a first screen shorter than that
  // room shows within it, a taller one scrolls inside). Not as focus comes in: a click inside a cross-origin frame
  // is no recent input for the page's layout-shift entries (Chromium 156), so that resize would be one more shift.
  let held = true;
  // The latest report held back: Chromium runs a cross-origin frame in a process of its own, and the focus a click
  // gives the frame may reach this page after the report that click led to. That report applies as focus arrives
  // (this window's blur: an iframe fires no focus event of its own; Firefox names the frame active only after the
  // blur, hence the task's wait), so the box never waits for one more report.
  let pending = 0;
  const fitTo = (height: number) => sized.replaceSync(`:host{height:${Math.ceil(height)}px;}`);
  const focusArrived = () => setTimeout(() => pending && deepActiveElement() === frame && ((held = false), fitTo(pending), (pending = 0)));
  addEventListener('blur', focusArrived);
  return {
    get frame() {
      return frame;
    },
    // The page's styles and the Link page's own draw the rest; the box's one text, "Loading…", follows the mode.
    show(_theme, colorScheme = 'light', returnFocusTo) {
      focusTarget = returnFocusTo;
      host.setAttribute('data-color-scheme', colorScheme);
      host.setAttribute('data-shown', '');
    },
    markReady: () => host.setAttribute('data-ready', ''),
    replaceFrame: () => (frame = replaceWithFreshFrame(frame, options, host)),
    // A number the contract checked (positive, finite, bounded); the CSS limits apply on top of it.
    fit(height) {
      if (removed) return;
      held &&= deepActiveElement() !== frame;
      if (held) pending = height;
      else fitTo(height);
    },
    remove(keepFinalScreen) {
      removed = true;
      removeEventListener('blur', focusArrived);
      if (keepFinalScreen) return;
      // Focus in the frame would fall to <body> with it: it goes to `returnFocusTo` first (made focusable only now,
      // and named, as an element that is no control), so that the session's onExit, which follows, may still move it.
      if (focusTarget && deepActiveElement() === frame) {
        if (focusTarget.tabIndex < 0) {
          focusTarget.tabIndex = -1;
          focusTarget.ariaLabel ||= options.title;
        }
        focusTarget.focus();
      }
      host.remove();
    },
  };
}
