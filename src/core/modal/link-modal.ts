import type { CloseAnswerMessage, ColorScheme } from '../../protocol.js';
import { saveFocus } from './focus-return.js';
import { isRendered } from './is-rendered.js';
import { modalCss } from './modal.styles.js';
import { lockScroll } from './scroll-lock.js';

/** The pieces of one open Link modal. */
export interface LinkModal {
  readonly dialog: HTMLDialogElement;
  /** The current Link frame. */
  readonly frame: HTMLIFrameElement;
  /** Swaps in a new frame of the Link page, for a new token: not the old one moved or reloaded (its token is spent). */
  replaceFrame(): HTMLIFrameElement;
  /**
   * Shows the dialog with `showModal()` and watches it while it shows. Until then the dialog is closed: not
   * rendered, not focusable, not in the accessibility tree, while its frame loads. `theme`, when given,
   * replaces the one the modal was built with (the page's theme as it is when the flow opens). Throws when the
   * browser refuses (a container outside the document): nothing stays behind then. `colorScheme`: the chrome's
   * colour mode (default `light`). The page's scroll is locked while it shows, and `remove()` gives focus back to
   * `returnFocusTo`, or else to the element focused when it showed.
   */
  show(theme?: CSSStyleSheet, colorScheme?: ColorScheme, returnFocusTo?: HTMLElement | null): void;
  /** Hides the loading indicator once the Link page is ready. */
  markReady(): void;
  /**
   * The Link page's close answer: it asks its user whether to leave (`confirming`), or no longer does (`stay`). The
   * close control is inert meanwhile, so Tab stays in the frame, in the Link page's alert dialog.
   */
  asking(answer: CloseAnswerMessage['answer']): void;
  /** Closes the dialog, removes everything this modal added to the page, and gives scroll and focus back. */
  remove(): void;
}

/**
 * How a session shows its frame: the modal or the inline box, as `createPresentation` builds them. The session
 * drives both the same way (the inline box leaves the page's scroll and focus alone).
 */
export interface LinkPresentation extends Omit<LinkModal, 'dialog' | 'remove' | 'asking'> {
  /** The modal's: see {@link LinkModal.asking} (inline, the Link page keeps its own close control). */
  asking?(answer: CloseAnswerMessage['answer']): void;
  /** The Link page's content height (checked against the contract): inline, the box follows it within its limits. */
  fit?(height: number): void;
  /**
   * Removes everything this presentation added to the page. `keepFinalScreen`: the Link page ended the session
   * itself on its final screen (completed, or an error), and an inline frame stays there until the page removes it.
   */
  remove(keepFinalScreen?: boolean): void;
}

export interface LinkModalOptions {
  /** Where the dialog goes. Default: a new element with its own shadow root at the end of `<body>`. */
  container?: ParentNode;
  /** Adopted by that element of our own after the modal's styles (e.g. `--payroll-link-*` custom properties). */
  theme?: CSSStyleSheet;
  /** Where that element of our own goes. Default: `<body>`. */
  containerParent?: Element;
  linkUrl: string;
  /** Accessible name of the dialog and the frame. */
  title: string;
  /** The session's language and writing direction, on the default container: it sits in `<body>`, maybe far from the element. */
  lang: string;
  dir?: string | undefined;
  /** Accessible name of the close control. */
  closeLabel: string;
  /** Shown until the Link page is ready. */
  loadingText: string;
  /**
   * The user asked to close: Escape or the close control (`ask`: the flow may confirm first), or the browser
   * closed the dialog itself (the dialog is gone: nothing left to ask in).
   */
  onUserClose(ask: boolean): void;
  /** The page hid the dialog while it showed (it, or an ancestor): a blocked page with nothing on it. */
  onHidden(): void;
}

let sharedSheet: CSSStyleSheet | undefined;

/**
 * Builds the modal `<dialog>` with its frame, closed, in its container: the Link page loads while nobody sees it, and
 * `show()` shows it with `showModal()` (top layer: no z-index wars, inert page behind it, focus moved inside). Built
 * with DOM calls, not HTML strings, and styled by class, never inline styles, so it works under strict CSP and Trusted
 * Types. Watched while it shows: a modal the page no longer renders would leave the page blocked. Throws when it
 * cannot be built (no constructed stylesheets): nothing stays behind then.
 */
export function createLinkModal(options: LinkModalOptions): LinkModal {
  const doc = document;
  const dialog = doc.createElement('dialog');
  dialog.className = 'dialog';
  dialog.setAttribute('part', 'dialog');
  dialog.setAttribute('aria-label', options.title);

  // One header: the Link page's. The close control overlays the frame's top-right corner, which the Link page
  // leaves free when told so (`hostCloseControl` in the init message). First in the dialog, so showModal()
  // focuses it and Tab reaches it before the frame, as a screen reader reads it.
  const close = doc.createElement('button');
  close.type = 'button';
  close.className = 'close';
  close.setAttribute('part', 'close-button');
  close.setAttribute('aria-label', options.closeLabel);
  close.textContent = '×';

  const body = doc.createElement('div');
  body.className = 'body';
  const loading = createLoading(options.loadingText);

  let frame = createFrame(options);
  body.append(loading, frame);
  dialog.append(close, body);

  let host: HTMLElement | undefined;
  let watcher: IntersectionObserver | undefined;
  let removed = false;
  let release = () => {};
  const remove = () => {
    if (removed) return;
    removed = true;
    watcher?.disconnect();
    if (dialog.open) dialog.close();
    dialog.remove();
    host?.remove();
    release();
  };
  const requestClose = (ask: boolean) => {
    if (!removed) options.onUserClose(ask);
  };
  // Handler properties: these elements are the modal's own, and nothing else listens to them.
  close.onclick = () => requestClose(true);
  // Escape fires `cancel`; without recent user activation Chromium closes the
  // dialog without a cancelable `cancel`, so `close` is watched as well.
  dialog.oncancel = (event) => {
    event.preventDefault();
    requestClose(true);
  };
  dialog.onclose = () => requestClose(false);

  let root: ShadowRoot | undefined;
  const adopt = (theme: CSSStyleSheet | undefined) => {
    sharedSheet ??= createSheet(modalCss);
    if (root) root.adoptedStyleSheets = theme ? [sharedSheet, theme] : [sharedSheet];
  };
  /** Runs `step`; if it throws, nothing stays behind: a dialog left open would block the page, and the frame would load the Link page for nobody. */
  const orRemove = (step: () => void) => {
    try {
      step();
    } catch (error) {
      remove();
      throw error;
    }
  };

  orRemove(() => {
    let container = options.container;
    if (!container) {
      host = doc.createElement('div');
      host.setAttribute('data-payroll-link-modal', '');
      // React Aria hides what a modal of its own did not put on the page unless it is marked as top layer.
      host.setAttribute('data-react-aria-top-layer', '');
      // '' says what the page says then: no language known (the element's, the page's, found none), or no `dir` (the page's).
      host.lang = options.lang;
      if (options.dir) host.dir = options.dir;
      root = host.attachShadow({ mode: 'open' });
      adopt(options.theme);
      (options.containerParent ?? doc.body).append(host);
      container = root;
    }
    container.append(dialog);
  });

  return {
    dialog,
    show(theme, colorScheme = 'light', returnFocusTo) {
      const restoreFocus = saveFocus(returnFocusTo ?? undefined);
      const releaseScroll = lockScroll();
      release = () => (releaseScroll(), restoreFocus());
      orRemove(() => {
        if (theme) adopt(theme);
        dialog.setAttribute('data-color-scheme', colorScheme);
        dialog.showModal();
        // Hiding the dialog or an ancestor (`display: none`, `content-visibility: hidden`) ends its intersection
        // with the viewport: the moment to check. (`visibility: hidden` cannot hide it: the browser's own styles
        // make a modal dialog `visibility: visible`.) A dialog the browser closed is the `close` listener's.
        // Where there is no IntersectionObserver (a test's DOM), nothing watches: the modal still opens.
        watcher = self.IntersectionObserver && new IntersectionObserver(() => dialog.open && !isRendered(dialog) && options.onHidden());
        watcher?.observe(dialog);
      });
    },
    get frame() {
      return frame;
    },
    markReady: () => dialog.setAttribute('data-ready', ''),
    // Focus on the control as it goes inert would fall to <body>: to the frame, where the question is (a frame that
    // has focus keeps it where it is).
    asking: (answer) => (close.inert = answer === 'confirming') && frame.focus(),
    replaceFrame: () => (frame = replaceWithFreshFrame(frame, options, dialog)),
    remove,
  };
}

/** The status shown until the Link page is ready (the modal's and the inline flow's). */
export function createLoading(text: string): HTMLDivElement {
  const loading = document.createElement('div');
  loading.className = 'loading';
  loading.setAttribute('part', 'loading');
  loading.setAttribute('role', 'status');
  loading.textContent = text;
  return loading;
}

/**
 * A fresh Link frame in `old`'s place, for a new token (the modal's `replaceFrame` and the inline box's). The new
 * page loads like the first: `box` loses `data-ready`, so its loading status shows until that page is ready.
 */
export function replaceWithFreshFrame(
  old: HTMLIFrameElement,
  options: Pick<LinkModalOptions, 'linkUrl' | 'title'>,
  box: Element,
): HTMLIFrameElement {
  const fresh = createFrame(options);
  old.replaceWith(fresh);
  box.removeAttribute('data-ready');
  return fresh;
}

/** The Link `<iframe>`: attributes set before `src`, so they apply to the first load. The inline flow's too. */
export function createFrame(options: Pick<LinkModalOptions, 'linkUrl' | 'title'>): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.className = 'frame';
  frame.setAttribute('part', 'frame');
  frame.title = options.title;
  // The Link page learns nothing about the host page from the Referer header.
  frame.referrerPolicy = 'no-referrer';
  // sandbox: scripts and forms run the flow; same-origin keeps the Link page's real origin, which its own API calls
  // need and which our origin check relies on (without it the origin is "null"). No top navigation, no downloads, no
  // modals: the frame cannot navigate or cover the host page.
  // Popups, escaping the sandbox: a platform's login that refuses to be framed opens in a window. The widget opens
  // it when the Link page asks (`open-url`, checked), within the gesture of the click inside the frame where the
  // browser carries that gesture to its ancestors (Chromium, Firefox). Where it does not (WebKit does not carry it
  // over a postMessage), the popup is blocked, and the only gesture left is a second click in the frame itself:
  // so the Link page's "Continue in a new window" button opens the window from its own click, which needs
  // `allow-popups`. `allow-popups-to-escape-sandbox`: that window is the platform's own page, which must run
  // unsandboxed. Still no top navigation; the popup blocker still wants a click; the Link page opens with
  // `noopener`, and the token never travels in that URL (the sandbox's login is tied to a random state id).
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox');
  // allow: no powerful feature is delegated to the frame; say so explicitly.
  frame.allow = "camera 'none'; microphone 'none'; geolocation 'none'; payment 'none'";
  frame.src = options.linkUrl;
  return frame;
}

/** A constructed stylesheet of `css` (the modal's, the inline box's): strict CSP allows it, as it does no inline style. */
export function createSheet(css: string): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  return sheet;
}
