/**
 * A server-rendered page with an inline flow moves nothing from its first paint until the Link page's first height
 * report has been applied (issue 37): the markup and `payroll-link/styles.css` paint first, the element's script
 * comes late, the session starts, the Link page reports a first screen shorter than the declared room. The page is
 * a same-origin frame of the test page (its own document, so the element is undefined when it first paints). The
 * Link page is the fake of test/browser/fake-link (another origin, the real frame protocol); the token endpoint is
 * the fake of fake-servers.mjs: both stand in for what is outside the widget.
 */
import { expect, oneEvent } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import type { PayrollLink } from '../../src/index.js';
import { fakeLinkUrl, fakeTokenUrl } from './helpers.js';
import { addElementScript, nextFrames, serverRenderedPage } from './server-rendered-page.js';

/** The declared room (the default of `--payroll-link-inline-height`) and the fake Link page's first screen, shorter. */
const DECLARED = 640;
const FIRST_SCREEN = 536;

/** Clicks `element` of the page in frame `page` with the real mouse. */
async function click(page: HTMLIFrameElement, element: Element) {
  const outer = page.getBoundingClientRect();
  const inner = element.getBoundingClientRect();
  await sendMouse({
    type: 'click',
    position: [Math.round(outer.x + inner.x + inner.width / 2), Math.round(outer.y + inner.y + inner.height / 2)],
  });
}

describe('inline, server-rendered: no room lost or moved', () => {
  it('content below the element stays where it first painted, through the script, the session start and the first height report', async () => {
    const linkUrl = `${await fakeLinkUrl('login-then-wait')}&heights=${encodeURIComponent(JSON.stringify([FIRST_SCREEN]))}&heights-on-click`;
    // The server's markup: the package's stylesheet in the head, the element and the page's own content, no script.
    const { page, win, doc } = await serverRenderedPage(`<h1>Step 3 of 4: connect your payroll</h1>
      <payroll-link display="inline" token-url="${fakeTokenUrl().url}" link-url="${linkUrl}"></payroll-link>
      <p id="below">The page's content below the flow.</p>`);
    try {
      const el = doc.querySelector('payroll-link')!;
      const below = doc.getElementById('below')!;
      await nextFrames(win);
      const firstPaint = below.getBoundingClientRect().top;
      expect(Math.round(el.getBoundingClientRect().height), 'undefined, it holds its declared room').to.equal(DECLARED);
      // Every rendered frame from here: where the content below is, and what room the element holds.
      const seen: { top: number; room: number }[] = [];
      const record = () => seen.push({ top: below.getBoundingClientRect().top, room: el.getBoundingClientRect().height });
      const observer = new (win as typeof window).ResizeObserver(record);
      observer.observe(el);
      let recording = true;
      const everyFrame = () => recording && (record(), win.requestAnimationFrame(everyFrame));
      win.requestAnimationFrame(everyFrame);
      // The element's script, late: defined now, the session starts (the element is in view).
      const loggedIn = oneEvent(el, 'link-login');
      addElementScript(doc);
      // The fake's port is ordered: its height report came before its login, so it has reached the box by now.
      await loggedIn;
      await nextFrames(win);
      recording = false;
      observer.disconnect();
      expect(seen.length, 'frames were recorded').to.be.above(2);
      expect(
        seen.filter(({ top }) => top !== firstPaint),
        'the content below never moved',
      ).to.deep.equal([]);
      expect(
        seen.filter(({ room }) => Math.round(room) !== DECLARED),
        'the room never shrank nor grew',
      ).to.deep.equal([]);

      // Once its user acts in the frame (a click in it: this page had focus, the frame takes it; the Link page reports
      // again, as on a new screen), the box follows the Link page's height.
      const frame = (el as PayrollLink).shadowRoot!.querySelector('[data-payroll-link-inline]')!.shadowRoot!.querySelector('iframe')!;
      await click(page, doc.querySelector('h1')!);
      const reported = new Promise<void>((resolve) =>
        el.addEventListener(
          'link-event',
          (event) => (event as CustomEvent<{ name: string }>).detail.name === 'screen_transition' && resolve(),
        ),
      );
      // Focus and the report cross from the Link frame's process separately: wait for both (the page's blur is
      // focus going into the frame), in whichever order they come.
      const intoFrame = oneEvent(win, 'blur');
      await click(page, frame);
      await Promise.all([reported, intoFrame]);
      await nextFrames(win);
      expect(Math.round(el.getBoundingClientRect().height), 'the user in the frame, the box fits the Link page').to.equal(FIRST_SCREEN);
    } finally {
      await resetMouse();
      page.remove();
    }
  });
});
