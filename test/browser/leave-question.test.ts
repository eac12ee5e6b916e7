/**
 * The Link page's leave question is an alert dialog (issue 49): while it asks (its close answer `confirming`, sent
 * every time it starts asking, whether or not the page asked it to close), the modal's own close control is inert,
 * so Tab cannot leave the question for it; after `stay` it is back, and a `confirming` nobody asked for is
 * harmless. The Link page is the fake of test/browser/fake-link: the host window plays its user (`fake-link:ask`,
 * its own close control; `fake-link:stay`, `fake-link:leave`).
 */
import { expect } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import { openLink, type LinkHandle } from '../../src/index.js';
import { engine } from './engine.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl, modalRoot } from './helpers.js';

const closeControl = () => modalRoot().querySelector<HTMLButtonElement>('[part="close-button"]')!;
const linkFrame = () => modalRoot().querySelector('iframe')!;
const userOfLinkPage = (type: string) => linkFrame().contentWindow!.postMessage({ type }, '*');

/** Resolves once the close control's `inert` is `inert` (at once if it is already): the answer arrived. */
function untilInert(inert: boolean): Promise<void> {
  const control = closeControl();
  return new Promise((resolve) => {
    if (control.inert === inert) return resolve();
    const watch = new MutationObserver(() => control.inert === inert && (watch.disconnect(), resolve()));
    watch.observe(control, { attributeFilter: ['inert'] });
  });
}

async function open(query: string): Promise<LinkHandle> {
  const link = openLink({ linkUrl: await fakeLinkUrl(query), tokenUrl: fakeTokenUrl('ok').url, closeRequestTimeoutMs: 10 * 60_000 });
  await link.ready;
  return link;
}

describe(`the leave question holds focus: the close control is inert while the Link page asks (${engine})`, () => {
  afterEach(async () => {
    await resetMouse();
    expect(deepQueryAll('iframe'), 'no frame outlives its test').to.have.length(0);
  });

  it('the close control, pressed: inert from `confirming`, focus moved off it into the frame; back after `stay`', async () => {
    const link = await open('idle&close=confirm');
    const control = closeControl();
    expect(control.inert, 'not inert before the question').to.equal(false);
    const box = control.getBoundingClientRect();
    await sendMouse({ type: 'click', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
    await untilInert(true);
    // Focus left the control as it went inert, for the frame, where the question is: never <body>.
    expect(modalRoot().activeElement, 'focus in the frame').to.equal(linkFrame());
    userOfLinkPage('fake-link:stay');
    await untilInert(false);
    link.close();
    await link.closed;
  });

  it("a `confirming` nobody asked for (the Link page's own close control) is harmless: inert until `stay`, the session goes on", async () => {
    const link = await open('idle');
    userOfLinkPage('fake-link:ask');
    await untilInert(true);
    userOfLinkPage('fake-link:stay');
    await untilInert(false);
    expect(document.querySelector('[data-payroll-link-modal]'), 'the flow still shows').to.not.equal(null);
    const exit = link.closed;
    userOfLinkPage('fake-link:ask');
    await untilInert(true);
    // Leave, then: the session ends as its user closed it.
    linkFrame().contentWindow!.postMessage({ type: 'fake-link:exit', reason: 'user_closed' }, '*');
    expect((await exit).reason).to.equal('user_closed');
  });
});
