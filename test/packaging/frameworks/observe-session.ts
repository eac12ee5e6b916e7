// What the Angular and Next.js apps report to test/packaging/angular.test.ts and frameworks.test.ts. Their components
// are the docs' snippets as written, so the apps cannot record from inside them: they listen
// on `document` instead (the element's events bubble and are composed), and give the snippets the
// `save()` they call.
import { record } from '../apps/shared/harness';

declare global {
  /** The docs snippets' own placeholder for "store these ids against your user". */
  var save: (accountId: string, jobId: string) => void;
}

/** Starts recording; call once, before the element can fire. */
export function observeSession(): void {
  const saved: Array<{ accountId: string; jobId: string }> = [];
  window.payrollLinkSaved = saved;
  globalThis.save = (accountId, jobId) => void saved.push({ accountId, jobId });
  for (const kind of ['open', 'login', 'exit', 'error'] as const) {
    document.addEventListener(`link-${kind}`, (event) => record(kind, (event as CustomEvent).detail));
  }
  // The same fields the other apps record for a success.
  document.addEventListener('link-success', (event) => {
    const { accountId, jobId, linkTokenId } = (event as CustomEvent<{ accountId: string; jobId: string; linkTokenId: string }>).detail;
    record('success', { accountId, jobId, linkTokenId });
  });
}
