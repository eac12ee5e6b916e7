import { expect } from '@open-wc/testing';
import { openLink } from '../../src/index.js';
import type { FakeOpenReport } from './fake-link/fake-link.js';
import { deepQueryAll, fakeLinkUrl, modalRoot } from './helpers.js';

describe('the Link modal layout', () => {
  afterEach(() => expect(deepQueryAll('iframe')).to.have.length(0));

  it("shows one header, the Link page's: the close control overlays the frame's top-right corner and takes focus first", async () => {
    let told!: (hostCloseControl: unknown) => void;
    // The fake Link page reports what its init message said.
    const toldLinkPage = new Promise((resolve) => (told = resolve));
    const link = openLink({
      linkUrl: await fakeLinkUrl('idle'),
      fetchToken: async () => `tok.${crypto.randomUUID()}`,
      onEvent: ({ name, payload }) => {
        if (name === 'open') told((payload as FakeOpenReport).init.hostCloseControl);
      },
    });
    await link.ready;
    const root = modalRoot();
    const dialog = root.querySelector('dialog')!.getBoundingClientRect();
    const frame = root.querySelector('iframe')!.getBoundingClientRect();
    const close = root.querySelector<HTMLButtonElement>('[part="close-button"]')!;
    const corner = close.getBoundingClientRect();
    // No bar of the modal's own above the Link page: the frame fills the dialog.
    expect(frame.top).to.be.closeTo(dialog.top, 1);
    expect(frame.height).to.be.closeTo(dialog.height, 1);
    // The control sits inside the frame's top-right corner, over it.
    expect(corner.top).to.be.at.least(frame.top);
    expect(corner.right).to.be.at.most(frame.right);
    expect(corner.bottom - frame.top).to.be.at.most(52);
    expect(frame.right - corner.left).to.be.at.most(52);
    expect(root.elementFromPoint(corner.left + corner.width / 2, corner.top + corner.height / 2)).to.equal(close);
    // Keyboard and screen readers reach it first, by its name.
    expect(root.activeElement).to.equal(close);
    expect(close.getAttribute('aria-label')).to.equal('Close');
    expect(await toldLinkPage, 'the Link page was told to leave that corner free').to.equal(true);
    link.close();
    await link.closed;
  });
});
