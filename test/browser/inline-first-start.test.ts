import { expect, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import { fakeLinkUrl, fakeTokenUrl } from './helpers.js';

// A file of its own: web-test-runner gives each file a fresh page, so this is the page's first session and its
// code loads on this start (the lazy chunk), as on a newcomer's first visit. In inline.test.ts an earlier test has
// loaded it already. The Link page and the token endpoint are the fakes (outside the widget).

const heightOf = (element: Element) => Math.round(element.getBoundingClientRect().height);

describe('inline, the first session of a page', () => {
  it('keeps its declared room from the start of a session until the flow is in it, even while the session code loads: no layout shift', async () => {
    const el = document.createElement('payroll-link');
    el.display = 'inline';
    el.tokenUrl = fakeTokenUrl().url;
    el.linkUrl = await fakeLinkUrl('idle');
    // Every change to the element's inline room, seen as it happens, until the flow has opened in it.
    const heights: number[] = [];
    const watch = new MutationObserver(() => {
      const room = el.shadowRoot!.querySelector('[part="inline"]');
      if (room) heights.push(heightOf(room));
    });
    const opened = oneEvent(el, 'link-open');
    document.body.append(el);
    watch.observe(el.shadowRoot!, { attributes: true, childList: true, subtree: true });
    try {
      await opened;
      watch.disconnect();
      expect(heights.length, 'the room changed as the session started').to.be.above(0);
      expect(
        heights.filter((height) => height !== 640),
        'never collapsed below the declared room',
      ).to.deep.equal([]);
    } finally {
      el.remove();
    }
  });
});
