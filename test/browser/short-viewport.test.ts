/**
 * Small viewports (issue 49, 1.4.10 at 400 %): at 320x256 the Link page scrolls, and a close control laid over its
 * corner would cover what scrolls under it, so on a short viewport the control takes its own row above the frame.
 * On a tall one it still overlays the corner the Link page leaves free (test/browser/modal-layout.test.ts). The
 * viewport is a same-origin frame of that size with the widget's code in it (its own window: media queries and
 * `dvh` read its size), the same in every engine; the Link page is the fake of test/browser/fake-link.
 */
import { expect, oneEvent } from '@open-wc/testing';
import type { openLink as OpenLink } from '../../src/index.js';
import { engine } from './engine.js';
import { fakeLinkUrl, fakeTokenUrl } from './helpers.js';

/** A page `width` x `height` with the widget's code loaded (module scripts run before `load`). Remove `page` after. */
async function viewport(width: number, height: number) {
  const page = document.createElement('iframe');
  page.width = String(width);
  page.height = String(height);
  page.srcdoc = `<!doctype html><html lang="en"><body><script type="module">
    import { openLink } from '/src/index.ts';
    window.openLink = openLink;
  </script></body></html>`;
  const loaded = oneEvent(page, 'load');
  document.body.append(page);
  await loaded;
  const win = page.contentWindow as Window & { openLink: typeof OpenLink };
  return { page, win };
}

/** Whether two boxes overlap. */
const intersect = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe(`the close control on a small viewport (${engine})`, () => {
  for (const [width, height, own] of [
    [320, 256, true],
    [390, 844, false],
  ] as const) {
    it(`${width}x${height}: ${own ? 'its own row above the frame, covering nothing' : 'over the corner the Link page leaves free'}`, async () => {
      const { page, win } = await viewport(width, height);
      try {
        const link = win.openLink({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: fakeTokenUrl().url });
        await link.ready;
        const root = win.document.querySelector('[data-payroll-link-modal]')!.shadowRoot!;
        const dialog = root.querySelector('dialog')!.getBoundingClientRect();
        const frame = root.querySelector('iframe')!.getBoundingClientRect();
        const close = root.querySelector('[part="close-button"]')!.getBoundingClientRect();
        expect({ width: close.width, height: close.height }, 'the 44 px target').to.deep.equal({ width: 44, height: 44 });
        expect(intersect(close, frame), 'the control covers the frame').to.equal(!own);
        // Both inside the dialog, which fills the viewport (under 480 px wide), its top-right corner the control's.
        expect(dialog.bottom).to.be.closeTo(height, 1);
        expect(frame.bottom).to.be.closeTo(dialog.bottom, 1);
        expect(dialog.right - close.right).to.be.closeTo(4, 1);
        expect(close.top - dialog.top).to.be.closeTo(4, 1);
        if (own) expect(frame.top, 'the frame starts below the control').to.be.at.least(close.bottom);
        link.close();
        await link.closed;
      } finally {
        page.remove();
      }
    });
  }
});
