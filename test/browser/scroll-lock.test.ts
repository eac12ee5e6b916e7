import { expect } from '@open-wc/testing';
import { lockScroll } from '../../src/core/scroll-lock.js';

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

  it('keeps the room of the scrollbar on a page that scrolls: nothing shifts', () => {
    const tall = document.createElement('div');
    tall.style.height = '300vh';
    document.body.append(tall);
    try {
      const width = root.clientWidth;
      // Classic scrollbars take room (Windows, most Linux); overlay ones (and a browser told to hide them) take none.
      const classic = innerWidth > width;
      whileLocked(() => {
        expect(getComputedStyle(root).overflow).to.equal('hidden');
        expect(gutter()).to.equal(classic ? 'stable' : 'auto');
        expect(root.clientWidth).to.equal(width);
      });
    } finally {
      tall.remove();
    }
  });
});
