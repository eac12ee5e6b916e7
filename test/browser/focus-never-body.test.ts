/**
 * 2.4.3 Focus Order (issue 49): focus never falls to `<body>` when the flow goes with focus in it. The modal gives
 * focus back to its opener however the session ends: Done or Close on the Link page's final screen, the Link page's
 * own exit, Leave in its leave question. Inline, where nothing else took focus, the element itself takes it
 * (focusable with `tabindex="-1"` and named only then), unless the integrator's `link-exit` listener moved it; a
 * flow that did not have focus moves nothing. The Link page is the fake of test/browser/fake-link (another origin,
 * the real frame protocol): the host window plays its user (`fake-link:exit`, `fake-link:leave`).
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import '../../src/index.js';
import { openLink, type PayrollLink } from '../../src/index.js';
import { engine } from './engine.js';
import { deepQueryAll, fakeLinkUrl, fakeTokenUrl } from './helpers.js';

/** The element focused, through shadow roots (not into frames). */
function deepActive(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** The session's frame, wherever it is (the modal's container or the inline box). */
const linkFrame = () => deepQueryAll('iframe')[0] as HTMLIFrameElement;

/** Tells the fake Link page what its user did. */
const userOfLinkPage = (message: { type: string; reason?: string }) => linkFrame().contentWindow!.postMessage(message, '*');

/** Resolves when the fake Link page tells the host window `type`. */
function fakeSays(type: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = ({ data }: MessageEvent) => data?.type === type && (window.removeEventListener('message', listener), resolve());
    window.addEventListener('message', listener);
  });
}

/** The user's focus in the Link page (a click or Tab into it): the host page's focus is on the frame. */
function focusInFrame() {
  linkFrame().focus();
  expect(deepActive(), 'the setup: focus is in the frame').to.equal(linkFrame());
}

/** A real click at the middle of `target`, as the user's. */
async function clickAsUser(target: Element) {
  const box = target.getBoundingClientRect();
  await sendMouse({ type: 'click', position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)] });
  await resetMouse();
}

async function modalElement(query: string) {
  const el = await fixture<PayrollLink>(
    html`<payroll-link token-url=${fakeTokenUrl('ok').url} link-url=${await fakeLinkUrl(query)}></payroll-link>`,
  );
  const button = el.shadowRoot!.querySelector('button')!;
  const opened = oneEvent(el, 'link-open');
  await clickAsUser(button);
  await opened;
  focusInFrame();
  return { el, button };
}

async function inlineElement(query: string) {
  const el = await fixture<PayrollLink>(
    html`<payroll-link display="inline" token-url=${fakeTokenUrl('ok').url} link-url=${await fakeLinkUrl(query)}></payroll-link>`,
  );
  await el.show();
  return el;
}

/** Ends the session through the Link page's leave question: a close request, `confirming`, then Leave. */
async function leave(el: PayrollLink) {
  const confirming = fakeSays('fake-link:confirming');
  el.requestClose();
  await confirming;
  const exit = oneEvent(el, 'link-exit');
  userOfLinkPage({ type: 'fake-link:leave' });
  return (await exit).detail;
}

describe(`focus never falls to <body> as the flow goes (${engine})`, () => {
  afterEach(() => expect(deepQueryAll('iframe'), 'no frame outlives its test').to.have.length(0));

  describe('the modal: focus goes back to its opener', () => {
    for (const reason of ['completed', 'user_closed'] as const) {
      it(`after the Link page's own end (${reason}: Done or Close on its final screen)`, async () => {
        const { el, button } = await modalElement('idle');
        const exit = oneEvent(el, 'link-exit');
        userOfLinkPage({ type: 'fake-link:exit', reason });
        expect((await exit).detail.reason).to.equal(reason);
        expect(deepActive(), 'focus on the button that opened it').to.equal(button);
      });
    }

    it('after Leave in the leave question', async () => {
      const { el, button } = await modalElement('idle&close=confirm');
      expect((await leave(el)).reason).to.equal('user_closed');
      expect(deepActive()).to.equal(button);
    });

    it("openLink() from the page's own button: back to that button after the Link page's end", async () => {
      const opener = await fixture<HTMLButtonElement>(html`<button>Connect</button>`);
      opener.focus();
      const link = openLink({ linkUrl: await fakeLinkUrl('idle'), tokenUrl: fakeTokenUrl('ok').url });
      await link.ready;
      focusInFrame();
      userOfLinkPage({ type: 'fake-link:exit', reason: 'completed' });
      expect((await link.closed).reason).to.equal('completed');
      expect(deepActive()).to.equal(opener);
    });
  });

  describe('inline: focus goes to the element itself', () => {
    it('after Leave (user_closed) with focus in the frame: the element, focusable and named only now', async () => {
      const el = await inlineElement('idle&close=confirm');
      expect(el.hasAttribute('tabindex'), 'not focusable before').to.equal(false);
      focusInFrame();
      expect((await leave(el)).reason).to.equal('user_closed');
      expect(deepActive(), 'focus on the element').to.equal(el);
      expect(el.getAttribute('tabindex')).to.equal('-1');
      expect(el.getAttribute('aria-label'), "named with the widget's title").to.equal('Connect your payroll account');
    });

    it('closed by the page (closed_by_host) while focus was in the frame: the element too', async () => {
      const el = await inlineElement('idle');
      focusInFrame();
      const exit = oneEvent(el, 'link-exit');
      el.close();
      expect((await exit).detail.reason).to.equal('closed_by_host');
      expect(deepActive()).to.equal(el);
    });

    it("unless the integrator's link-exit listener moved focus: it stays where the listener put it", async () => {
      const el = await inlineElement('idle&close=confirm');
      const next = document.createElement('button');
      next.textContent = 'Next step';
      el.after(next);
      try {
        el.addEventListener('link-exit', () => next.focus(), { once: true });
        focusInFrame();
        await leave(el);
        expect(deepActive(), "the listener's choice").to.equal(next);
      } finally {
        next.remove();
      }
    });

    it('a flow that did not have focus moves nothing: focus stays in the field the user was in', async () => {
      const el = await inlineElement('idle&close=confirm');
      const field = document.createElement('input');
      field.setAttribute('aria-label', 'Your name');
      el.before(field);
      try {
        field.focus();
        await leave(el);
        expect(deepActive()).to.equal(field);
        expect(el.hasAttribute('tabindex'), 'the element stays unfocusable').to.equal(false);
      } finally {
        field.remove();
      }
    });
  });
});
