/**
 * Open-latency page. `?variant=bare` shows a plain button that inserts a bare
 * `<iframe>` of the Link page by hand (the baseline) and stops the clock at
 * the frame's `payroll-link:ready` message; `hover` and `prefetch` show
 * `<payroll-link prefetch>`, `load` `<payroll-link prefetch="load">`, `plain`
 * `<payroll-link>` without prefetch; they stop it at `link-open`.
 * The clock starts at the click event's timestamp (and, for a tap, at its `touchstart` as well).
 */
// The element's module, not the package index: bundled with esbuild's code splitting, the index's re-exports
// (openLink, the schemas) would land in a chunk loaded first, where an app built with Vite, which tree-shakes
// them, loads only the element and fetches the session's code as a chunk on intent. That is the page measured.
import { PayrollLink } from '../../src/element/payroll-link.js';

/** What the bench reads back. */
export interface LatencyResult {
  /** The click event's timestamp. */
  clickAt: number | null;
  /** The first `touchstart` event's timestamp: where a tap begins (bench/phone-tap.ts). */
  tapAt: number | null;
  /** Whether the page matched `(hover: none)` (a touch device, as the element sees it). */
  noHover: boolean;
  /** When the Link frame's `payroll-link:ready` message reached this page. */
  frameReadyAt: number | null;
  /** When the variant counts as open: the ready message (bare) or `link-open` (element). */
  readyAt: number | null;
}

declare global {
  interface Window {
    latency: LatencyResult;
  }
}

const params = new URLSearchParams(location.search);
const variant = params.get('variant');
const linkUrl = params.get('link') ?? '';
const result: LatencyResult = {
  clickAt: null,
  tapAt: null,
  noHover: matchMedia('(hover: none)').matches,
  frameReadyAt: null,
  readyAt: null,
};
window.latency = result;

const stop = () => {
  result.readyAt ??= performance.now();
};
document.addEventListener('click', (event) => (result.clickAt ??= event.timeStamp), { capture: true });
document.addEventListener('touchstart', (event) => (result.tapAt ??= event.timeStamp), { capture: true, passive: true });
// Added before the widget's own listener: splits the element's time into frame load and the widget's hand-over.
window.addEventListener('message', (event) => {
  if (event.data?.type === 'payroll-link:ready') result.frameReadyAt ??= performance.now();
});

if (variant === 'bare') {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Connect payroll';
  button.addEventListener('click', () => {
    const frame = document.createElement('iframe');
    frame.title = 'Link';
    // The size of the widget's modal frame: the Link page gets the same viewport in both variants.
    frame.width = '440';
    frame.height = '632';
    window.addEventListener('message', (event) => {
      if (event.source === frame.contentWindow && event.data?.type === 'payroll-link:ready') stop();
    });
    frame.src = linkUrl;
    document.body.append(frame);
  });
  document.body.append(button);
} else {
  // Constructed from the class: the bench never depends on a bare import keeping the element's registration.
  const element = new PayrollLink();
  element.linkUrl = linkUrl;
  element.tokenUrl = '/api/link-token';
  element.prefetch = variant === 'load' ? 'load' : variant === 'hover' || variant === 'prefetch' ? true : false;
  element.addEventListener('link-open', stop);
  document.body.append(element);
}
