import { createFrame, createLoading, replaceWithFreshFrame, type LinkPresentation } from '../modal/link-modal.js';
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
  if (!sharedSheet) {
    sharedSheet = new CSSStyleSheet();
    sharedSheet.replaceSync(inlineCss);
  }
  const host = document.createElement('div');
  host.setAttribute('data-payroll-link-inline', '');
  host.setAttribute('exportparts', 'frame, loading');
  const root = host.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = [sharedSheet, sized];
  let frame = createFrame(options);
  root.append(createLoading(options.loadingText), frame);
  options.container.append(host);
  let removed = false;
  // The Link page's height, applied once its user is in the frame: until then the box keeps the room it took from
  // the page's first paint, so the flow's first screen moves nothing on the page (no layout shift while nobody
  // acts; a first screen shorter or taller than that room shows within it, scrolling if taller). Checked at each
  // report and as the window loses focus, which it does to this frame when its user clicks or tabs into it.
  let reported = 0;
  let held = true;
  const size = () => {
    held &&= deepActiveElement() !== frame;
    return removed || held || !reported || sized.replaceSync(`:host{height:${Math.ceil(reported)}px;}`);
  };
  // Firefox moves the page's activeElement to the frame after the window's blur: look once that is done.
  const onBlur = () => setTimeout(size);
  addEventListener('blur', onBlur);
  return {
    get frame() {
      return frame;
    },
    // The page's styles and the Link page's own draw the rest; the box's one text, "Loading…", follows the mode.
    show(_theme, colorScheme = 'light') {
      host.setAttribute('data-color-scheme', colorScheme);
      host.setAttribute('data-shown', '');
    },
    markReady: () => host.setAttribute('data-ready', ''),
    replaceFrame: () => (frame = replaceWithFreshFrame(frame, options, host)),
    // A number the contract checked (positive, finite, bounded); the CSS limits apply on top of it.
    fit: (height) => ((reported = height), size()),
    remove(keepFinalScreen) {
      removed = true;
      removeEventListener('blur', onBlur);
      if (!keepFinalScreen) host.remove();
    },
  };
}
