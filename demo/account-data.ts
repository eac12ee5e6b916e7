/**
 * What the demo page shows of a connected account, as the backend read it
 * with `createPayrollClient` (the page never holds the secret): its employment,
 * income and latest paystubs, and the end user's VOE/VOIE reports. Built with
 * DOM calls and `textContent` only: the data comes from outside.
 */

type Fields = Record<string, unknown>;

/** The backend's error body (the service's shape), or null. */
interface ErrorAnswer {
  error?: { message?: string; error_codes?: Array<{ error_code?: string }> };
}

/** A labelled value: `[label, field, format?]`; fields the answer lacks are left out. */
type Row = [label: string, field: string, format?: 'money' | 'text'];

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) => {
  const element = document.createElement(tag);
  if (text !== undefined) element.textContent = text;
  if (className) element.className = className;
  return element;
};

/** Money in minor units (cents) with its currency, as the sandbox gives it. */
function money(value: unknown, currency: unknown): string {
  if (typeof value !== 'number') return String(value ?? '');
  const code = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : 'USD';
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).format(value / 100);
}

/** A definition list of the rows the record has. */
function fieldList(record: Fields, rows: Row[]): HTMLDListElement {
  const list = el('dl', undefined, 'fields');
  for (const [label, field, format] of rows) {
    if (record[field] === undefined || record[field] === null) continue;
    list.append(el('dt', label), el('dd', format === 'money' ? money(record[field], record.currency) : String(record[field])));
  }
  return list;
}

/** A titled block of the card, with a `data-part` the tests find it by. */
function part(name: string, title: string, ...content: Node[]): HTMLElement {
  const section = el('section', undefined, 'data-part');
  section.dataset.part = name;
  section.append(el('h3', title), ...content);
  return section;
}

/** A table of records: one column per row definition. */
function table(records: Fields[], rows: Row[], empty: string): HTMLElement {
  if (records.length === 0) return el('p', empty, 'empty');
  const wrapper = el('div', undefined, 'table-scroll');
  const grid = el('table', undefined, 'credentials');
  const head = el('tr');
  for (const [label] of rows) head.append(Object.assign(el('th', label), { scope: 'col' }));
  const body = el('tbody');
  for (const record of records) {
    const line = el('tr');
    if (typeof record.id === 'string') line.dataset.id = record.id;
    for (const [, field, format] of rows)
      line.append(el('td', format === 'money' ? money(record[field], record.currency) : String(record[field] ?? '')));
    body.append(line);
  }
  const thead = el('thead');
  thead.append(head);
  grid.append(thead, body);
  wrapper.append(grid);
  return wrapper;
}

const EMPLOYMENT: Row[] = [
  ['Employer', 'employer_name'],
  ['Job title', 'job_title'],
  ['Status', 'status'],
  ['Since', 'start_date'],
];
const INCOME: Row[] = [
  ['Pay frequency', 'pay_frequency'],
  ['Annual gross', 'annual_gross_pay', 'money'],
  ['Gross this year', 'ytd_gross_pay', 'money'],
  ['Net this year', 'ytd_net_pay', 'money'],
  ['Last paid', 'last_pay_date'],
];
const PAYSTUB: Row[] = [
  ['Pay date', 'pay_date'],
  ['Period start', 'period_start'],
  ['Period end', 'period_end'],
  ['Gross', 'gross_pay', 'money'],
  ['Net', 'net_pay', 'money'],
];

/**
 * GETs a backend route and returns `data`; on failure, throws an Error whose message is the
 * backend's own (a bad id, an unknown account: it says which) and whose `code` its error code.
 */
async function read(path: string): Promise<Fields> {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  const body = (await response.json().catch(() => null)) as ({ data?: Fields } & ErrorAnswer) | null;
  if (response.ok && body?.data) return body.data;
  const code = body?.error?.error_codes?.[0]?.error_code ?? `HTTP_${response.status}`;
  throw Object.assign(new Error(body?.error?.message ?? `The backend answered ${response.status}.`), { code });
}

/** Shows `message` as the card's error, in an alert the screen reader announces. */
function showError(container: HTMLElement, message: string, code: string): void {
  container.dataset.state = 'error';
  container.dataset.errorCode = code;
  const alert = el('p', message, 'error');
  alert.setAttribute('role', 'alert');
  container.replaceChildren(alert);
}

/** Requests still wanted per container: an answer that comes after a newer request was made is dropped. */
const latest = new WeakMap<HTMLElement, number>();
const begin = (container: HTMLElement) => {
  const ticket = (latest.get(container) ?? 0) + 1;
  latest.set(container, ticket);
  container.dataset.state = 'loading';
  return () => latest.get(container) === ticket;
};

/** Reads the account's summary through the backend and shows it in `container` (`data-state` says loading, loaded or error). */
export async function showAccountData(container: HTMLElement, accountId: string): Promise<void> {
  const current = begin(container);
  container.dataset.accountId = accountId;
  if (accountId === '') return showError(container, 'Enter an account id, like the accountId of onSuccess.', 'EMPTY');
  try {
    const data = await read(`/api/accounts/${encodeURIComponent(accountId)}/summary`);
    if (!current()) return;
    const paystubs = Array.isArray(data.paystubs) ? (data.paystubs as Fields[]) : [];
    container.replaceChildren(
      part('employment', 'Employment', fieldList((data.employment ?? {}) as Fields, EMPLOYMENT)),
      part('income', 'Income', fieldList((data.income ?? {}) as Fields, INCOME)),
      part('paystubs', 'Latest paystubs', table(paystubs, PAYSTUB, 'No paystubs: a time-and-attendance account has shifts instead.')),
    );
    container.dataset.state = 'loaded';
  } catch (error) {
    if (current())
      showError(
        container,
        `Could not read account ${accountId}: ${(error as Error).message}`,
        (error as { code?: string }).code ?? 'ERROR',
      );
  }
}

/** Reads the end user's VOE and VOIE reports through the backend, after the webhook `eventId` said they were refreshed. */
export async function showReports(container: HTMLElement, endUserId: string, eventId: string): Promise<void> {
  const current = begin(container);
  container.dataset.endUserId = endUserId;
  container.dataset.eventId = eventId;
  try {
    const data = await read(`/api/end-users/${encodeURIComponent(endUserId)}/verification-reports`);
    if (!current()) return;
    const report = (name: string, title: string, value: unknown, content: (report: Fields) => Node[]) => {
      if (!value || typeof value !== 'object')
        return part(name, title, el('p', `Unavailable: the ${name.toUpperCase()} report needs a payroll account.`, 'empty'));
      const fields = value as Fields;
      return part(name, `${title} (generated ${String(fields.generated_at ?? '')})`, ...content(fields));
    };
    const employments = (fields: Fields) => (Array.isArray(fields.employments) ? (fields.employments as Fields[]) : []);
    container.replaceChildren(
      el('p', `For end user ${endUserId}.`, 'hint'),
      report('voe', 'Verification of employment', data.voe, (voe) => [table(employments(voe), EMPLOYMENT, 'No employments.')]),
      report('voie', 'Verification of income and employment', data.voie, (voie) => [
        table(employments(voie), EMPLOYMENT, 'No employments.'),
        table(Array.isArray(voie.incomes) ? (voie.incomes as Fields[]) : [], INCOME, 'No incomes.'),
      ]),
    );
    container.dataset.state = 'loaded';
  } catch (error) {
    if (current())
      showError(
        container,
        `Could not read the reports of ${endUserId}: ${(error as Error).message}`,
        (error as { code?: string }).code ?? 'ERROR',
      );
  }
}
