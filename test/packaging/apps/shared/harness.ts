/**
 * What every example app reports to the packaging test: the callbacks it saw,
 * in order, each with the number of Link frames on the page at that moment.
 * The test reads `window.payrollLinkSeen`. The Link URL and the token URL come
 * in the page's query string, because the fake servers run on free ports.
 */

/** One callback seen by an example app. */
export interface Seen {
  kind: 'open' | 'login' | 'success' | 'exit' | 'error';
  detail: unknown;
  frames: number;
}

declare global {
  interface Window {
    payrollLinkSeen: Seen[];
    /** How many times the app's root effect ran (StrictMode runs it twice in development). */
    payrollLinkEffects: number;
    /** The React version the app runs, where there is one. */
    payrollLinkReact?: string;
    /** Content-Security-Policy violations (the plain page records them). */
    payrollLinkViolations?: string[];
    /** The docs snippets' `save(accountId, jobId)` calls (the Angular and Next.js apps record them). */
    payrollLinkSaved?: Array<{ accountId: string; jobId: string }>;
    /** Lit's own record of the copies of Lit loaded on the page. */
    litElementVersions?: string[];
  }
}

window.payrollLinkSeen = [];
window.payrollLinkEffects = 0;

const params = new URLSearchParams(location.search);

/** The fake Link page. */
export const linkUrl = params.get('link') ?? '';
/** The fake token endpoint (same origin as the app). */
export const tokenUrl = params.get('token') ?? '';

/** Records a callback. */
export function record(kind: Seen['kind'], detail: unknown): void {
  window.payrollLinkSeen.push({ kind, detail, frames: countFrames(document) });
}

function countFrames(root: Document | ShadowRoot): number {
  let count = root.querySelectorAll('iframe').length;
  for (const element of root.querySelectorAll('*')) if (element.shadowRoot) count += countFrames(element.shadowRoot);
  return count;
}
