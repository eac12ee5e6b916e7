/**
 * Soak page: open/close cycles of `<payroll-link prefetch>` (each after a
 * hover, so the session opens in the Link frame built ahead) and of
 * `openLink()`, run inside the page (no round trip per cycle), ending the
 * session every way a session ends: closed by the host, completed, removed
 * from the DOM, the close control, closed before the frame was ready, a token
 * failure. `?link=` is the fake Link origin.
 */
import { openLink, PayrollLink, type ExitReason } from '../../src/index.js';
import { loadSessionCode } from '../../src/element/load-session.js';
import { deepElements, nextEvent, within } from './wait-for.js';

/** What is left in the page: everything here should be back to its start value after the soak. */
export interface Census {
  frames: number;
  dialogs: number;
  modalHosts: number;
  adoptedSheets: number;
  htmlOverflow: string;
  elements: number;
  elementOpen: boolean;
}

/** What the bench drives. */
export interface SoakApi {
  elementCycles(from: number, count: number): Promise<void>;
  openLinkCycles(from: number, count: number): Promise<void>;
  census(): Census;
  /** Removes the element (what it built ahead goes with it), so a census counts what sessions left behind. */
  detach(): void;
  attach(): void;
}

declare global {
  interface Window {
    soak: SoakApi;
  }
}

const linkOrigin = new URLSearchParams(location.search).get('link') ?? '';
const linkUrl = (scenario: string) => `${linkOrigin}/fake-link.html?scenario=${scenario}`;
const STEP_MS = 10_000;

const holder = document.createElement('div');
document.body.append(holder);
// Constructed from the class: the bench never depends on a bare import keeping the element's registration.
const element = new PayrollLink();
element.tokenUrl = '/token?key=element&plan=ok';
element.prefetch = true;
holder.append(element);

const expect = (what: string, actual: unknown, expected: unknown) => {
  if (actual !== expected) throw new Error(`${what}: expected ${String(expected)}, got ${String(actual)}`);
};
const trigger = () => element.shadowRoot!.querySelector<HTMLButtonElement>('button[part="button"]')!;
// The open modal's: a frame built ahead (the element's, between its sessions) has one too, hidden in its closed dialog.
const closeControl = (root: ParentNode) =>
  deepElements(root).find((e) => e.getAttribute('part') === 'close-button' && e.closest('dialog')?.open) as HTMLButtonElement;

async function elementCycle(i: number): Promise<void> {
  const kind = i % 5;
  element.linkUrl = linkUrl(kind === 1 ? 'success' : 'idle');
  await element.updateComplete;
  // The user's hover: the token and the Link frame are built ahead ("Instant open"), at most one frame at a time.
  element.dispatchEvent(new PointerEvent('pointermove'));
  // The page's first hover loads the session's code and builds the frame once it has come (at once after that).
  await loadSessionCode();
  expect(`element cycle ${i} frames built ahead`, deepElements().filter((e) => e.localName === 'iframe').length, 1);
  const exit = nextEvent<CustomEvent<{ reason: ExitReason }>>(element, 'link-exit', STEP_MS);
  const opened = kind === 4 ? null : nextEvent(element, 'link-open', STEP_MS);
  trigger().click();
  if (kind === 4) element.close(); // Before the token and the frame are there.
  await opened;
  if (kind === 0) element.close();
  if (kind === 2) element.remove(); // Removal mid-flow: the session ends, then the element comes back.
  if (kind === 3) closeControl(document).click();
  const { detail } = await exit;
  expect(
    `element cycle ${i} exit`,
    detail.reason,
    ['closed_by_host', 'completed', 'closed_by_host', 'user_closed', 'closed_by_host'][kind],
  );
  if (kind === 2) holder.append(element);
}

async function openLinkCycle(i: number): Promise<void> {
  const kind = i % 5;
  const link = openLink({
    linkUrl: linkUrl(kind === 1 ? 'success' : 'idle'),
    // Both token sources: the integrator's own fetch (no network) and a token URL.
    ...(kind === 0
      ? { fetchToken: async () => `tok.${crypto.randomUUID()}` }
      : { tokenUrl: `/token?key=openlink&plan=${kind === 4 ? 'invalid' : 'ok'}` }),
  });
  if (kind === 3) link.close();
  else if (kind !== 4) await within(link.ready, STEP_MS, `openLink cycle ${i} ready`);
  if (kind === 0) link.close();
  if (kind === 2) closeControl(document).click();
  const detail = await within(link.closed, STEP_MS, `openLink cycle ${i} closed`);
  expect(`openLink cycle ${i} exit`, detail.reason, ['closed_by_host', 'completed', 'user_closed', 'closed_by_host', 'error'][kind]);
}

async function run(cycle: (i: number) => Promise<void>, from: number, count: number) {
  for (let i = from; i < from + count; i++) await cycle(i);
}

window.soak = {
  elementCycles: (from, count) => run(elementCycle, from, count),
  openLinkCycles: (from, count) => run(openLinkCycle, from, count),
  detach: () => holder.remove(),
  attach: () => document.body.append(holder),
  census() {
    const all = deepElements();
    return {
      frames: all.filter((e) => e.localName === 'iframe').length,
      dialogs: all.filter((e) => e.localName === 'dialog').length,
      modalHosts: document.querySelectorAll('[data-payroll-link-modal]').length,
      adoptedSheets: document.adoptedStyleSheets.length,
      htmlOverflow: getComputedStyle(document.documentElement).overflow,
      elements: document.querySelectorAll('payroll-link').length,
      elementOpen: element.open,
    };
  },
};
