/**
 * `findLinkButton()`: the button of a `<payroll-link>`, for a test to click as its user would. It sits in the element's
 * shadow root, where Testing Library's queries (`getByRole`) do not look; Testing Library's `user.click()` clicks it.
 */
import type { PayrollLink } from '../element/payroll-link.js';
import { cancelLater, later } from './test-clock.js';

/**
 * Resolves with the button of the first `<payroll-link>` in `scope` (the document by default) once the element is
 * there, defined and rendered, as Testing Library's `find*` queries wait (up to `timeoutMs`, 1,000 ms by default).
 * Rejects with an error that says what is missing: no `<payroll-link>` in `scope`, the element never defined (nothing
 * imported `payroll-link`), or an element with no button (`display="inline"` has none: it starts when seen, or on
 * `show()`).
 */
export async function findLinkButton(scope: ParentNode = document, { timeoutMs = 1_000 } = {}): Promise<HTMLButtonElement> {
  const element = await within<PayrollLink>(timeoutMs, 'no <payroll-link> here (is the component rendered?)', (done) => {
    const found = () => scope.querySelector<PayrollLink>('payroll-link');
    if (found()) return done(found()!);
    const observer = new MutationObserver(() => found() && done(found()!));
    observer.observe(scope as Node, { childList: true, subtree: true });
    return () => observer.disconnect();
  });
  await within(timeoutMs, "<payroll-link> is not defined: import 'payroll-link' (or payroll-link/react) in the app or the test", (done) => {
    void customElements.whenDefined('payroll-link').then(() => done(undefined));
  });
  await element.updateComplete;
  const button = element.shadowRoot?.querySelector<HTMLButtonElement>('button[part="button"]');
  if (!button) throw new Error(`findLinkButton: this <payroll-link> has no button (display="${element.display}")`);
  return button;
}

/** What `start` hands `done`, or a rejection saying `missing` after `timeoutMs` (a real timer: fake ones hold none). */
function within<T>(timeoutMs: number, missing: string, start: (done: (value: T) => void) => (() => void) | void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let stop: (() => void) | void = undefined;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      cancelLater(timer);
      stop?.();
      outcome();
    };
    const timer = later(() => settle(() => reject(new Error(`findLinkButton: ${missing}`))), timeoutMs);
    stop = start((value) => settle(() => resolve(value)));
    // Done at once, inside start: what it set up to watch is not needed.
    if (settled) stop?.();
  });
}
