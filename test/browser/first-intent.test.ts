/**
 * The element on a page that has not loaded the session's code yet (this file's page: web-test-runner opens a
 * page per test file, and this file's one test checks that nothing has asked for the code before it starts).
 * The first hover loads the code and builds the frame when it arrives; a session opened and closed while the
 * code loads ends as every session does and leaves nothing behind.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import type { PayrollLink } from '../../src/index.js';
import { loadSessionCode } from '../../src/element/load-session.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl } from './helpers.js';

const frames = () => deepQueryAll('iframe') as HTMLIFrameElement[];
const sessionCodeRequested = () => performance.getEntriesByType('resource').some((entry) => /\/session-code\.(js|ts)\b/.test(entry.name));

describe('the first sign of intent on a page', () => {
  it('loads the session code, then builds the frame; a session opened and closed meanwhile leaves nothing', async () => {
    const linkUrl = await fakeLinkUrl('idle');
    const hovered = await fixture<PayrollLink>(
      html`<payroll-link prefetch token-url=${fakeTokenUrl('ok').url} link-url=${linkUrl}></payroll-link>`,
    );
    const shown = await fixture<PayrollLink>(html`<payroll-link token-url=${fakeTokenUrl('ok').url} link-url=${linkUrl}></payroll-link>`);
    expect(sessionCodeRequested(), 'nothing has asked for the session code yet').to.equal(false);

    hovered.dispatchEvent(new PointerEvent('pointermove'));
    expect(frames(), 'the frame waits for the code').to.have.length(0);
    const exit = oneEvent(shown, 'link-exit');
    void shown.show();
    expect(shown.open).to.equal(true);
    shown.close();
    expect((await exit).detail).to.deep.equal({ reason: 'closed_by_host', error: null, linkTokenId: null });
    expect(shown.open).to.equal(false);

    await loadSessionCode();
    expect(sessionCodeRequested()).to.equal(true);
    const built = frames();
    expect(built, "the hovered element's frame, and nothing of the closed session").to.have.length(1);
    expect(built[0]!.closest('dialog')!.open).to.equal(false);

    const opened = oneEvent(hovered, 'link-open');
    hovered.shadowRoot!.querySelector('button')!.click();
    await opened;
    expect(frames(), 'the frame built ahead, shown').to.deep.equal(built);
    const closed = oneEvent(hovered, 'link-exit');
    hovered.close();
    await closed;
    expect(frames()).to.have.length(0);
  });
});
