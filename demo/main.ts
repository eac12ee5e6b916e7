import { openLink, type PayrollLink, type PayrollLinkEventName } from '../src/index.js';
import { showAccountData, showReports } from './account-data.js';
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
const reconnectElement = byId<PayrollLink>('reconnect-demo');
reconnectElement.linkUrl = linkUrl;

// The demo's signed-in user (a demo rule: the backend's authorizeAccount trusts this cookie; a real app has a session).
const userSelect = byId<HTMLSelectElement>('demo-user');
const signIn = () => {
  document.cookie = `demo_user=${encodeURIComponent(userSelect.value)}; path=/; SameSite=Strict`;
  element.endUserId = userSelect.value;
};
userSelect.addEventListener('change', signIn);
signIn();

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
  if (detail.reason !== 'completed')
    status.textContent = `Session ended: ${detail.reason.replace('_', ' ')}${detail.error ? ` (${detail.error.code})` : ''}.`;
};

// The same flow, imperatively, behind a button of your own.
const imperative = byId<HTMLButtonElement>('imperative-demo');
imperative.addEventListener('click', async () => {
  imperative.disabled = true;
  const link = openLink({
    linkUrl,
    tokenUrl: '/api/link-token',
    endUserId: userSelect.value,
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

// The account's data, read by the backend with its client: shown after each success, or for the id typed here.
const accountData = byId<HTMLDivElement>('account-data');
const accountIdInput = byId<HTMLInputElement>('account-data-id');
byId<HTMLFormElement>('account-data-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void showAccountData(accountData, accountIdInput.value.trim());
});
const reports = byId<HTMLDivElement>('reports');
byId('refresh-reports').addEventListener('click', async () => {
  // The sandbox's trigger through the backend; the reports show when the webhook it sends arrives.
  const response = await fetch(`/api/end-users/${encodeURIComponent(userSelect.value)}/refresh_reports`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await response.json().catch(() => null)) as { data?: { events?: unknown }; error?: unknown } | null;
  addTimelineEntry(timeline, 'callback', `backend refresh_reports (HTTP ${response.status})`, body?.data ?? body?.error ?? null);
});

// Send a link: a launch for the signed-in user, its URL shown and opened in a phone-sized window.
const createLaunch = byId<HTMLButtonElement>('create-launch');
createLaunch.addEventListener('click', async () => {
  // Opened now, within the click, so that no popup blocker stops it; it goes to the launch's URL once there is one.
  const phone = window.open('', 'payroll-link-launch', 'width=390,height=844');
  createLaunch.disabled = true;
  try {
    const response = await fetch('/api/launches', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const body = (await response.json().catch(() => null)) as {
      data?: { id: string; url: string; expiresAt: string };
      error?: unknown;
    } | null;
    addTimelineEntry(timeline, 'callback', `backend create launch (HTTP ${response.status})`, body?.data ?? body?.error ?? null);
    if (!body?.data) return void phone?.close();
    const { url, expiresAt } = body.data;
    const anchor = byId<HTMLAnchorElement>('launch-url');
    anchor.href = url;
    anchor.textContent = url;
    byId('launch-expires').textContent = `works until ${new Date(expiresAt).toLocaleTimeString()}`;
    byId('launch-link').hidden = false;
    if (phone) {
      phone.opener = null; // the launch page needs nothing of this one
      phone.location.replace(url);
    }
  } finally {
    createLaunch.disabled = false;
  }
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

/** The account's state as the service reports it: connected and monitored, disconnected, or waiting for its user. */
const accountState = (account: Record<string, unknown>): string =>
  account.monitoring_status === 'user_action_required' ? 'needs login' : account.connected === false ? 'disconnected' : 'connected';

/** A control of an account row: Disconnect, Simulate password change (sandbox calls through the backend), Reconnect. */
function accountButton(label: string, account: Record<string, unknown>, action: () => Promise<void>): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'secondary';
  button.textContent = label;
  button.setAttribute('aria-label', `${label} ${String(account.id)}`);
  button.addEventListener('click', () => void action());
  return button;
}

/** Asks the backend's demo route to disconnect the account or require its user to log in again; the answer goes to the timeline. */
async function accountAction(accountId: string, action: 'disconnect' | 'require_reauth') {
  const seen = webhookCount(accountId, MONITORING_EVENT);
  const response = await fetch(`/api/accounts/${accountId}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await response.json().catch(() => null)) as { data?: { account?: unknown }; error?: unknown } | null;
  addTimelineEntry(timeline, 'callback', `backend ${action} (HTTP ${response.status})`, body?.data?.account ?? body?.error ?? null);
  await refreshAccounts();
  if (response.ok) await refreshUntilWebhook(accountId, MONITORING_EVENT, seen);
}

/** The webhook the service sends when an account's state changes (the demo's backend uses the latest version). */
const MONITORING_EVENT = 'account.monitoring_status.updated';

/** Runs the reconnect session for the account in the widget: the same account id, brought back through Link. */
async function reconnect(accountId: string) {
  reconnectSeen = webhookCount(accountId, MONITORING_EVENT);
  reconnectElement.endUserId = userSelect.value;
  reconnectElement.accountId = accountId;
  await reconnectElement.updateComplete;
  await reconnectElement.show();
}
let reconnectSeen = 0;
reconnectElement.onExit = (detail) => {
  status.textContent =
    detail.reason === 'error' ? `Reconnect failed (${detail.error?.code}).` : `Reconnect ended: ${detail.reason.replace('_', ' ')}.`;
  const { accountId } = detail;
  void refreshAccounts().then(async () => {
    if (detail.reason === 'completed' && accountId) await refreshUntilWebhook(accountId, MONITORING_EVENT, reconnectSeen);
    else await refreshWebhooks();
  });
};

async function refreshAccounts(): Promise<Array<Record<string, unknown>>> {
  const list = byId<HTMLUListElement>('accounts');
  try {
    const accounts = await getList('/api/accounts');
    renderRows(
      list,
      accounts.map((a) => [
        String(a.id),
        String(a.platform_name ?? a.employer_name ?? ''),
        String(a.end_user_id ?? 'no end user'),
        accountState(a),
      ]),
      'No accounts yet.',
    );
    accounts.forEach((account, index) => {
      const item = list.children[index]!;
      item.querySelector('span:last-child')!.className = 'state';
      const id = String(account.id);
      item.setAttribute('data-account-id', id);
      item.setAttribute('data-state', accountState(account));
      const actions = document.createElement('div');
      actions.className = 'account-actions';
      if (account.monitoring_status === 'active') {
        actions.append(
          accountButton('Disconnect', account, () => accountAction(id, 'disconnect')),
          accountButton('Simulate password change', account, () => accountAction(id, 'require_reauth')),
        );
      } else {
        actions.append(accountButton('Reconnect', account, () => reconnect(id)));
      }
      item.append(actions);
    });
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

/** After a success, show the account and its data, and wait (bounded) for its `account.added` webhook to arrive. */
async function refreshAfterSuccess(accountId: string) {
  accountIdInput.value = accountId;
  void showAccountData(accountData, accountId);
  await refreshAccounts();
  await refreshUntilWebhook(accountId, 'account.added', 0);
}

/** How many `event` webhooks the list shows for the account. */
function webhookCount(accountId: string, event: string): number {
  const shown = JSON.parse(byId('webhooks').dataset.events ?? '[]') as Array<{ event: string; payload?: { account_id?: unknown } }>;
  return shown.filter((e) => e.event === event && e.payload?.account_id === accountId).length;
}

/** Refreshes the webhooks list until more than `seen` `event` webhooks for the account arrived (bounded): they come a moment after the change. */
async function refreshUntilWebhook(accountId: string, event: string, seen: number) {
  for (let attempt = 0; attempt < 20; attempt++) {
    await refreshWebhooks();
    if (webhookCount(accountId, event) > seen) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Follows the webhooks as they arrive: `GET /api/webhooks?after=N` answers at the next one. Each new batch
 * refreshes the list, and a `verification_reports.refreshed` shows that end user's reports. The events
 * received before the page loaded are only counted.
 */
async function followWebhooks() {
  let after: number | undefined;
  for (;;) {
    try {
      const response = await fetch(`/api/webhooks${after === undefined ? '' : `?after=${after}`}`, {
        headers: { accept: 'application/json' },
      });
      if (!response.ok) throw new Error(`GET /api/webhooks answered ${response.status}`);
      const { data, meta } = (await response.json()) as {
        data: Array<{ event: string; event_id: string; payload?: { end_user_id?: unknown } }>;
        meta: { last_seq: number };
      };
      if (after !== undefined && data.length > 0) {
        void refreshWebhooks();
        const refreshed = data
          .filter((event) => event.event === 'verification_reports.refreshed' && typeof event.payload?.end_user_id === 'string')
          .at(-1);
        if (refreshed) void showReports(reports, refreshed.payload!.end_user_id as string, refreshed.event_id);
      }
      after = meta.last_seq;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 2_000)); // the backend restarting: try again shortly
    }
  }
}

/** Follows the launches' results as the backend's `onResult` gets them (`GET /api/launch-results?after=N`), into the timeline. */
async function followLaunchResults() {
  let after: number | undefined;
  for (;;) {
    try {
      const response = await fetch(`/api/launch-results${after === undefined ? '' : `?after=${after}`}`, {
        headers: { accept: 'application/json' },
      });
      if (!response.ok) throw new Error(`GET /api/launch-results answered ${response.status}`);
      const { data, meta } = (await response.json()) as { data: Array<Record<string, unknown>>; meta: { last_seq: number } };
      if (after !== undefined) {
        for (const { seq: _seq, received_at: _at, ...result } of data) addTimelineEntry(timeline, 'callback', 'backend onResult', result);
        if (data.some((result) => result.status === 'success')) void refreshAccounts();
      }
      after = meta.last_seq;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 2_000)); // the backend restarting: try again shortly
    }
  }
}

void refreshAccounts();
void refreshWebhooks();
void followWebhooks();
void followLaunchResults();
