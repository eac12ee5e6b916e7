// Writes the element reference of docs/reference.md (attributes, properties, methods, events, slots, parts,
// CSS properties) from dist/custom-elements.json, which build:package generates from the element's
// doc comments, the code table of docs/errors.md from the codes' records (scripts/error-codes-table.ts), and the
// method table of docs/reading-data.md from PAYROLL_API_ENDPOINTS (docs-endpoints.ts).
// `--check` writes nothing and fails when a page is stale (part of npm test).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { endpointTable, ENDPOINTS_PAGE } from './docs-endpoints.js';
import { ERRORS_PAGE, ERRORS_SECTION, errorCodesTable } from './error-codes-table.js';
import { updateMarkdownSection } from './markdown-section.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The docs page that holds the generated reference. */
export const REFERENCE_PAGE = 'docs/reference.md';

/** The parts of a custom elements manifest the reference shows. */
const TypeSchema = z.object({ text: z.string() });
const NamedSchema = z.object({ name: z.string(), description: z.string().optional() });
const MemberSchema = NamedSchema.extend({
  kind: z.enum(['field', 'method']),
  privacy: z.string().optional(),
  static: z.boolean().optional(),
  type: TypeSchema.optional(),
  default: z.string().optional(),
  attribute: z.string().optional(),
  reflects: z.boolean().optional(),
  return: z.object({ type: TypeSchema.optional() }).optional(),
});
const ElementSchema = NamedSchema.extend({
  tagName: z.string(),
  summary: z.string().optional(),
  members: z.array(MemberSchema).default([]),
  events: z.array(NamedSchema.extend({ type: TypeSchema.optional() })).default([]),
  slots: z.array(NamedSchema).default([]),
  cssParts: z.array(NamedSchema).default([]),
  cssProperties: z.array(NamedSchema.extend({ default: z.string().optional() })).default([]),
});
const ManifestSchema = z.object({
  modules: z.array(z.object({ declarations: z.array(z.looseObject({ tagName: z.string().optional() })).default([]) })),
});

type Element = z.infer<typeof ElementSchema>;

/** A table cell: one line, pipes escaped. */
const cell = (text: string | undefined) =>
  (text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replaceAll('|', '\\|')
    .trim();
const code = (text: string | undefined) => (text ? `\`${cell(text)}\`` : '');

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** The Markdown reference of one element. */
export function referenceOf(element: Element): string {
  const publicMembers = element.members.filter((m) => (m.privacy ?? 'public') === 'public' && !m.static);
  const fields = publicMembers.filter((m) => m.kind === 'field');
  const methods = publicMembers.filter((m) => m.kind === 'method');
  const detailOf = (type: string | undefined) => type?.match(/^CustomEvent<(.+)>$/)?.[1] ?? type;
  return [
    `### \`<${element.tagName}>\``,
    cell(element.summary),
    '#### Attributes and properties',
    table(
      ['Attribute', 'Property', 'Type', 'Default', 'Description'],
      fields.map((f) => [
        f.attribute ? code(f.attribute) + (f.reflects ? ' (reflected)' : '') : '(property only)',
        code(f.name),
        code(f.type?.text),
        code(f.default),
        cell(f.description),
      ]),
    ),
    '#### Methods',
    table(
      ['Method', 'Returns', 'Description'],
      methods.map((m) => [code(`${m.name}()`), code(m.return?.type?.text), cell(m.description)]),
    ),
    '#### Events',
    'All bubble and are composed (they cross shadow roots), so a listener on `document` hears them.',
    table(
      ['Event', '`detail`', 'Description'],
      element.events.map((e) => [code(e.name), code(detailOf(e.type?.text)), cell(e.description)]),
    ),
    '#### Slots',
    table(
      ['Slot', 'Description'],
      element.slots.map((s) => [s.name ? code(s.name) : '(default)', cell(s.description)]),
    ),
    '#### CSS parts (`::part()`)',
    table(
      ['Part', 'Description'],
      element.cssParts.map((p) => [code(p.name), cell(p.description)]),
    ),
    '#### CSS custom properties',
    table(
      ['Property', 'Description'],
      element.cssProperties.map((p) => [code(p.name), cell(p.description)]),
    ),
  ].join('\n\n');
}

/** The reference of every custom element in the manifest at `path`. */
export async function referenceFromManifest(path: string): Promise<string> {
  const manifest = ManifestSchema.parse(JSON.parse(await readFile(path, 'utf8')));
  const elements = manifest.modules.flatMap((m) => m.declarations.filter((d) => d.tagName)).map((d) => ElementSchema.parse(d));
  if (elements.length === 0) throw new Error(`${path} describes no custom element.`);
  return elements.map(referenceOf).join('\n\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  const pages = [
    // The first two need no build.
    { page: ENDPOINTS_PAGE, section: 'endpoints', what: 'the method table', content: async () => endpointTable(), build: '' },
    { page: ERRORS_PAGE, section: ERRORS_SECTION, what: 'the error code table', content: async () => errorCodesTable(), build: '' },
    {
      page: REFERENCE_PAGE,
      section: 'reference',
      what: 'the element reference',
      content: () => referenceFromManifest(`${root}dist/custom-elements.json`),
      build: 'npm run build:package && ',
    },
  ];
  let stale = false;
  for (const { page, section, what, content, build } of pages) {
    if (await updateMarkdownSection(`${root}${page}`, section, await content(), check)) {
      console.log(check ? `${page}: ${what} is up to date.` : `${page}: ${what} written.`);
    } else {
      console.error(`${page}: ${what} is stale. Run \`${build}npm run docs:reference\` and commit ${page}.`);
      stale = true;
    }
  }
  if (stale) process.exit(1);
}
