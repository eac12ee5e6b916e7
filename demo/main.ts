import { openLink, type PayrollLink, type PayrollLinkEventName } from '../src/index.js';
import { addTimelineEntry } from './timeline.js';

const linkUrl = import.meta.env.DEMO_LINK_URL ?? 'http://127.0.0.1:4010/link';

// ?lang=es: the whole session in Spanish. Set before the element's first render (this module runs before
// Lit's first update); the element and openLink() read <html lang> and pass it to the Link page.
const language = new URLSearchParams(location.search).get('lang') === 'es' ? 'es' : 'en';
document.documentElement.lang = language;
document.querySelector(`.languages a[hreflang="${language}"]`)?.setAttribute('aria-current', 'page');

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const timeline = byId<HTMLOListElement>('timeline');
const status = byId<HTMLParagraphElement>('status');
const element = byId<PayrollLink>('element-demo');
element.linkUrl = linkUrl;

// DOM events, heard at document level: they bubble and cross shadow roots.
const EVENTS: PayrollLinkEventName[] = ['link-open', 'link-login', 'link-success', 'link-error', 'link-event', 'link-exit'];
for (const name of EVENTS) {
  document.addEventListener(name, (event) => addTimelineEntry(timeline, 'event', name, event.detail));
}

// Callbacks, on the element: read when they fire.
element.onLogin = (detail) => addTimelineEntry(timeline, 'callback', 'onLogin', detail);
element.onSuccess = (detail) => {
  addTimelineEntry(timeline, 'callback', 'onSuccess', detail);
  status.textContent = `Connected account ${detail.accountId}.`;
  void refreshAfterSuccess(detail.accountId);
};
element.onError = (detail) => addTimelineEntry(timeline, 'callback', 'onError', detail);
element.onExit = (detail) => {
  addTimelineEntry(timeline, 'callback', 'onExit', detail);
  // A short summary for screen readers; the timeline itself is not a live region (it would read out every id).
  if (detail.reason !== 'completed') status.textContent = `Session ended: ${detail.reason.replace('_', ' ')}${detail.error ? ` (${detail.error.code})` : ''}.`;
};

// The same flow, imperatively, behind a button of your own.
const imperative = byId<HTMLButtonElement>('imperative-demo');
imperative.addEventListener('click', async () => {
  imperative.disabled = true;
  const link = openLink({
    linkUrl,
    tokenUrl: '/api/link-token',
    onLogin: (detail) => addTimelineEntry(timeline, 'callback', 'openLink onLogin', detail),
    onSuccess: (detail) => {
      addTimelineEntry(timeline, 'callback', 'openLink onSuccess', detail);
      void refreshAfterSuccess(detail.accountId);
    },
    onError: (detail) => addTimelineEntry(timeline, 'callback', 'openLink onError', detail),
  });
  const exit = await link.closed;
  addTimelineEntry(timeline, 'callback', 'openLink closed', exit);
  imperative.disabled = false;
});

byId('clear-timeline').addEventListener('click', () => timeline.replaceChildren());
byId('refresh-accounts').addEventListener('click', () => void refreshAccounts());
byId('refresh-webhooks').addEventListener('click', () => void refreshWebhooks());

interface Listed {
  data: Array<Record<string, unknown>>;
}

async function getList(path: string): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return ((await response.json()) as Listed).data;
}

function renderRows(list: HTMLElement, rows: string[][], empty: string) {
  if (rows.length === 0) {
    const item = document.createElement('li');
    item.className = 'empty';
    item.textContent = empty;
    list.replaceChildren(item);
    return;
  }
  list.replaceChildren(
    ...rows.map((cells) => {
      const item = document.createElement('li');
      for (const cell of cells) {
        const span = document.createElement('span');
        span.textContent = cell;
        item.append(span);
      }
      return item;
    }),
  );
}

async function refreshAccounts(): Promise<Array<Record<string, unknown>>> {
  const list = byId<HTMLUListElement>('accounts');
  try {
    const accounts = await getList('/api/accounts');
    renderRows(
      list,
      accounts.map((a) => [String(a.id), String(a.platform_name ?? a.employer_name ?? ''), a.connected === false ? 'disconnected' : 'connected']),
      'No accounts yet.',
    );
    list.dataset.ids = accounts.map((a) => a.id).join(' ');
    return accounts;
  } catch (error) {
    renderRows(list, [[`Could not load accounts: ${(error as Error).message}`]], '');
    return [];
  }
}

async function refreshWebhooks(): Promise<Array<Record<string, unknown>>> {
  const list = byId<HTMLUListElement>('webhooks');
  try {
    const events = (await getList('/api/webhooks')).slice().reverse();
    renderRows(
      list,
      events.map((e) => {
        const payload = (e.payload ?? {}) as Record<string, unknown>;
        return [String(e.event), String(payload.account_id ?? payload.end_user_id ?? ''), String(payload.link_token_id ?? '')];
      }),
      'No webhooks yet.',
    );
    list.dataset.events = JSON.stringify(events.map((e) => ({ event: e.event, payload: e.payload })));
    return events;
  } catch (error) {
    renderRows(list, [[`Could not load webhooks: ${(error as Error).message}`]], '');
    return [];
  }
}

/** After a success, show the account and wait (bounded) for its `account.added` webhook to arrive. */
async function refreshAfterSuccess(accountId: string) {
  await refreshAccounts();
  for (let attempt = 0; attempt < 20; attempt++) {
    const events = await refreshWebhooks();
    if (events.some((e) => e.event === 'account.added' && (e.payload as Record<string, unknown>)?.account_id === accountId)) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

void refreshAccounts();
void refreshWebhooks();
