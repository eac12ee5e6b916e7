// The method table of docs/reading-data.md, generated from PAYROLL_API_ENDPOINTS (src/server/client/payroll-api-endpoints.ts):
// one row per endpoint, its method's arguments, its path, what it resolves with and whether it is sent again after a
// failure that may have reached the service. scripts/docs-reference.ts writes it (and with --check, compares it).
import * as z from 'zod';
import { LinkTokenSchema } from '../src/protocol.js';
import { endpointList, type PayrollApiEndpoint } from '../src/server/client/payroll-api-endpoints.js';
import * as resources from '../src/server/client/resource-schemas.js';

/** The docs page that holds the generated method table. */
export const ENDPOINTS_PAGE = 'docs/reading-data.md';

/**
 * What the page says of an endpoint beside its path, where the row alone does not say enough. Kept here, not in the
 * table: the table ships in every server bundle of the client, and this prose would cost it bytes for nothing.
 */
const NOTES: Record<string, string> = {
  'linkTokens.create':
    "the body of the client's `version` (the other version's fields are refused before sending); `createLinkTokenHandler` does this for you",
  'employers.list': 'without `/v1`, as the spec writes it',
  'accounts.disconnect':
    'no more recurring access; the data stays readable. The spec does not show the answer: resolves with the account when the service sends it, or with an empty `NoContent` (only `response`) when it answers without a body (204)',
  'accounts.paystubs': 'payroll platforms',
  'accounts.shifts': 'time-and-attendance platforms',
  'verificationReports.voe': 'any non-empty id, encoded as one path segment',
  'verificationReports.voie': 'any non-empty id, encoded as one path segment',
};

/**
 * The type an endpoint's answer is named by (`AccountSchema`: `Account`); a schema written in its row, with no name of
 * its own in resource-schemas.ts, by where it is (`PAYROLL_API_ENDPOINTS.accounts.deductions.answer`).
 */
function resourceName(name: string, schema: PayrollApiEndpoint['answer']): string {
  if (schema === LinkTokenSchema) return 'LinkToken';
  const found = Object.entries(resources).find(([, value]) => value === schema)?.[0];
  return found?.replace(/Schema$/, '') ?? `PAYROLL_API_ENDPOINTS.${name}.answer`;
}

/** `{ name, … }`: an object schema's fields, optional ones with `?`, a loose one ending in `…`. */
function fieldsOf(schema: z.ZodType, pageLast: boolean): string {
  if (!(schema instanceof z.ZodObject)) return 'body';
  const keys = Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => ({
    key,
    text: field.safeParse(undefined).success ? `${key}?` : key,
  }));
  if (pageLast) keys.sort((a, b) => Number(['limit', 'cursor'].includes(a.key)) - Number(['limit', 'cursor'].includes(b.key)));
  const loose = schema.def.catchall !== undefined && !(schema.def.catchall instanceof z.ZodNever);
  return `{ ${[...keys.map((entry) => entry.text), ...(loose ? ['…'] : [])].join(', ')} }`;
}

/** The call as a reader writes it: `paystubs(id, { limit?, cursor? })`. */
function callOf(method: string, endpoint: PayrollApiEndpoint): string {
  const args = [
    ...Object.keys(endpoint.pathParams ?? {}),
    ...(endpoint.query ? [fieldsOf(endpoint.query, true)] : []),
    ...(endpoint.body ? [fieldsOf(endpoint.body as z.ZodType, false)] : []),
  ];
  return `${method}(${args.join(', ')})`;
}

const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');

/** The Markdown table of every endpoint of the table. */
export function endpointTable(): string {
  const rows = endpointList().map(({ name, endpoint }) => {
    const [group, method] = name.split('.') as [string, string];
    const item = `\`${resourceName(name, endpoint.answer)}\``;
    const answer =
      endpoint.returns === 'list' ? `a \`PayrollList\` of ${item}` : endpoint.returns === 'one' ? item : `${item}, or \`NoContent\``;
    const note = NOTES[name];
    const path = `\`${endpoint.method} ${endpoint.path}\`${note ? `: ${note}` : ''}`;
    return [`\`${group}\``, `\`${callOf(method, endpoint)}\``, cell(path), answer, endpoint.retryAfterSend ? 'yes' : 'no'];
  });
  const head = ['Group', 'Method', 'Endpoint', 'Resolves with', 'Sent again after a failure that may have reached the service'];
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}
