/**
 * Issue 49's keyboard-only session: the real `<payroll-link>` with the real sandbox's Link page (same-origin through
 * test/browser/real-sandbox.mjs, so focus can be followed into the frame in every engine), driven by nothing but
 * keys (`sendKeys`: Tab, Shift+Tab, Enter, Escape, typing). Each presentation opens the flow, completes it (intro →
 * search → pick → log in → success → Done), opens it again and leaves it. After every key: focus, followed through
 * shadow roots and into the frame, is never on a `<body>` (the host page's or the frame's) while the flow is open
 * or just closed, and, in the modal, every Tab keeps focus inside the dialog and its frame.
 */
import { expect, oneEvent } from '@open-wc/testing';
import type { PayrollLink } from '../../src/index.js';
import { afterRendering } from './helpers.js';
import { KeyboardUser, deepActiveElement, describeElement } from './a11y/keyboard-focus.js';
import { PAYROLL_EMPLOYER, mount, unmount, untilScreen, type ScreenTag } from './a11y/sandbox-link.js';

/** Matches an element `selector` inside the Link page's screen `tag` (its shadow root). */
const onScreen = (tag: ScreenTag, selector: string) => (element: Element) =>
  (element.getRootNode() as ShadowRoot).host?.localName === tag && element.matches(selector);

/** Frames the page may take to move focus after what it rendered: a bound on a condition, never a wait of its own. */
const FOCUS_FRAMES = 120;

/**
 * Waits, frame by frame, until `wanted` has focus; notes a problem (and goes on) when it does not within
 * {@link FOCUS_FRAMES} frames, so one run reports every step focus went wrong.
 */
async function focusSettlesOn(user: KeyboardUser, what: string, wanted: (element: Element) => boolean): Promise<void> {
  for (let frame = 0; frame < FOCUS_FRAMES; frame++) {
    const active = deepActiveElement();
    if (active && wanted(active)) return;
    await new Promise(requestAnimationFrame);
  }
  user.problems.push(`focus never reached ${what}: it is on ${describeElement(deepActiveElement())}`);
}

/** Completes the flow from the intro, keys only: Continue, a payroll employer, user_good's login, the switch, Done. */
async function complete(user: KeyboardUser, element: PayrollLink): Promise<void> {
  user.step('intro: to Continue');
  await user.tabTo('the intro’s Continue', onScreen('link-intro', 'button.primary'));
  await user.press('Enter');
  await untilScreen(element, 'link-search', (root) => root.querySelectorAll(PAYROLL_EMPLOYER).length > 0);
  await focusSettlesOn(user, 'the search heading', onScreen('link-search', 'h1'));

  user.step('search: to a payroll employer');
  await user.tabTo('a payroll employer in the results', onScreen('link-search', PAYROLL_EMPLOYER));
  await user.press('Enter');
  await untilScreen(element, 'link-login');
  await focusSettlesOn(user, 'the login heading', onScreen('link-login', 'h1'));

  user.step('login: user_good');
  await user.tabTo('the username field', onScreen('link-login', '#username'));
  await user.type('user_good');
  await user.tabTo('the password field', onScreen('link-login', '#password'));
  await user.type('pass_good');
  await user.press('Enter');
  await untilScreen(element, 'link-allocation');
  await focusSettlesOn(user, 'the allocation heading', onScreen('link-allocation', 'h1'));

  user.step('allocation: Switch my deposit');
  await user.tabTo('Switch my deposit', onScreen('link-allocation', 'button[type="submit"]'));
  await user.press('Enter');
  await untilScreen(element, 'link-result', (root) => root.querySelector('.icon.success') !== null);
  await focusSettlesOn(user, 'the success heading', onScreen('link-result', 'h1'));

  user.step('success: Done');
  await user.tabTo('Done', onScreen('link-result', 'button.primary'));
  const exit = oneEvent(element, 'link-exit');
  await user.press('Enter');
  expect((await exit).detail.reason, 'Done ends the session as completed').to.equal('completed');
  await afterRendering();
  user.check('after the session completed');
}

describe('keyboard only: open, complete, exit and reopen', function () {
  // Two whole sessions on a loaded 2-core machine, a key at a time: a bound, not a wait.
  this.timeout(120_000);

  afterEach(() => unmount());

  it('modal: focus never on <body>, and Tab never leaves the modal', async () => {
    const user = new KeyboardUser();
    const { element } = mount('modal', 'light');
    await element.updateComplete;
    const opener = element.shadowRoot!.querySelector('button')!;

    await user.session(async () => {
      user.step('page: to the Connect payroll button');
      await user.tabTo('the element’s button', (active) => active === opener);
      user.checking = true;
      user.step('open: Enter on the button');
      await user.press('Enter');
      await untilScreen(element, 'link-intro');
      user.trapped = true;
      await focusSettlesOn(user, 'the intro heading', onScreen('link-intro', 'h1'));
      user.step('intro: Tab round the dialog');
      await user.cycle(8);

      await complete(user, element);
      user.trapped = false;
      await focusSettlesOn(user, 'the button that opened the flow', (active) => active === opener);

      user.step('reopen: Enter on the button');
      await user.tabTo('the element’s button', (active) => active === opener);
      await user.press('Enter');
      await untilScreen(element, 'link-intro');
      user.trapped = true;
      await focusSettlesOn(user, 'the intro heading', onScreen('link-intro', 'h1'));
      user.step('reopened intro: Tab round the dialog');
      await user.cycle(8);

      user.step('exit: Escape');
      const exit = oneEvent(element, 'link-exit');
      await user.press('Escape');
      expect((await exit).detail.reason, 'Escape closes the flow').to.equal('user_closed');
      user.trapped = false;
      await afterRendering();
      user.check('after the modal closed');
      await focusSettlesOn(user, 'the button that opened the flow', (active) => active === opener);
    });

    expect(user.problems).to.deep.equal([]);
  });

  it('inline: focus never on <body>', async () => {
    const user = new KeyboardUser();
    // The page's own control to start again once a session ended (inline has no button: show() is the page's),
    // before the flow: Tab past the page's last stop goes to the browser's own UI, which Firefox headless then
    // keeps as its focus for good (a key activates nothing in the page after), so the session never goes there.
    const again = document.createElement('button');
    again.type = 'button';
    again.textContent = 'Connect another account';
    const { element } = mount('inline', 'light', { before: [again] });
    again.addEventListener('click', () => void element.show());
    // Inline, the flow starts by itself once seen, and takes no focus: the user Tabs into it.
    await untilScreen(element, 'link-intro');

    await user.session(async () => {
      user.checking = true;
      await complete(user, element);

      user.step('reopen: the page’s own button');
      await user.tabTo('the page’s “Connect another account”', (active) => active === again, true);
      await user.press('Enter');
      await untilScreen(element, 'link-intro');
      await focusSettlesOn(user, 'the intro heading', onScreen('link-intro', 'h1'));

      user.step('exit: the Link page’s close control');
      await user.tabTo(
        'the Link page’s close control',
        (active) => (active.getRootNode() as ShadowRoot).host?.localName === 'link-app' && active.matches('button.close'),
        true,
      );
      const exit = oneEvent(element, 'link-exit');
      await user.press('Enter');
      expect((await exit).detail.reason, 'the close control closes the flow').to.equal('user_closed');
      await afterRendering();
      user.check('after the inline flow closed');
    });

    expect(user.problems).to.deep.equal([]);
  });

  it('the check can fail: focus dropped to the Link frame’s <body> is reported', async () => {
    const user = new KeyboardUser();
    const { element } = mount('modal', 'light');
    await element.updateComplete;
    const opener = element.shadowRoot!.querySelector('button')!;
    await user.tabTo('the element’s button', (active) => active === opener);
    user.checking = true;
    await user.press('Enter');
    await untilScreen(element, 'link-intro');
    user.trapped = true;
    await focusSettlesOn(user, 'the intro heading', onScreen('link-intro', 'h1'));
    user.step('a heading blurred');
    (deepActiveElement() as HTMLElement).blur();
    user.check('the blur');
    expect(user.problems, 'focus on the Link frame’s body').to.deep.equal(['a heading blurred, the blur: focus on <body> (Link frame)']);
    const exit = oneEvent(element, 'link-exit');
    element.close();
    await exit;
  });
});
