import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { PayrollLink } from '../../src/index.js';
import type { FakeOpenReport } from './fake-link/fake-link.js';
import { UUID, deepQueryAll, fakeLinkUrl, fakeTokenUrl, modalRoot, recordEvents } from './helpers.js';

async function linkElement(scenario: string, plan = 'ok', extra: Partial<PayrollLink> = {}) {
  const token = fakeTokenUrl(plan);
  const el = await fixture<PayrollLink>(html`<payroll-link token-url=${token.url} link-url=${await fakeLinkUrl(scenario)}></payroll-link>`);
  Object.assign(el, extra);
  return { el, token, button: el.shadowRoot!.querySelector('button')! };
}

const frames = () => deepQueryAll('iframe');
const dialogs = () => deepQueryAll('dialog');

describe('<payroll-link>', () => {
  afterEach(() => {
    expect(frames(), 'no frame outlives its test').to.have.length(0);
  });

  it('renders a real button labelled "Connect payroll", replaceable through the slot', async () => {
    const el = await fixture<PayrollLink>(html`<payroll-link></payroll-link>`);
    const button = el.shadowRoot!.querySelector('button')!;
    expect(button.getAttribute('part')).to.equal('button');
    expect(button.type).to.equal('button');
    expect(button.textContent!.trim()).to.equal('Connect payroll');
    const labelled = await fixture<PayrollLink>(html`<payroll-link>Link your employer</payroll-link>`);
    expect(labelled.innerText.trim()).to.equal('Link your employer');
    await expect(el).to.be.accessible();
  });

  it('runs a whole session: open, login, success, then exactly one exit, last', async () => {
    const { el, button } = await linkElement('success');
    const events = recordEvents();
    const callbacks: string[] = [];
    const exited = oneEvent(el, 'link-exit');
    button.click();
    // Callbacks are read when they fire, so ones set after the click still count.
    el.onLogin = (d) => callbacks.push(`login:${d.accountId}`);
    el.onSuccess = (d) => callbacks.push(`success:${d.jobId}`);
    el.onExit = (d) => callbacks.push(`exit:${d.reason}`);
    el.onEvent = (d) => callbacks.push(`event:${d.name}`);
    const exit = await exited;
    events.stop();
    expect(events.types()).to.deep.equal(['link-open', 'link-login', 'link-success', 'link-exit']);
    const [login] = events.of('link-login');
    const [success] = events.of('link-success');
    expect(login.detail.accountId).to.match(UUID);
    expect(login.detail.linkTokenId).to.match(UUID);
    expect(success.detail).to.include({ job: 'direct_deposit_switch', accountId: login.detail.accountId });
    expect(success.detail.jobId).to.match(UUID);
    expect(exit.detail).to.deep.equal({
      reason: 'completed',
      error: null,
      linkTokenId: login.detail.linkTokenId,
      accountId: login.detail.accountId,
    });
    expect(events.of('link-event').map((e) => e.detail.name)).to.deep.equal(['open', 'login', 'success', 'exit']);
    expect(callbacks).to.deep.equal([
      'event:open',
      `event:login`,
      `login:${login.detail.accountId}`,
      `event:success`,
      `success:${success.detail.jobId}`,
      `event:exit`,
      'exit:completed',
    ]);
    expect(el.open).to.equal(false);
    expect(dialogs()).to.have.length(0);
  });

  it('dispatches events that bubble and cross shadow roots', async () => {
    const { el, button } = await linkElement('success');
    const exit = oneEvent(document, 'link-exit');
    button.click();
    const event = await exit;
    expect(event.bubbles).to.equal(true);
    expect(event.composed).to.equal(true);
    expect(event.target).to.equal(el);
  });

  it('POSTs {} or { end_user_id } as JSON to token-url', async () => {
    const { el, token, button } = await linkElement('success');
    button.click();
    await oneEvent(el, 'link-exit');
    el.endUserId = 'user-42';
    await el.updateComplete;
    button.click();
    await oneEvent(el, 'link-exit');
    const calls = await token.calls();
    expect(calls.map((c) => [c.method, c.contentType, c.body])).to.deep.equal([
      ['POST', 'application/json', '{}'],
      ['POST', 'application/json', '{"end_user_id":"user-42"}'],
    ]);
  });

  it('hands the token over by message, never in a URL, to a no-referrer sandboxed frame', async () => {
    const { el, token, button } = await linkElement('idle');
    const events = recordEvents();
    button.click();
    await oneEvent(el, 'link-open');
    const open = await oneEvent(el, 'link-event');
    const frame = frames()[0] as HTMLIFrameElement;
    expect(frame.getAttribute('referrerpolicy')).to.equal('no-referrer');
    expect(frame.getAttribute('sandbox')).to.equal(
      'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox',
    );
    expect(frame.title).to.not.equal('');
    const received = open.detail.payload as FakeOpenReport;
    expect(received.init.hostCloseControl).to.equal(true);
    expect(received.token).to.match(/^tok\./);
    expect(received.href).to.not.contain(received.token);
    expect(frame.src).to.not.contain(received.token);
    expect(received.referrer).to.equal('');
    expect(received.token).to.contain(events.of('link-open')[0].detail.linkTokenId);
    expect(await token.calls()).to.have.length(1);
    const exited = oneEvent(el, 'link-exit');
    el.close();
    const exit = await exited;
    expect(exit.detail.reason).to.equal('closed_by_host');
  });

  it('starts one session, one token fetch and one frame for rapid double clicks', async () => {
    const { el, token, button } = await linkElement('idle', 'slow');
    button.click();
    button.click();
    void el.show();
    button.click();
    await oneEvent(el, 'link-open');
    expect(frames()).to.have.length(1);
    expect(await token.calls()).to.have.length(1);
    const closing = oneEvent(el, 'link-exit');
    el.close();
    await closing;
  });

  it('fires login and success at most once and exit exactly once, even when the frame repeats them', async () => {
    const { el, button } = await linkElement('duplicates');
    const events = recordEvents();
    button.click();
    await oneEvent(el, 'link-exit');
    // Give any stray message a chance to arrive: the port is closed, so nothing may follow. A bounded
    // wait for an absence, the one honest way to look for one: a slow machine can only make it miss a
    // stray event, never fail a correct widget.
    await new Promise((resolve) => setTimeout(resolve, 50));
    events.stop();
    expect(events.types()).to.deep.equal(['link-open', 'link-login', 'link-success', 'link-exit']);
  });

  it('treats a wrong password as a non-terminal error', async () => {
    const { el, button } = await linkElement('retry-then-success');
    const events = recordEvents();
    button.click();
    const exit = await oneEvent(el, 'link-exit');
    events.stop();
    expect(events.types()).to.deep.equal(['link-open', 'link-error', 'link-login', 'link-success', 'link-exit']);
    expect(events.of('link-error')[0].detail).to.deep.include({ type: 'invalidCredentials', pendingRetry: true });
    expect(exit.detail.reason).to.equal('completed');
  });

  it("ends with the frame's error and shows the error state", async () => {
    const { el, button } = await linkElement('job-error');
    button.click();
    const exit = await oneEvent(el, 'link-exit');
    expect(exit.detail.reason).to.equal('error');
    expect(exit.detail.error).to.deep.include({ type: 'platformError', code: 'JOB_FAILED' });
    expect(exit.detail.accountId).to.match(UUID);
    await el.updateComplete;
    const error = el.shadowRoot!.querySelector('[part="error"]')!;
    expect(error.getAttribute('role')).to.equal('alert');
    await expect(el).to.be.accessible();
  });

  it('moves focus into the dialog, closes on Escape as user_closed, and gives focus back', async () => {
    const { el, button } = await linkElement('idle');
    button.focus();
    button.click();
    await oneEvent(el, 'link-open');
    const dialog = dialogs()[0] as HTMLDialogElement;
    expect(dialog.open).to.equal(true);
    expect(dialog.contains(modalRoot().activeElement)).to.equal(true);
    expect(el.open).to.equal(true);
    expect(el.hasAttribute('open')).to.equal(true);
    await expect(el).to.be.accessible();
    await expect(modalRoot().host).to.be.accessible();
    const exit = oneEvent(el, 'link-exit');
    await sendKeys({ press: 'Escape' });
    expect((await exit).detail).to.deep.include({ reason: 'user_closed', error: null });
    expect(el.shadowRoot!.activeElement).to.equal(button);
    expect(dialogs()).to.have.length(0);
  });

  it('ends as user_closed from the close control', async () => {
    const { el, button } = await linkElement('login-then-wait');
    button.click();
    await oneEvent(el, 'link-login');
    const exit = oneEvent(el, 'link-exit');
    (modalRoot().querySelector('[part="close-button"]') as HTMLButtonElement).click();
    expect((await exit).detail).to.include({ reason: 'user_closed' });
    expect((await exit).detail.accountId).to.match(UUID);
  });

  it('locks page scrolling while open and restores overflow and position exactly', async () => {
    const spacer = document.createElement('div');
    spacer.className = 'tall';
    spacer.append(document.createElement('div'));
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('.tall { height: 5000px; } html { overflow: auto; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    document.body.append(spacer);
    try {
      const { el, button } = await linkElement('idle');
      window.scrollTo(0, 400);
      const before = { overflow: getComputedStyle(document.documentElement).overflow, y: window.scrollY };
      expect(before.y).to.equal(400);
      button.click();
      await oneEvent(el, 'link-open');
      expect(getComputedStyle(document.documentElement).overflow).to.equal('hidden');
      const closing = oneEvent(el, 'link-exit');
      el.close();
      await closing;
      expect(getComputedStyle(document.documentElement).overflow).to.equal(before.overflow);
      expect(window.scrollY).to.equal(400);
      expect(document.documentElement.hasAttribute('style')).to.equal(false);
    } finally {
      spacer.remove();
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
      window.scrollTo(0, 0);
    }
  });

  it('ends as closed_by_host when removed mid-flow, leaving no frame behind', async () => {
    const { el, button } = await linkElement('login-then-wait');
    button.click();
    await oneEvent(el, 'link-login');
    const exit = oneEvent(el, 'link-exit');
    const parent = el.parentNode!;
    el.remove();
    expect((await exit).detail.reason).to.equal('closed_by_host');
    expect(frames()).to.have.length(0);
    expect(getComputedStyle(document.documentElement).overflow).to.not.equal('hidden');
    // Connect again (React StrictMode, SPA navigation): one frame, one session, as before.
    parent.appendChild(el);
    el.remove();
    parent.appendChild(el);
    await el.updateComplete;
    const events = recordEvents(el);
    el.shadowRoot!.querySelector('button')!.click();
    await oneEvent(el, 'link-login');
    expect(frames()).to.have.length(1);
    const closing = oneEvent(el, 'link-exit');
    el.close();
    await closing;
    events.stop();
    expect(events.types()).to.deep.equal(['link-open', 'link-login', 'link-exit']);
  });

  it('leaves exactly one window message listener after connect, disconnect and connect', async () => {
    // Counted at the source: the listeners added to window for 'message', minus those removed.
    const listening = new Set<unknown>();
    const { addEventListener, removeEventListener } = window;
    window.addEventListener = function (this: Window, ...args: Parameters<Window['addEventListener']>) {
      if (args[0] === 'message') listening.add(args[1]);
      return addEventListener.apply(this, args);
    } as Window['addEventListener'];
    window.removeEventListener = function (this: Window, ...args: Parameters<Window['removeEventListener']>) {
      if (args[0] === 'message') listening.delete(args[1]);
      return removeEventListener.apply(this, args);
    } as Window['removeEventListener'];
    try {
      const { el, button } = await linkElement('login-then-wait', 'ok', { prefetch: true });
      button.click();
      await oneEvent(el, 'link-login');
      expect(listening.size).to.equal(1);
      const parent = el.parentNode!;
      el.remove();
      expect(listening.size, 'none once removed').to.equal(0);
      parent.appendChild(el);
      el.remove();
      parent.appendChild(el);
      await el.updateComplete;
      el.shadowRoot!.querySelector('button')!.click();
      await oneEvent(el, 'link-login');
      expect(listening.size).to.equal(1);
      expect(frames()).to.have.length(1);
      const closing = oneEvent(el, 'link-exit');
      el.close();
      await closing;
      expect(listening.size).to.equal(0);
    } finally {
      window.addEventListener = addEventListener;
      window.removeEventListener = removeEventListener;
    }
  });

  it('returns to its error state when the modal cannot be shown', async () => {
    const { el, button } = await linkElement('idle');
    const { showModal } = HTMLDialogElement.prototype;
    // As a browser refuses showModal() (an element outside the document, a dialog already shown elsewhere).
    HTMLDialogElement.prototype.showModal = () => {
      throw new DOMException('refused', 'InvalidStateError');
    };
    try {
      const events = recordEvents(el);
      const exit = oneEvent(el, 'link-exit');
      button.click();
      const { detail } = await exit;
      events.stop();
      expect(events.types()).to.deep.equal(['link-error', 'link-exit']);
      expect(detail.reason).to.equal('error');
      expect(detail.error).to.include({ type: 'clientError', code: 'MODAL_UNAVAILABLE' });
    } finally {
      HTMLDialogElement.prototype.showModal = showModal;
    }
    await el.updateComplete;
    expect(el.open).to.equal(false);
    expect(button.getAttribute('aria-busy')).to.equal('false');
    expect(el.shadowRoot!.querySelectorAll('[part="error"]')).to.have.length(1);
    expect(dialogs()).to.have.length(0);
    expect(getComputedStyle(document.documentElement).overflow).to.not.equal('hidden');
  });

  it('opens and closes through the open property, and stays shut while disabled', async () => {
    const { el, token, button } = await linkElement('idle');
    el.disabled = true;
    await el.updateComplete;
    expect(button.disabled).to.equal(true);
    button.click();
    await el.show();
    expect(frames()).to.have.length(0);
    el.disabled = false;
    el.open = true;
    await oneEvent(el, 'link-open');
    expect(frames()).to.have.length(1);
    el.open = false;
    expect((await oneEvent(el, 'link-exit')).detail.reason).to.equal('closed_by_host');
    expect(await token.calls()).to.have.length(1);
  });

  it('keeps the session going when an integrator callback throws', async () => {
    const { el, button } = await linkElement('success');
    const errors: unknown[] = [];
    const onError = (event: ErrorEvent) => {
      errors.push(event.error);
      event.preventDefault();
    };
    window.addEventListener('error', onError);
    // Mocha treats uncaught errors as failures; this one is expected and reported on purpose.
    const mochaHandler = window.onerror;
    window.onerror = null;
    try {
      el.onLogin = () => {
        throw new Error('integrator bug');
      };
      button.click();
      const exit = await oneEvent(el, 'link-exit');
      expect(exit.detail.reason).to.equal('completed');
      expect(errors.map((e) => (e as Error).message)).to.deep.equal(['integrator bug']);
    } finally {
      window.removeEventListener('error', onError);
      window.onerror = mochaHandler;
    }
  });
});
