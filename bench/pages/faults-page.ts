/**
 * Token-fault page: one `<payroll-link>` per row, its `token-url` pointing at
 * the scripted fake token endpoint. A row clicks the button and waits for the
 * first outcome the user sees: the Link frame open (`link-open`) or the
 * session's end (`link-exit`). Then it checks the state is a defined one.
 */
import { PayrollLink, type ExitDetail, type LinkError } from '../../src/index.js';
import { deepElements, nextEvent } from './wait-for.js';

/** One row to run. */
export interface FaultRow {
  tokenUrl: string;
  linkUrl: string;
  prefetch: boolean;
  /** With prefetch: wait this long after the token arrived before clicking (lets it go stale). */
  clickAfterMs: number;
}

/** What the user saw, and whether the widget was left in a defined state. */
export interface FaultOutcome {
  outcome: 'open' | 'exit' | 'none';
  /** Click → first outcome. */
  ms: number;
  exit: ExitDetail | null;
  errors: LinkError[];
  /** Every `link-*` event in order (without `link-event`). */
  events: string[];
  /** The state right after the outcome. */
  state: { dialogs: number; frames: number; buttonBusy: string | null; errorShown: boolean; open: boolean };
  /** Exit after the bench closed an opened session (open rows only). */
  closedAfterOpen: string | null;
}

declare global {
  interface Window {
    faults: { run(row: FaultRow): Promise<FaultOutcome> };
  }
}

/** The longest any row may take: 3 tries × 15 s timeout plus backoff, with room. */
const ROW_LIMIT_MS = 70_000;

async function run(row: FaultRow): Promise<FaultOutcome> {
  const element = new PayrollLink();
  element.linkUrl = row.linkUrl;
  element.tokenUrl = row.tokenUrl;
  element.prefetch = row.prefetch ? 'load' : false;
  const events: string[] = [];
  const errors: LinkError[] = [];
  let exit: ExitDetail | null = null;
  for (const name of ['link-open', 'link-login', 'link-success', 'link-error', 'link-exit'] as const) {
    element.addEventListener(name, (event) => {
      events.push(name);
      if (name === 'link-error') errors.push((event as CustomEvent<LinkError>).detail);
      if (name === 'link-exit') exit = (event as CustomEvent<ExitDetail>).detail;
    });
  }
  const prefetched = row.prefetch ? fetchedOnce(row.tokenUrl) : Promise.resolve();
  document.body.append(element);
  await element.updateComplete;
  await prefetched;
  if (row.clickAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, row.clickAfterMs));

  const button = element.shadowRoot!.querySelector<HTMLButtonElement>('button[part="button"]')!;
  let clickAt = 0;
  button.addEventListener('click', (event) => (clickAt = event.timeStamp), { once: true });
  const first = Promise.race([
    nextEvent(element, 'link-open', ROW_LIMIT_MS).then(() => 'open' as const),
    nextEvent(element, 'link-exit', ROW_LIMIT_MS).then(() => 'exit' as const),
  ]).catch(() => 'none' as const);
  button.click();
  const outcome = await first;
  const ms = performance.now() - clickAt;
  await element.updateComplete;
  // The element's modal is in a container of its own at the end of <body>: count in the whole page.
  const page = deepElements();
  const state = {
    dialogs: page.filter((e) => e.localName === 'dialog').length,
    frames: page.filter((e) => e.localName === 'iframe').length,
    buttonBusy: button.getAttribute('aria-busy'),
    errorShown: deepElements(element.shadowRoot!).some((e) => e.getAttribute('part') === 'error'),
    open: element.open,
  };
  let closedAfterOpen: string | null = null;
  if (outcome === 'open') {
    const closed = nextEvent<CustomEvent<ExitDetail>>(element, 'link-exit', 5_000);
    element.close();
    closedAfterOpen = (await closed).detail.reason;
  }
  element.remove();
  return { outcome, ms, exit, errors, events, state, closedAfterOpen };
}

/** Resolves once the fake token endpoint has answered the prefetch (polls its call count, bounded). */
async function fetchedOnce(tokenUrl: string): Promise<void> {
  const key = new URL(tokenUrl, location.href).searchParams.get('key');
  for (let i = 0; i < 200; i++) {
    const { calls } = (await (await fetch(`/token/calls?key=${key}`)).json()) as { calls: number };
    if (calls >= 1) return new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the prefetch never reached the token endpoint');
}

window.faults = { run };
