/**
 * Focus after the session, however the click that started it treated focus. Engines differ here: Chromium,
 * Firefox on Linux and WebKitGTK focus a `<button>` the mouse clicks; Safari on macOS (and Firefox on macOS)
 * do not, so there the element's button never had focus when its session started. Which engine covers what:
 * - a real mouse click (sendMouse), which focuses the button: every engine here (WebKitGTK included, which is
 *   why a WebKit run alone cannot stand in for macOS Safari);
 * - macOS Safari's click, which leaves focus where it was: no engine here clicks that way, so a click event
 *   with no focus change (`button.click()`, which moves focus in no engine) stands in for it, in every engine.
 * In both, focus must come back to the element's button when the session ends.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import '../../src/index.js';
import type { PayrollLink } from '../../src/index.js';
import { engine } from './engine.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl } from './helpers.js';

async function linkElement() {
  const el = await fixture<PayrollLink>(
    html`<payroll-link token-url=${fakeTokenUrl('ok').url} link-url=${await fakeLinkUrl('idle')}></payroll-link>`,
  );
  const button = el.shadowRoot!.querySelector('button')!;
  // Whether the button had focus when its click arrived: what the engine's click did to focus. Captured on the way
  // down, before the element's own click listener opens the modal, which takes focus.
  let focusedOnClick: boolean | undefined;
  el.shadowRoot!.addEventListener('click', () => (focusedOnClick = el.shadowRoot!.activeElement === button), { capture: true, once: true });
  return { el, button, focusedOnClick: () => focusedOnClick };
}

/** Ends the session with Escape, as the user would, and returns the reason. */
async function closeWithEscape(el: PayrollLink): Promise<string> {
  const exit = oneEvent(el, 'link-exit');
  await sendKeys({ press: 'Escape' });
  return (await exit).detail.reason;
}

describe(`focus after a session started by a click (${engine})`, () => {
  afterEach(async () => {
    await resetMouse();
    expect(deepQueryAll('iframe'), 'no frame outlives its test').to.have.length(0);
  });

  it('a real mouse click focuses the button in this engine (as WebKitGTK does and macOS Safari does not); focus comes back to it', async () => {
    const { el, button, focusedOnClick } = await linkElement();
    const box = button.getBoundingClientRect();
    const opened = oneEvent(el, 'link-open');
    await sendMouse({ type: 'click', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
    await opened;
    expect(focusedOnClick(), `${engine} focuses a clicked <button>`).to.equal(true);
    expect(await closeWithEscape(el)).to.equal('user_closed');
    expect(el.shadowRoot!.activeElement === button, 'focus back on the button').to.equal(true);
  });

  it("a click that leaves focus where it was (macOS Safari's): focus still comes back to the button, not to where it was", async () => {
    const { el, button, focusedOnClick } = await linkElement();
    const elsewhere = document.createElement('input');
    document.body.append(elsewhere);
    try {
      elsewhere.focus();
      const opened = oneEvent(el, 'link-open');
      button.click();
      await opened;
      expect(focusedOnClick(), 'the click left the button unfocused').to.equal(false);
      expect(await closeWithEscape(el)).to.equal('user_closed');
      expect(el.shadowRoot!.activeElement === button, 'focus back on the button').to.equal(true);
    } finally {
      elsewhere.remove();
    }
  });
});
