import { executeServerCommand } from '@web/test-runner-commands';
import type { PayrollLinkEventName } from '../../src/index.js';

let linkOrigin: string | undefined;

/** The fake Link page (second origin) running `scenario`. */
export async function fakeLinkUrl(scenario = 'success'): Promise<string> {
  linkOrigin ??= (await executeServerCommand('fake-link-origin')) as string;
  return `${linkOrigin}/fake-link.html?scenario=${scenario}`;
}

/** A fake token endpoint for one test: `plan` scripts its answers (see fake-servers.mjs). */
export function fakeTokenUrl(plan = 'ok'): { url: string; calls: () => Promise<Array<{ method: string; contentType: string; body: string }>> } {
  const key = crypto.randomUUID();
  return {
    url: `/fake-token?key=${key}&plan=${plan}`,
    calls: async () => (await fetch(`/fake-token/calls?key=${key}`)).json(),
  };
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

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
