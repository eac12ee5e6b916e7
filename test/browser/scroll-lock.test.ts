import { expect } from '@open-wc/testing';
import { lockScroll } from '../../src/core/modal/scroll-lock.js';
import { engine } from './engine.js';

const root = document.documentElement;
const gutter = () => getComputedStyle(root).getPropertyValue('scrollbar-gutter');

/** Runs `check` while the page's scrolling is locked, then releases the lock. */
function whileLocked(check: () => void): void {
  const release = lockScroll();
  try {
    check();
  } finally {
    release();
  }
}

describe('scroll lock', () => {
  it('reserves no gutter on a page without a scrollbar: nothing shifts, no strip is left undimmed', () => {
    expect(root.scrollHeight, 'the test page does not scroll').to.be.at.most(innerHeight);
    const width = root.clientWidth;
    whileLocked(() => {
      expect(getComputedStyle(root).overflow).to.equal('hidden');
      expect(gutter()).to.equal('auto');
      expect(root.clientWidth).to.equal(width);
    });
  });

  // The lock has two branches, and each engine here shows one. Classic scrollbars take room (Windows, most Linux):
  // Firefox draws them here, and covers the branch that keeps their room. Overlay scrollbars take none (Safari on
  // macOS by default, and on iOS): WebKitGTK draws them and covers the branch that reserves nothing, as does
  // Chromium, which Playwright's headless mode tells to hide its scrollbars. Each engine first checks it draws the
  // kind it covers, so neither branch can lose its coverage unnoticed.
  const classic = engine === 'firefox';
  it(
    classic
      ? 'keeps the room of a classic scrollbar on a page that scrolls: nothing shifts (Firefox)'
      : 'reserves no gutter for a scrollbar that takes no room on a page that scrolls: nothing shifts (WebKit, as Safari; Chromium)',
    () => {
      const tall = document.createElement('div');
      tall.style.height = '300vh';
      document.body.append(tall);
      try {
        const width = root.clientWidth;
        expect(innerWidth > width, `${engine} draws ${classic ? 'classic scrollbars' : 'scrollbars that take no room'}`).to.equal(classic);
        whileLocked(() => {
          expect(getComputedStyle(root).overflow).to.equal('hidden');
          expect(gutter()).to.equal(classic ? 'stable' : 'auto');
          expect(root.clientWidth).to.equal(width);
        });
      } finally {
        tall.remove();
      }
    },
  );
});
