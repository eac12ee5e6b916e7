/**
 * `findLinkButton()`: the button of a `<payroll-link>`, for a test to click as its user would. It sits in the element's
 * shadow root, where Testing Library's queries (`getByRole`) do not look; Testing Library's `user.click()` clicks it.
 */
import type { PayrollLink } from '../element/payroll-link.js';

/**
 * Resolves with the button of the first `<payroll-link>` in `scope` (the document by default) once the element has
 * rendered it, as Testing Library's `find*` queries resolve. Rejects with a clear error when `scope` holds no
 * `<payroll-link>`, or one with no button (`display="inline"` has none: it starts when seen, or on `show()`).
 */
export async function findLinkButton(scope: ParentNode = document): Promise<HTMLButtonElement> {
  const element = scope.querySelector<PayrollLink>('payroll-link');
  if (!element) throw new Error('findLinkButton: no <payroll-link> here (is the component rendered, and the element imported?)');
  await customElements.whenDefined('payroll-link');
  await element.updateComplete;
  const button = element.shadowRoot?.querySelector<HTMLButtonElement>('button[part="button"]');
  if (!button) throw new Error(`findLinkButton: this <payroll-link> has no button (display="${element.display}")`);
  return button;
}
