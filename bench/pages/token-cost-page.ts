/**
 * Token-cost page: one `<payroll-link>` whose `prefetch` comes from the query
 * (`intent`: the bare attribute, `load`, `off`), its token endpoint the
 * bench's fake. The page counts the token requests it sends (each one mints a
 * billable token at the service), so the bench reads the count per page view.
 */
import { PayrollLink } from '../../src/index.js';
import { loadSessionCode } from '../../src/element/load-session.js';

/** What the bench reads back. */
export interface TokenCostApi {
  /** Token requests sent so far. */
  requests(): number;
  /** Resolves once the element's pending work is done, the session's code is here and two frames have passed (a fetch started by then has been sent). */
  settled(): Promise<void>;
  /** The `link-exit` reason, once the session ends. */
  exit: Promise<string>;
}

declare global {
  interface Window {
    tokenCost: TokenCostApi;
  }
}

const params = new URLSearchParams(location.search);
const mode = params.get('prefetch');
let requests = 0;
const { fetch } = window;
window.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input), location.href);
  if (url.pathname === '/token') requests++;
  return fetch(input, init);
};

// Constructed from the class: the bench never depends on a bare import keeping the element's registration.
const element = new PayrollLink();
element.tokenUrl = `/token?key=${encodeURIComponent(params.get('key') ?? '')}&plan=ok`;
element.linkUrl = params.get('link') ?? '';
element.prefetch = mode === 'load' ? 'load' : mode === 'intent';
window.tokenCost = {
  requests: () => requests,
  async settled() {
    await element.updateComplete;
    // A fetch ahead starts once the session's code has come (on the first sign of intent): wait for the code,
    // or a hover's token would be counted on no page. Loading it mints nothing, so a page view still counts none.
    await loadSessionCode();
    for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
  },
  exit: new Promise((resolve) => element.addEventListener('link-exit', (event) => resolve(event.detail.reason))),
};
document.body.append(element);
