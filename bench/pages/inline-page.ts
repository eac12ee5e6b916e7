/**
 * Inline bench page: inline `<payroll-link display="inline">` elements, their token endpoint the bench's fake,
 * their Link page the tests' fake. `?layout=below`: five of them far below the fold (each 3 viewports under
 * the last); `?layout=step`: one in view, in an onboarding step with content under it, for layout shift. The
 * page counts the token requests it sends (each mints a billable token) and sums its layout shifts.
 */
import { PayrollLink } from '../../src/index.js';
import { countTokenRequests } from './count-token-requests.js';

/** What the bench reads back. */
export interface InlineBenchApi {
  /** Token requests sent so far. */
  requests(): number;
  /** Resolves once every element has rendered and two frames have passed (an observer's start has run by then). */
  settled(): Promise<void>;
  /** Resolves with the `link-open` of the element in `step` layout. */
  opened: Promise<void>;
  /** Resolves once the step's box is `height` px high (the declared height, or the Link page's report), then two frames. */
  sized(height: number): Promise<void>;
  /** Layout shifts so far, not caused by recent input: their sum (CLS over this short page life) and count. */
  shifts(): { sum: number; count: number };
}

declare global {
  interface Window {
    inlineBench: InlineBenchApi;
  }
}

const params = new URLSearchParams(location.search);
const layout = params.get('layout') ?? 'below';
const requests = countTokenRequests();

let sum = 0;
let count = 0;
// `layout-shift` entries (Chromium): the page's shifts; `hadRecentInput` ones do not count towards CLS.
new PerformanceObserver((list) => {
  for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
    if (entry.hadRecentInput) continue;
    sum += entry.value;
    count++;
  }
}).observe({ type: 'layout-shift', buffered: true });

const sheet = new CSSStyleSheet();
sheet.replaceSync(
  '.spacer { height: 300vh; } .step { max-width: 640px; margin: 24px auto; font: 16px system-ui; } .after { height: 400px; background: #f1f5f9; }',
);
document.adoptedStyleSheets = [sheet];

const elements: PayrollLink[] = [];
function inline(key: string): PayrollLink {
  // Constructed from the class: the bench never depends on a bare import keeping the element's registration.
  const element = new PayrollLink();
  element.display = 'inline';
  element.tokenUrl = `/token?key=${encodeURIComponent(key)}&plan=ok`;
  element.linkUrl = params.get('link') ?? '';
  elements.push(element);
  return element;
}

let opened: Promise<void> = Promise.resolve();
if (layout === 'below') {
  for (let i = 0; i < 5; i++) {
    const spacer = document.createElement('div');
    spacer.className = 'spacer';
    document.body.append(spacer, inline(`${params.get('key')}-${i}`));
  }
} else {
  const step = document.createElement('section');
  step.className = 'step';
  const heading = document.createElement('h1');
  heading.textContent = 'Step 3 of 4: connect your payroll';
  const after = document.createElement('div');
  after.className = 'after';
  after.textContent = 'The rest of the step, under the flow.';
  const element = inline(params.get('key') ?? '');
  opened = new Promise((resolve) => element.addEventListener('link-open', () => resolve(), { once: true }));
  step.append(heading, element, after);
  document.body.append(step);
}

window.inlineBench = {
  requests,
  async settled() {
    await Promise.all(elements.map((element) => element.updateComplete));
    for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
  },
  opened,
  async sized(height) {
    const box = () => elements[0]!.shadowRoot!.querySelector('[data-payroll-link-inline]');
    // Bounded: the report comes right after the token over the port (the fake Link page sends it at once).
    for (let i = 0; i < 600 && Math.round(box()?.getBoundingClientRect().height ?? 0) !== height; i++) {
      await new Promise(requestAnimationFrame);
    }
    for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
  },
  shifts: () => ({ sum, count }),
};
