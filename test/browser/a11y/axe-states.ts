/**
 * Issue 49's axe bar on every state of the flow, for one presentation (a test file each, a11y-axe-modal.test.ts and
 * a11y-axe-inline.test.ts, so each file stays well within web-test-runner's bound on a file): the real
 * `<payroll-link>` with the real sandbox's Link page (made same-origin by test/browser/real-sandbox.mjs, so axe runs
 * inside the frame in every engine), in light, dark and Spanish (the element inside `<div lang="es">` on an English
 * page). At each state axe checks the host page with the frame in it (landmarks duplicated across the two count)
 * and the frame's page on its own: no violation of WCAG 2.0-2.2 A/AA nor of `landmark-unique`. Each test walks one
 * path of the flow and reports every state's violations together, so one run says all that is wrong.
 */
import { expect } from '@open-wc/testing';
import type { PayrollLink } from '../../../src/index.js';
import { violations } from './axe.js';
import {
  allocate,
  linkDocument,
  logIn,
  modalDialog,
  mount,
  pick,
  press,
  start,
  toSearch,
  unmount,
  until,
  untilResult,
  untilScreen,
  type Presentation,
  type Scheme,
} from './sandbox-link.js';

/**
 * Runs axe on the host page (frame included) and on the frame's page, and notes what they find under `state`;
 * first checks that the Link page does speak and draw in `scheme`, so a pass says what it claims.
 */
async function audit(found: string[], element: PayrollLink, state: string, scheme: Scheme = 'light'): Promise<void> {
  const frame = await until(`the Link page on ${state}`, () => linkDocument(element));
  expect(frame.documentElement.lang, `${state}: the Link page's language`).to.match(scheme === 'spanish' ? /^es\b/ : /^en\b/);
  expect(frame.documentElement.dataset['colorScheme'], `${state}: the Link page's colour scheme`).to.equal(
    scheme === 'dark' ? 'dark' : 'light',
  );
  for (const line of await violations(document, [frame])) found.push(`${state}, host page: ${line}`);
  for (const line of await violations(frame)) found.push(`${state}, Link frame: ${line}`);
}

/** The control that asks to leave: the modal's own close button; inline, the Link page's close control in its header. */
function closeControl(element: PayrollLink): HTMLElement {
  const control =
    element.display === 'inline'
      ? linkDocument(element)?.querySelector('link-app')?.shadowRoot?.querySelector<HTMLElement>('button.close')
      : modalDialog()?.querySelector<HTMLElement>('button.close');
  if (!control) throw new Error('no close control');
  return control;
}

/** The axe tests of every state of the flow in `presentation`, in light, dark and Spanish, and the check that they can fail. */
export function describeAxeStates(presentation: Presentation): void {
  for (const scheme of ['light', 'dark', 'spanish'] as Scheme[]) {
    describe(`axe on every state, ${presentation}, ${scheme}`, function () {
      // Five states with two axe runs each, on a loaded 2-core machine: a bound, not a wait.
      this.timeout(90_000);
      let found: string[];
      let element: PayrollLink;

      beforeEach(async () => {
        found = [];
        ({ element } = mount(presentation, scheme));
        // The OAuth platform's login window is the integrator's to open (`onOpenUrl`): no popup in a test.
        element.onOpenUrl = () => {};
        await start(element);
      });

      afterEach(() => unmount());

      it('intro, search with results, login with a field error, allocation, success', async () => {
        await untilScreen(element, 'link-intro');
        await audit(found, element, 'intro', scheme);
        await toSearch(element);
        await audit(found, element, 'search with results', scheme);
        await pick(element);
        await logIn(element, 'user_good', 'wrong_password');
        await untilScreen(element, 'link-login', (root) => root.querySelector('#username[aria-invalid="true"]') !== null);
        await audit(found, element, 'login with a field error', scheme);
        await logIn(element, 'user_good');
        await untilScreen(element, 'link-allocation');
        await audit(found, element, 'allocation', scheme);
        await allocate(element);
        await untilResult(element, 'success');
        await audit(found, element, 'success', scheme);
        expect(found).to.deep.equal([]);
      });

      it('one-time code (MFA), fresh and with a wrong code', async () => {
        await pick(element);
        await logIn(element, 'user_mfa');
        const mfa = await untilScreen(element, 'link-mfa');
        await audit(found, element, 'MFA', scheme);
        const code = mfa.querySelector<HTMLInputElement>('#code')!;
        code.value = 'wrong';
        code.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
        mfa.querySelector('form')!.requestSubmit();
        await untilScreen(element, 'link-mfa', (root) => root.querySelector('#code[aria-invalid="true"]') !== null);
        await audit(found, element, 'MFA with a wrong code', scheme);
        expect(found).to.deep.equal([]);
      });

      it('OAuth login and its wait for the other window', async () => {
        await pick(element, 'OAuth', '.hit', 'OAuth Payroll');
        const oauth = await untilScreen(element, 'link-oauth');
        await audit(found, element, 'OAuth login', scheme);
        press(oauth, 'button.primary');
        await untilScreen(element, 'link-oauth', (root) => root.querySelector('[role="status"]') !== null);
        await audit(found, element, 'OAuth wait', scheme);
        expect(found).to.deep.equal([]);
      });

      it('running, the leave confirmation, and running again after Stay', async () => {
        await pick(element);
        await logIn(element, 'user_pending');
        await allocate(element);
        await untilScreen(element, 'link-running');
        await audit(found, element, 'running', scheme);
        closeControl(element).click();
        const running = await untilScreen(element, 'link-running', (root) => root.querySelector('[role="alertdialog"]') !== null);
        await audit(found, element, 'leave confirmation', scheme);
        press(running, '.stay');
        await untilScreen(element, 'link-running', (root) => root.querySelector('[role="alertdialog"]') === null);
        await audit(found, element, 'running after Stay', scheme);
        expect(found).to.deep.equal([]);
      });

      it('error (the job fails)', async () => {
        await pick(element);
        await logIn(element, 'user_error');
        await allocate(element);
        await untilResult(element, 'error');
        await audit(found, element, 'error', scheme);
        expect(found).to.deep.equal([]);
      });
    });
  }

  describe(`the axe audit can fail, ${presentation}`, function () {
    this.timeout(60_000);
    afterEach(() => unmount());

    it(`${presentation}: an image without a name in the Link frame is found by both runs, the host page's and the frame's`, async () => {
      const { element } = mount(presentation, 'light');
      await start(element);
      await untilScreen(element, 'link-intro');
      const frame = linkDocument(element)!;
      frame.body.append(Object.assign(frame.createElement('img'), { src: '/link/no-such-image.png' }));
      const found: string[] = [];
      await audit(found, element, 'intro with an unnamed image');
      expect(found.filter((line) => line.includes('image-alt'))).to.have.length(2);
    });
  });
}
