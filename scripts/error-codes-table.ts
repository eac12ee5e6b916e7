// The code table of docs/errors.md, from the codes' own records (src/shared/link-error-codes.ts): written by
// `npm run docs:reference`, checked by its `--check` (npm test).
import { LINK_ERROR_CODES, LINK_PAGE_ERROR_CODES, type ErrorCodeMeaning } from '../src/shared/link-error-codes.js';

/** The docs page that holds the generated table, and its section's name. */
export const ERRORS_PAGE = 'docs/errors.md';
export const ERRORS_SECTION = 'error-codes';

/** A table cell: pipes escaped. */
const cell = (text: string) => text.replaceAll('|', '\\|');

const row = (code: string, from: string, { type, cause, remedy }: ErrorCodeMeaning) =>
  `| \`${code}\` | \`${type}\` | ${from} | ${cell(cause)} | ${cell(remedy)} |`;

/** The Markdown table: the widget's codes, then the Link page's. */
export function errorCodesTable(): string {
  return [
    '| code | type | from | cause | what to do |',
    '| --- | --- | --- | --- | --- |',
    ...Object.entries(LINK_ERROR_CODES).map(([code, meaning]) =>
      row(code, 'linkPageToo' in meaning ? 'widget, Link page' : 'widget', meaning),
    ),
    ...Object.entries(LINK_PAGE_ERROR_CODES).map(([code, meaning]) => row(code, 'Link page', meaning)),
  ].join('\n');
}
