/**
 * A keyboard-only user of the real `<payroll-link>` and the real Link page (same-origin: see
 * test/browser/real-sandbox.mjs), and what they would notice about focus: after every key, where focus is, through
 * shadow roots and into the Link frame. Problems are collected, not thrown, so one run lists every step where focus
 * fell to a `<body>` or Tab left the modal; a control the user cannot reach at all ends the session at once.
 */
import { sendKeys } from '@web/test-runner-commands';
import { engine } from '../engine.js';
import { afterRendering, deepQueryAll } from '../helpers.js';

/**
 * The element that has focus, through open shadow roots and into same-origin frames: the host page's, or the Link
 * page's inside its frame. A frame document in which nothing is focused gives that document's `<body>`.
 */
export function deepActiveElement(doc: Document = document): Element | null {
  let active = doc.activeElement;
  for (;;) {
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    const inner = active?.localName === 'iframe' ? (active as HTMLIFrameElement).contentDocument : null;
    if (!inner?.activeElement) return active;
    active = inner.activeElement;
  }
}

/** `element` as a reader of a failure needs it: tag, id, classes, some text, and which document it is in. */
export function describeElement(element: Element | null): string {
  if (!element) return 'nothing';
  const where = element.ownerDocument === document ? 'host page' : 'Link frame';
  const id = element.id ? `#${element.id}` : '';
  const classes = [...element.classList].map((name) => `.${name}`).join('');
  const shown = element.localName === 'input' ? (element as HTMLInputElement).value : (element.textContent ?? '').replace(/\s+/g, ' ');
  const text = ['body', 'html'].includes(element.localName) ? '' : ` "${shown.trim().slice(0, 40)}"`;
  return `<${element.localName}${id}${classes}>${text} (${where})`;
}

/** Whether focus is lost: on a `<body>` (the host page's or the frame's), or nowhere. */
export function focusLost(element: Element | null): boolean {
  return !element || element.localName === 'body' || element.localName === 'html';
}

/** The open modal's own container at the end of `<body>` (its shadow root holds the dialog and the frame), if any. */
export function modalContainer(): Element | null {
  return document.querySelector('[data-payroll-link-modal]');
}

/** Whether a same-origin frame of the page (the Link frame) has focus, wherever it is in the page's shadow roots. */
function frameHasFocus(): boolean {
  const frames = deepQueryAll('iframe') as HTMLIFrameElement[];
  return frames.some((frame) => frame.contentDocument?.hasFocus());
}

/** Most Tab presses {@link KeyboardUser.tabTo} makes before it calls a control unreachable. */
const MAX_TABS = 20;

/**
 * One keyboard-only session. `checking` says, after each key, whether the flow counts as open or just closed (focus
 * must not be on a `<body>`), and `trapped` whether the modal is open (focus must stay in it).
 */
export class KeyboardUser {
  /** Every step where focus did what it must not, in order, each naming the step and where focus was. */
  readonly problems: string[] = [];
  /** Every key pressed and where focus went, for the message of a session that could not go on. */
  readonly trace: string[] = [];
  #step = 'start';
  checking = false;
  trapped = false;

  /** Names what the user does next, for the problems it meets. */
  step(name: string): void {
    this.#step = name;
  }

  /** Notes a problem if focus is lost, or has left the modal while it is open. */
  check(after: string): void {
    const active = deepActiveElement();
    this.trace.push(
      `${this.#step}, ${after}: ${describeElement(active)}${document.hasFocus() || frameHasFocus() ? '' : ' (the page has no focus)'}`,
    );
    // Past the page's last stop, Tab goes to the browser's own UI (its address bar, headed; nothing, headless): no
    // document of the page has focus then, and the page's `<body>` is only what is left active. That is the way out
    // every browser keeps, a native modal dialog's included (HTML's dialog focus rules: no keyboard trap), not focus
    // lost in the page nor given to the page behind the dialog; the next Tab comes back into the page.
    if (!document.hasFocus() && !frameHasFocus()) return;
    if (this.checking && focusLost(active)) this.problems.push(`${this.#step}, ${after}: focus on ${describeElement(active)}`);
    const container = modalContainer();
    if (this.trapped && container && document.activeElement !== container)
      this.problems.push(`${this.#step}, ${after}: Tab left the modal, focus on ${describeElement(active)}`);
  }

  /** Presses `key` (Tab, Enter, Escape; Shift+Tab), lets the page render what it did, then checks focus. */
  async press(key: string): Promise<void> {
    // WebKit's WebDriver takes only whole key sequences: Shift's and the key's WebDriver codes in one, where
    // webdriverio holds a modifier down for the keys after it. Elsewhere held down and released around the key:
    // puppeteer's WebDriver BiDi (Firefox) knows no "Shift+Tab" chord.
    if (key === 'Shift+Tab' && engine === 'webkit') await sendKeys({ type: '\uE008\uE004' });
    else if (key.startsWith('Shift+')) {
      await sendKeys({ down: 'Shift' });
      await sendKeys({ press: key.slice('Shift+'.length) });
      await sendKeys({ up: 'Shift' });
    } else await sendKeys({ press: key });
    await afterRendering();
    this.check(`after ${key}`);
  }

  /** Types `text` into whatever has focus, then checks focus. */
  async type(text: string): Promise<void> {
    // A key at a time: WebKitGTK's WebDriver drops a key typed twice in a row within one command ("good" → "god").
    for (const key of text) await sendKeys({ type: key });
    await afterRendering();
    this.check(`after typing ${text}`);
  }

  /**
   * Presses Tab (or Shift+Tab, `backwards`) until `wanted` has focus, and the page has the browser's focus (Tab
   * brings it back from the browser's own UI, where keys activate nothing in the page), checking after each press;
   * throws when {@link MAX_TABS} presses never get there (the control cannot be reached by keyboard).
   */
  async tabTo(what: string, wanted: (element: Element) => boolean, backwards = false): Promise<Element> {
    const reached = () => {
      const active = deepActiveElement();
      return active && wanted(active) && (document.hasFocus() || frameHasFocus()) ? active : null;
    };
    for (let presses = 0; presses < MAX_TABS; presses++) {
      const active = reached();
      if (active) return active;
      await this.press(backwards ? 'Shift+Tab' : 'Tab');
    }
    const active = reached();
    if (active) return active;
    throw new Error(
      `${this.#step}: ${MAX_TABS} presses of ${backwards ? 'Shift+Tab' : 'Tab'} never reached ${what} (focus on ${describeElement(deepActiveElement())})`,
    );
  }

  /**
   * Presses Tab `times` times in a row (at least one full cycle of the modal's stops), checking after each press
   * that focus stays in the modal and on something: the focus trap, as a user holding Tab meets it.
   */
  async cycle(times: number): Promise<void> {
    for (let i = 0; i < times; i++) await this.press('Tab');
  }

  /** Runs `steps`; a failure that stops the session carries the last keys and where focus went. */
  async session(steps: () => Promise<void>): Promise<void> {
    try {
      await steps();
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nlast keys:\n  ${this.trace.slice(-12).join('\n  ')}`, {
        cause: error,
      });
    }
  }
}
