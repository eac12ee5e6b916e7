import { executeServerCommand } from '@web/test-runner-commands';
import type { PayrollLinkEventName } from '../../src/index.js';

let linkOrigin: string | undefined;

/** The fake Link page (second origin) running `scenario`. */
export async function fakeLinkUrl(scenario = 'success'): Promise<string> {
  linkOrigin ??= (await executeServerCommand('fake-link-origin')) as string;
  return `${linkOrigin}/fake-link.html?scenario=${scenario}`;
}

/** A call the fake token endpoint saw: what was sent, when it arrived (ms since the epoch), and whether a `hang` was given up on. */
export interface FakeTokenCall {
  method: string;
  contentType: string;
  body: string;
  cookie: string;
  at: number;
  aborted?: true;
}

/** A fake token endpoint for one test: `plan` scripts its answers (see fake-servers.mjs). */
export function fakeTokenUrl(plan = 'ok'): { url: string; calls: () => Promise<FakeTokenCall[]>; key: string } {
  const key = crypto.randomUUID();
  return {
    url: `/fake-token?key=${key}&plan=${plan}`,
    calls: async () => (await fetch(`/fake-token/calls?key=${key}`)).json(),
    key,
  };
}

/**
 * Waits until the fake endpoint's calls pass `check` (a fetch ahead runs in the background): the
 * endpoint answers each wait when its calls change, so this waits for the change itself, never for
 * a time. A check that never passes fails the test at mocha's timeout.
 */
export async function untilCalls(token: ReturnType<typeof fakeTokenUrl>, check: number | ((calls: FakeTokenCall[]) => boolean)) {
  const passes = typeof check === 'number' ? (calls: FakeTokenCall[]) => calls.length >= check : check;
  for (let after = -1; ;) {
    const seen: { changes: number; calls: FakeTokenCall[] } = await (
      await fetch(`/fake-token/changes?key=${token.key}&after=${after}`)
    ).json();
    if (passes(seen.calls)) return;
    after = seen.changes;
  }
}

/** A loopback URL nothing listens on: connecting to it is refused. */
export async function refusedUrl(): Promise<string> {
  return `http://127.0.0.1:${await executeServerCommand('closed-port')}/link-token`;
}

const EVENTS: PayrollLinkEventName[] = ['link-open', 'link-login', 'link-success', 'link-error', 'link-exit', 'link-event'];

/** Records every `link-*` event reaching `target`, in order. */
export function recordEvents(target: EventTarget = document) {
  const seen: Array<{ type: string; detail: any }> = [];
  const listener = (event: Event) => seen.push({ type: event.type, detail: (event as CustomEvent).detail });
  for (const name of EVENTS) target.addEventListener(name, listener);
  return {
    seen,
    types: () => seen.filter((e) => e.type !== 'link-event').map((e) => e.type),
    of: (type: string) => seen.filter((e) => e.type === type),
    stop: () => EVENTS.forEach((name) => target.removeEventListener(name, listener)),
  };
}

/** Every iframe and dialog in the document, shadow roots included. */
export function deepQueryAll(selector: string, root: ParentNode = document): Element[] {
  const found = [...root.querySelectorAll(selector)];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) found.push(...deepQueryAll(selector, el.shadowRoot));
  return found;
}

/** The shadow root of the Link modal's own container at the end of `<body>`, once a flow has opened. */
export function modalRoot(): ShadowRoot {
  const container = document.querySelector('[data-payroll-link-modal]');
  if (!container?.shadowRoot) throw new Error('no Link modal in <body>');
  return container.shadowRoot;
}

/** Resolves after the next rendering update, when intersection observers have been told what changed. */
export async function afterRendering(): Promise<void> {
  // The first frame applies the change and queues the observers' task; by the second, that task has run.
  for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
