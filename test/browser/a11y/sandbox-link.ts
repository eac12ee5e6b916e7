/**
 * The real `<payroll-link>` with the real sandbox's Link page, same-origin (test/browser/real-sandbox.mjs proxies
 * the page through the test server), so a test reaches into the Link frame in every engine: its screens, its
 * controls, its focus. Tokens are real sandbox Link tokens, minted server-side (`POST /a11y/link-token`).
 */
import type { PayrollLink } from '../../../src/index.js';
import '../../../src/index.js';

/** How the flow shows: the element's modal, or inline in the page. */
export type Presentation = 'modal' | 'inline';
/** The colour scheme and language a session runs in. */
export type Scheme = 'light' | 'dark' | 'spanish';

/** The screens of the Link page, by the custom element each renders. */
export type ScreenTag =
  'link-intro' | 'link-search' | 'link-login' | 'link-oauth' | 'link-mfa' | 'link-allocation' | 'link-running' | 'link-result';

/** Bound on any one wait, so a flow that never gets there fails saying what it waited for; not a delay. */
const WAIT_BOUND_MS = 20_000;

/**
 * Resolves with `probe()`'s first truthy answer, asking again on each animation frame (a condition, not a time);
 * fails, naming `what`, when it has not come within the bound.
 */
export async function until<T>(what: string, probe: () => T | null | undefined | false): Promise<T> {
  const started = performance.now();
  for (;;) {
    const answer = probe();
    if (answer) return answer;
    if (performance.now() - started > WAIT_BOUND_MS) throw new Error(`gave up waiting for ${what}`);
    await new Promise(requestAnimationFrame);
  }
}

/** Every element matching `selector` in `root` and the open shadow roots below it. */
export function deepAll<E extends Element = HTMLElement>(root: ParentNode, selector: string): E[] {
  const found = [...root.querySelectorAll<E>(selector)];
  for (const element of root.querySelectorAll('*')) if (element.shadowRoot) found.push(...deepAll<E>(element.shadowRoot, selector));
  return found;
}

/**
 * A host page fit to be audited: in English, titled, with its own `main` (the integrator's; an inline flow lives
 * in it), so what axe finds is the widget's and the Link page's, not the test runner's bare page.
 */
function hostPage(): HTMLElement {
  document.documentElement.lang = 'en';
  document.title = 'Acme Lending: your account';
  const main = document.createElement('main');
  const heading = document.createElement('h1');
  heading.textContent = 'Your account';
  main.append(heading);
  document.body.append(main);
  return main;
}

/** What {@link mount} gives: the element and the page part that holds it. */
export interface Mounted {
  element: PayrollLink;
  /** The page's `main`, holding the element (inside a `<div lang="es">` for Spanish). */
  main: HTMLElement;
}

/**
 * `<payroll-link>` on a fresh host page, in `presentation` and `scheme` (Spanish: inside `<div lang="es">` on an
 * English page, so the element's language comes from its ancestors), its token from the sandbox with `query`'s
 * fields (e.g. `end_user_id=...`). Inline, it starts its session by itself once seen.
 */
export function mount(presentation: Presentation, scheme: Scheme, options: { before?: Element[] } = {}): Mounted {
  const main = hostPage();
  const element = document.createElement('payroll-link');
  element.tokenUrl = '/a11y/link-token';
  element.linkUrl = '/link';
  if (scheme === 'dark') element.colorScheme = 'dark';
  if (presentation === 'inline') element.display = 'inline';
  main.append(...(options.before ?? []));
  if (scheme === 'spanish') {
    const spanish = document.createElement('div');
    spanish.lang = 'es';
    spanish.append(element);
    main.append(spanish);
  } else {
    main.append(element);
  }
  return { element, main };
}

/** Removes what {@link mount} made, and any modal left behind, so the next test starts on a clean page. */
export function unmount(): void {
  for (const main of document.querySelectorAll('main')) main.remove();
  for (const modal of document.querySelectorAll('[data-payroll-link-modal]')) modal.remove();
}

/** The Link frame of `element`'s session showing now (the modal's, in its container at the end of `<body>`, or the inline one), if any. */
export function linkFrame(element: PayrollLink): HTMLIFrameElement | null {
  if (element.display === 'inline') return deepAll<HTMLIFrameElement>(element.shadowRoot!, 'iframe')[0] ?? null;
  return modalDialog()?.querySelector('iframe') ?? null;
}

/** Whether the widget has shown the Link page (its loading status gone): the modal's dialog or the inline box is `data-ready`. */
export function isReady(element: PayrollLink): boolean {
  if (element.display === 'inline') return deepAll(element.shadowRoot!, '[data-payroll-link-inline][data-ready]').length > 0;
  return modalDialog()?.hasAttribute('data-ready') ?? false;
}

/** The modal's `<dialog>`, once open. */
export function modalDialog(): HTMLDialogElement | null {
  return document.querySelector('[data-payroll-link-modal]')?.shadowRoot?.querySelector('dialog[open]') ?? null;
}

/** The Link page's document in `element`'s frame, once the Link page (not a blank document) is in it. */
export function linkDocument(element: PayrollLink): Document | null {
  const doc = linkFrame(element)?.contentDocument;
  return doc && doc.querySelector('link-app') && isReady(element) ? doc : null;
}

/** The Link page's current screen element, once it shows `tag` and has rendered (its heading is there). */
export function screenOf(element: PayrollLink, tag: ScreenTag): HTMLElement | null {
  const doc = linkDocument(element);
  const screen = doc && deepAll(doc, tag)[0];
  return screen?.shadowRoot?.querySelector('h1') ? screen : null;
}

/** Waits until the Link page shows `tag` (and `check` passes on it, when given); resolves with the screen's shadow root. */
export async function untilScreen(element: PayrollLink, tag: ScreenTag, check?: (root: ShadowRoot) => boolean): Promise<ShadowRoot> {
  return until(`the Link page's ${tag}${check ? ` (${check})` : ''}`, () => {
    const root = screenOf(element, tag)?.shadowRoot;
    return root && (!check || check(root)) ? root : null;
  });
}

/** Opens the flow as a page's script would (modal: a click on the element's button; inline: it starts once seen). */
export async function start(element: PayrollLink): Promise<void> {
  await element.updateComplete;
  if (element.display !== 'inline') element.shadowRoot!.querySelector('button')!.click();
}

/** Types `value` into the field `selector` of a screen, as the user's input (an `input` event). */
export function fill(root: ShadowRoot, selector: string, value: string): void {
  const input = root.querySelector<HTMLInputElement>(selector)!;
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
}

/** Clicks the first element matching `selector` in a screen. */
export function press(root: ShadowRoot, selector: string): void {
  const target = root.querySelector<HTMLElement>(selector);
  if (!target) throw new Error(`no ${selector} on this screen`);
  target.click();
}

/** From the intro to the search's first results: Continue, then the popular list shown. */
export async function toSearch(element: PayrollLink): Promise<ShadowRoot> {
  press(await untilScreen(element, 'link-intro'), 'button.primary');
  return untilScreen(element, 'link-search', (root) => root.querySelectorAll('.hit').length > 0);
}

/** A payroll employer's search hit (logs in with the password form). */
export const PAYROLL_EMPLOYER = '.hit[data-kind="employer"][data-platform-type="payroll"]';

/**
 * Searches `query` (none: the list shown first), and picks the first hit of `selector` whose text has `text`; from
 * the intro, or the search already showing.
 */
export async function pick(element: PayrollLink, query = '', selector = PAYROLL_EMPLOYER, text = ''): Promise<void> {
  const search = screenOf(element, 'link-search') ? await untilScreen(element, 'link-search') : await toSearch(element);
  if (query) {
    fill(search, '#query', query);
    search.querySelector('form')!.requestSubmit();
  }
  const hit = await until(`a search hit ${selector} "${text}" for "${query}"`, () =>
    [...search.querySelectorAll<HTMLElement>(selector)].find((candidate) => candidate.textContent!.includes(text)),
  );
  hit.click();
}

/** Logs in with the password form as `username` (password `pass_good`, unless `password` says otherwise). */
export async function logIn(element: PayrollLink, username: string, password = 'pass_good'): Promise<ShadowRoot> {
  const login = await untilScreen(element, 'link-login');
  fill(login, '#username', username);
  fill(login, '#password', password);
  login.querySelector('form')!.requestSubmit();
  return login;
}

/** On the allocation screen: everything left (the default choice), "Switch my deposit". */
export async function allocate(element: PayrollLink): Promise<void> {
  const allocation = await untilScreen(element, 'link-allocation');
  allocation.querySelector('form')!.requestSubmit();
}

/** The final screen: success, or an error. */
export function untilResult(element: PayrollLink, tone: 'success' | 'error'): Promise<ShadowRoot> {
  return untilScreen(element, 'link-result', (root) => root.querySelector(`.icon.${tone}`) !== null);
}
