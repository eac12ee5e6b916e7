/**
 * The real launch page (`payroll-link/server/launches`, with its real built script) framed by the test page, and
 * the real sandbox's Link page its modal opens: all same-origin (test/browser/real-sandbox.mjs serves both), so a
 * test reaches into the launch page's document and, through it, into the Link frame, in every engine. The tap on
 * the page's button is a trusted one (`sendKeys`), since the page mints nothing on a script's click.
 */
import { sendKeys } from '@web/test-runner-commands';
import { PAYROLL_EMPLOYER, deepAll, fill, press, until, type ScreenTag } from './sandbox-link.js';

/** The launch kinds real-sandbox.mjs serves: English or Spanish (its `Accept-Language`), 15 minutes or 8 seconds. */
export type LaunchKind = 'launch' | 'launch-es' | 'launch-short' | 'launch-short-es';

/** The page's status line (a live region) and its "works until" sentence, by their ids. */
export const STATUS_ID = 'payroll-link-launch-status';
const EXPIRY_ID = 'payroll-link-launch-expiry';

/** Text with every kind of space as a plain one (ICU writes a narrow no-break space before "PM"). */
export const plain = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The launch page in a frame of the test page: its document, its Link frame, the flow's screens. */
export class LaunchPage {
  private constructor(
    readonly frame: HTMLIFrameElement,
    /** When the server stops honouring the link (epoch ms; the same machine's clock as the browser's). */
    readonly expiresAt: number,
  ) {}

  /** A fresh launch of `kind`, framed at a phone's size (400x720), once its script has run (the expiry sentence is there). */
  static async open(kind: LaunchKind): Promise<LaunchPage> {
    const answer = await fetch(`/a11y/launch-create?kind=${kind}`, { method: 'POST' });
    if (!answer.ok) throw new Error(`launch-create answered HTTP ${answer.status}: ${await answer.text()}`);
    const { url, expiresAt } = (await answer.json()) as { url: string; expiresAt: string };
    const frame = document.createElement('iframe');
    frame.title = 'The launch page';
    frame.width = '400';
    frame.height = '720';
    frame.src = url;
    document.body.append(frame);
    const page = new LaunchPage(frame, Date.parse(expiresAt));
    await until(`the launch page of ${kind}, its script run`, () => plain(page.doc?.getElementById(EXPIRY_ID)?.textContent));
    if (page.document.documentElement.dataset['launchPage'] === 'unbuilt') throw new Error('the launch page runs the stand-in script');
    return page;
  }

  /** The framed document now (a reload replaces it), if loaded. */
  get doc(): Document | null {
    const doc = this.frame.contentDocument;
    return doc && doc.readyState !== 'loading' && doc.URL !== 'about:blank' ? doc : null;
  }

  /** The framed document, which must be there. */
  get document(): Document {
    const doc = this.doc;
    if (!doc) throw new Error('no launch page in the frame');
    return doc;
  }

  /** The page's status line. */
  get status(): HTMLElement {
    return this.document.getElementById(STATUS_ID)!;
  }

  /** The "works until" sentence, spaces made plain. */
  get expiry(): string {
    return plain(this.document.getElementById(EXPIRY_ID)?.textContent);
  }

  /** The page's `<payroll-link>`. */
  get element(): HTMLElement {
    return this.document.querySelector<HTMLElement>('payroll-link')!;
  }

  /**
   * The user's tap on the page's button: focus on it, then a real Enter (a trusted click, which the page mints
   * on); resolves once the Link page in the modal's frame shows its intro.
   */
  async tap(): Promise<void> {
    const button = await until('the page’s button', () => this.element.shadowRoot?.querySelector('button'));
    button.focus();
    await until('focus on the page’s button', () => this.element.shadowRoot?.activeElement === button);
    await sendKeys({ press: 'Enter' });
    await this.untilScreen('link-intro');
  }

  /** The modal's `<dialog>` in the launch page, once open. */
  modalDialog(): HTMLDialogElement | null {
    return this.doc?.querySelector('[data-payroll-link-modal]')?.shadowRoot?.querySelector('dialog[open]') ?? null;
  }

  /** The Link page's document in the modal's frame, once the widget shows it (its dialog `data-ready`). */
  linkDocument(): Document | null {
    const dialog = this.modalDialog();
    const doc = dialog?.hasAttribute('data-ready') ? dialog.querySelector('iframe')?.contentDocument : null;
    return doc?.querySelector('link-app') ? doc : null;
  }

  /** Waits until the Link page shows `tag`, rendered (its heading there), and `check` passes on it; its shadow root. */
  untilScreen(tag: ScreenTag, check?: (root: ShadowRoot) => boolean): Promise<ShadowRoot> {
    return until(`the Link page's ${tag} in the launch page`, () => {
      const doc = this.linkDocument();
      const root = doc ? deepAll(doc, tag)[0]?.shadowRoot : null;
      return root?.querySelector('h1') && (!check || check(root)) ? root : null;
    });
  }

  /**
   * The flow from the intro to its success as `user_good` (a payroll employer, the password form, everything left
   * to the new account), then Done, pressed by a real Enter; resolves once the page's status says done.
   */
  async completeAndDone(done: RegExp): Promise<void> {
    press(await this.untilScreen('link-intro'), 'button.primary');
    const search = await this.untilScreen('link-search', (root) => root.querySelector(PAYROLL_EMPLOYER) !== null);
    search.querySelector<HTMLElement>(PAYROLL_EMPLOYER)!.click();
    const login = await this.untilScreen('link-login');
    fill(login, '#username', 'user_good');
    fill(login, '#password', 'pass_good');
    login.querySelector('form')!.requestSubmit();
    (await this.untilScreen('link-allocation')).querySelector('form')!.requestSubmit();
    const result = await this.untilScreen('link-result', (root) => root.querySelector('.icon.success') !== null);
    const doneButton = result.querySelector<HTMLElement>('button.primary')!;
    doneButton.focus();
    await until('focus on Done', () => result.activeElement === doneButton);
    await sendKeys({ press: 'Enter' });
    await until(`the page's status saying ${done}`, () => done.test(plain(this.status.textContent)));
  }

  /** Loads the same launch URL again (the page the link answers now). */
  async reload(): Promise<void> {
    const old = this.doc;
    this.frame.contentWindow!.location.reload();
    await until('the launch page loaded again', () => {
      const doc = this.doc;
      return doc && doc !== old && doc.readyState === 'complete' ? doc : null;
    });
  }

  /**
   * Loads axe-core into the page by the nonce of its own script (its CSP runs scripts by nonce alone): read from the
   * `nonce` property, which the browser keeps after hiding the attribute.
   */
  async loadAxe(): Promise<void> {
    const doc = this.document;
    if ((doc.defaultView as { axe?: unknown }).axe) return;
    const nonce = doc.querySelector<HTMLElement>('[nonce]')?.nonce;
    if (!nonce) throw new Error('no nonce on the launch page');
    const script = doc.createElement('script');
    script.nonce = nonce;
    script.src = '/node_modules/axe-core/axe.min.js';
    await new Promise<void>((resolve, reject) => {
      script.addEventListener('load', () => resolve(), { once: true });
      script.addEventListener('error', () => reject(new Error('axe-core did not load in the launch page')), { once: true });
      doc.head.append(script);
    });
  }

  /** Removes the frame. */
  remove(): void {
    this.frame.remove();
  }
}
