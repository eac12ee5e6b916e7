// The code blocks of the shipped markdown (README.md and docs/*.md), by page and heading, for the
// tests that check them: each snippet is type-checked or built and run as written (see
// docs-snippets.test.ts for the list of which test checks which).
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The markdown files the package ships, relative to the repository: README.md and every page of docs/. */
export async function shippedMarkdown(): Promise<string[]> {
  const pages = (await readdir(`${root}docs`)).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...pages.map((name) => `docs/${name}`)];
}

/** One code block: its language and its text. */
export interface CodeBlock {
  language: string;
  code: string;
}

/**
 * Every fenced block of `page` (a path from the repository's root), keyed `## section` or
 * `## section / ### subsection` by the headings above it.
 */
export async function codeBlocks(page: string): Promise<Map<string, CodeBlock[]>> {
  const text = await readFile(`${root}${page}`, 'utf8');
  const blocks = new Map<string, CodeBlock[]>();
  let section = '';
  let key = '';
  for (const match of text.matchAll(/^(## |### )(.*)$|^```(\w*)\n([\s\S]*?)^```$/gm)) {
    if (match[1] === '## ') key = section = match[2]!;
    else if (match[1] === '### ') key = `${section} / ${match[2]}`;
    else if (match[3] !== undefined) blocks.set(key, [...(blocks.get(key) ?? []), { language: match[3], code: match[4]! }]);
  }
  return blocks;
}

/** The text of `page` under `## heading`, up to the next `## ` heading (its `###` subsections included). */
export async function pageSection(page: string, heading: string): Promise<string> {
  const text = await readFile(`${root}${page}`, 'utf8');
  const section = text.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  assert.ok(section, `${page} has a "## ${heading}" section`);
  return section;
}

/** The first `language` block of `page` under `## heading` (and `### subheading`, when given). */
export async function docsSnippet(page: string, heading: string, language: string, subheading?: string): Promise<string> {
  let section = await pageSection(page, heading);
  if (subheading !== undefined) {
    const sub = section.split(/^### /m).find((part) => part.startsWith(`${subheading}\n`));
    assert.ok(sub, `${page} has "### ${subheading}" under "## ${heading}"`);
    section = sub;
  } else {
    section = section.split(/^### /m)[0]!;
  }
  const block = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```', 'm').exec(section);
  assert.ok(block, `${page}, "${subheading ?? heading}", has a ${language} block`);
  return block[1]!;
}

/**
 * The snippets that make up the app of docs/reading-data.md: [page, section, block, file]. They import each
 * other as the page shows (./payroll-client.js). docs-snippets.test.ts type-checks them, reading-data.test.ts runs them.
 */
export const READING_DATA_SNIPPETS: [page: string, section: string, block: number, file: string][] = [
  ['docs/reading-data.md', 'The client', 0, 'payroll-client.ts'],
  ['docs/reading-data.md', 'The client / Read one account', 0, 'read-account.ts'],
  ['docs/reading-data.md', 'The client / On-demand updates and disconnecting', 0, 'refresh-paystubs.ts'],
  ['docs/reading-data.md', 'Pagination', 0, 'pagination.ts'],
  ['docs/reading-data.md', 'Errors', 0, 'find-account.ts'],
  ['docs/reading-data.md', 'Retries', 0, 'employment-for-page.ts'],
  ['docs/reading-data.md', 'Rate limits', 0, 'rate-limits.ts'],
  ['docs/reading-data.md', 'Rate limits', 1, 'sandbox-account.ts'],
  ['docs/reading-data.md', 'Rate limits / The token handler and your reads, one limiter', 0, 'link-token.ts'],
  ['docs/backend.md', 'Verification reports: `verification_reports.refreshed`', 0, 'webhooks.ts'],
  ['README.md', 'Quick start: read the data', 0, 'readme-read-data.ts'],
];

/**
 * docs/angular.md's snippets, each the first block of its language under its section: [section, language, file in
 * angular/app]. angular.test.ts builds them with the Angular CLI; docs-snippets.test.ts leaves them to it.
 */
export const ANGULAR_SNIPPETS: [section: string, language: string, file: string][] = [
  ['The token route in development: `proxy.conf.json`', 'json', 'proxy.conf.json'],
  ['The element', 'ts', 'src/docs/connect-payroll.component.ts'],
  ['Your own button: `openLink()`', 'ts', 'src/docs/connect-button.component.ts'],
  ['Inline', 'ts', 'src/docs/connect-inline.component.ts'],
  ['Signals', 'ts', 'src/docs/payroll-step.component.ts'],
  ['What `strictTemplates` checks, and what it does not', 'ts', 'src/docs/connect-step.ts'],
];

/**
 * The snippets react-native.test.ts runs in its React Native app (react-native/), each the first `tsx` block of its
 * section: [page, section, subsection or null, file in react-native/, what the app does with it]. The files exist
 * for the test's run only: the docs are their source. docs-snippets.test.ts leaves them to it.
 */
export const REACT_NATIVE_SNIPPETS: [page: string, section: string, subsection: string | null, file: string, why: string][] = [
  ['docs/react-native.md', 'The component', null, 'app/docs/connect-payroll-screen.tsx', "type-checked by a React Native 0.87 app's tsc"],
  [
    'docs/testing.md',
    'The testing kit',
    'React Native: `simulateLaunch()`',
    '__tests__/docs/simulate-launch.test.tsx',
    "run by a React Native 0.87 app's Jest (Testing Library 14) and type-checked by its tsc",
  ],
];

/**
 * docs/nuxt.md's snippets, each the `block`-th of its language under its section: [section, language, block, file in
 * nuxt/site]. The files are the ones each snippet's first line names. nuxt.test.ts type-checks and builds them with
 * Nuxt 4; docs-snippets.test.ts leaves them to it.
 */
export const NUXT_SNIPPETS: [section: string, language: 'ts' | 'vue', block: number, file: string][] = [
  ['Setup: `nuxt.config.ts`', 'ts', 0, 'nuxt.config.ts'],
  ['The element: a client-only plugin', 'ts', 0, 'app/plugins/payroll-link.client.ts'],
  ['The element: a client-only plugin', 'ts', 1, 'app/payroll-link.d.ts'],
  ['The element: a client-only plugin', 'vue', 0, 'app/pages/index.vue'],
  ['Server routes: the token and the webhooks', 'ts', 0, 'server/utils/payroll.ts'],
  ['Server routes: the token and the webhooks', 'ts', 1, 'server/api/link-token.post.ts'],
  ['Server routes: the token and the webhooks', 'ts', 2, 'server/api/webhooks.post.ts'],
  ['Reading the data in a server route', 'ts', 0, 'server/api/accounts/[id].get.ts'],
  ['Typed data: `useFetch`', 'vue', 0, 'app/pages/accounts/[id].vue'],
];

/**
 * docs/testing.md's Playwright Test snippets ("End to end: `linkFlow(page)`"), its ts blocks in order, each the file
 * of the Playwright Test app (playwright/) it is. playwright.test.ts runs them; docs-snippets.test.ts leaves them to it.
 */
export const PLAYWRIGHT_SECTION = 'The testing kit / End to end: `linkFlow(page)`';
export const PLAYWRIGHT_SNIPPETS = ['tests/connect-payroll.spec.ts', 'global-setup.ts', 'playwright.config.ts'] as const;
