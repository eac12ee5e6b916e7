// The size check of `npm test` (after build:package): gzip sizes of what users ship, against budgets.
// (a) the element with its dependencies, as `import 'payroll-link'` puts it in an app bundle;
// (b) `openLink` alone from `payroll-link/core`, which must not contain Lit;
// (c) dist/payroll-link.bundled.js as published.
// `--write-readme` also writes the figures into the README's "sizes" section.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { updateReadmeSection } from './readme-section.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Budgets in gzip bytes: what was reached plus about 3 %. The first
 * budgets (14 / 6 / 14 KB) are out of reach while the wire contract is checked
 * with zod/mini: zod alone is about 9 KB of (a), (b) and (c), and a bare
 * `z.object({ a: z.string() })` already 4.4 KB (see the README).
 */
const BUDGETS = {
  // Reset to what was reached +3 % after the widget's English and Spanish words (#15, about 0.3 KB) and
  // reconnect (#16, about 0.1 KB: account_id in the token request, the account check on login).
  element: 22_800,
  core: 14_850,
  bundled: 23_200,
};

/** One measured figure. */
interface Figure {
  name: string;
  what: string;
  gzip: number;
  budget: number;
}

/** Bundles `contents` as an app would (minified, tree-shaken, production conditions); returns the code and its inputs. */
async function bundle(contents: string): Promise<{ code: Uint8Array; inputs: string[] }> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0]!.contents, inputs: Object.keys(result.metafile.inputs) };
}

const gzip = (code: Uint8Array | string) => gzipSync(code, { level: 9 }).length;
const isLit = (input: string) => /node_modules\/(lit|lit-html|lit-element|@lit)\//.test(input);

async function measure(): Promise<{ figures: Figure[]; problems: string[] }> {
  const problems: string[] = [];

  const element = await bundle(`import './dist/index.js';`);
  const elementCode = new TextDecoder().decode(element.code);
  // A bare import must keep the registration: `sideEffects` in package.json decides that for bundlers.
  if (!elementCode.includes('"payroll-link"') || !element.inputs.some(isLit)) {
    problems.push("(a) `import 'payroll-link'` lost the element's registration: check sideEffects in package.json.");
  }

  const core = await bundle(`export { openLink } from './dist/core/index.js';`);
  const litInCore = core.inputs.filter(isLit);
  if (litInCore.length > 0) problems.push(`(b) payroll-link/core pulls in Lit: ${litInCore.join(', ')}`);

  const bundled = await readFile(`${root}dist/payroll-link.bundled.js`, 'utf8');
  if (bundled.includes('Lit is in dev mode')) problems.push('(c) the bundled file carries Lit in development mode.');
  if (/(?:^|[;}\s])import\s*(?:[\w*{][^;]*?\bfrom\s*)?["']/.test(bundled)) problems.push('(c) the bundled file imports other modules.');

  const figures: Figure[] = [
    { name: '(a) element', what: "`import 'payroll-link'` (element, `openLink`, Lit, zod/mini)", gzip: gzip(element.code), budget: BUDGETS.element },
    { name: '(b) core', what: "`import { openLink } from 'payroll-link/core'` (no Lit)", gzip: gzip(core.code), budget: BUDGETS.core },
    { name: '(c) bundled', what: '`dist/payroll-link.bundled.js` (everything, one file)', gzip: gzip(bundled), budget: BUDGETS.bundled },
  ];
  for (const figure of figures) {
    if (figure.gzip > figure.budget) problems.push(`${figure.name}: ${kb(figure.gzip)} gzip is over its budget of ${kb(figure.budget)}.`);
  }
  return { figures, problems };
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** The figures as a Markdown table, for the console and the README. */
export function sizeTable(figures: Figure[]): string {
  const rows = figures.map((f) => `| ${f.name} | ${f.what} | ${kb(f.gzip)} | ${kb(f.budget)} |`);
  return ['| | what | gzip | budget |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

const { figures, problems } = await measure();
console.log(sizeTable(figures));
if (process.argv.includes('--write-readme')) {
  await updateReadmeSection(`${root}README.md`, 'sizes', sizeTable(figures), false);
  console.log('README.md: sizes written');
}
if (problems.length > 0) {
  for (const problem of problems) console.error(`size check: ${problem}`);
  process.exit(1);
}
