// Every TypeScript and JavaScript snippet of the shipped markdown (README.md and docs/*.md)
// type-checks as written, under `strict`, against the packed package's declarations (and the
// frameworks' own types: React, Vite, Express and morgan, Fastify, Hono, Node). A JavaScript snippet is checked
// as TypeScript, because that is where users paste it (a default Vite TypeScript project). What a
// snippet leaves to the reader (`save()`, `button`, `currentUser`, `getToken()`, `saveAccount()`, `navigate()`) is
// declared, and nothing else. Snippets that their own toolchains build are listed with the test that
// does it; a new snippet that is in neither list fails here. Needs install-toolchains.ts and
// install-packed.ts first.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  ANGULAR_SNIPPETS,
  codeBlocks,
  NUXT_SNIPPETS,
  PLAYWRIGHT_SECTION,
  PLAYWRIGHT_SNIPPETS,
  READING_DATA_SNIPPETS,
  REACT_NATIVE_SNIPPETS,
  shippedMarkdown,
  type CodeBlock,
} from './docs-snippet.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Inside servers/, so that Express, Fastify and Hono (and their types) resolve as in an app. */
const dir = fileURLToPath(new URL('./servers/docs-snippets/', import.meta.url));

/** Where each checked snippet goes: page, `## section` (and ` / ### subsection`), the n-th ts/tsx/js block there. */
const CHECKED: [page: string, section: string, block: number, file: string][] = [
  ['README.md', 'Quick start: React and Next.js', 0, 'readme-react.tsx'],
  ['README.md', 'Quick start: the backend', 0, 'readme-route.ts'],
  ['docs/getting-started.md', '3. Mint tokens on your server, open Link on your page', 0, 'getting-started-payroll.ts'],
  ['docs/esm.md', 'ESM and bundlers (Vite, webpack, esbuild, Rollup)', 0, 'esm-element.ts'],
  ['docs/esm.md', 'ESM and bundlers (Vite, webpack, esbuild, Rollup)', 1, 'esm-core.ts'],
  ['docs/esm.md', 'ESM and bundlers (Vite, webpack, esbuild, Rollup)', 2, 'esm-prepare.ts'],
  ['docs/react.md', 'React 18 (and 19): `payroll-link/react`', 0, 'react-wrapper.tsx'],
  ['docs/react.md', 'React 19: the bare element', 0, 'react-19-env.d.ts'],
  ['docs/react.md', 'React 19: the bare element', 1, 'react-19-bare.tsx'],
  ['docs/react.md', 'React 19: the bare element', 2, 'react-19-fetch-token.tsx'],
  ['docs/pinwheel.md', 'The same component, both ways', 0, 'pinwheel-after.tsx'],
  ['docs/vue.md', 'Vue 3', 0, 'vite.config.ts'],
  ['docs/svelte.md', 'Svelte 5', 0, 'svelte-env.d.ts'],
  ['docs/svelte.md', 'SvelteKit', 0, 'src/lib/server/payroll.ts'],
  ['docs/svelte.md', 'SvelteKit', 1, 'src/routes/api/link-token/+server.ts'],
  ['docs/svelte.md', 'SvelteKit', 2, 'src/routes/api/webhooks/+server.ts'],
  ['docs/backend.md', 'Your backend: `payroll-link/server`', 0, 'payroll.ts'],
  ['docs/backend.md', 'Your backend: `payroll-link/server` / node:http', 0, 'node-http.ts'],
  ['docs/backend.md', 'Your backend: `payroll-link/server` / Express 4 and 5', 0, 'express.ts'],
  ['docs/backend.md', 'Your backend: `payroll-link/server` / Fastify 5', 0, 'fastify.ts'],
  ['docs/backend.md', 'Your backend: `payroll-link/server` / Hono', 0, 'hono.ts'],
  ['docs/backend.md', 'Your backend: `payroll-link/server` / Next.js route handlers', 0, 'app/api/link-token/route.ts'],
  ['docs/backend.md', 'Logs: the `log` option', 0, 'quiet-log.ts'],
  ...READING_DATA_SNIPPETS,
  // redis's types resolve from the repository's node_modules.
  ['docs/reading-data.md', 'Several instances', 0, 'reading-data-redis.ts'],
  ['docs/sandbox.md', 'From code (tests, demo, example backend)', 0, 'sandbox-from-code.ts'],
  ['docs/sandbox.md', "Only what the spec promises (`fields: 'spec'`)", 0, 'sandbox-spec-fields.ts'],
  ['docs/session.md', 'After a success: navigate on `link-exit`', 0, 'session-navigate-on-exit.ts'],
  ['docs/inline.md', 'The element: `display="inline"`', 0, 'inline-element.ts'],
  ['docs/inline.md', '`openLink()` and `prepareLink()`', 0, 'inline-open-link.ts'],
  // launches.ts imports the client of docs/reading-data.md (payroll-client.ts, above).
  ['docs/native-apps.md', 'The server: `createLinkLaunches`', 0, 'launches.ts'],
  ['docs/native-apps.md', 'The server: `createLinkLaunches`', 1, 'launch-webhooks.ts'],
  ['docs/native-apps.md', 'The server: `createLinkLaunches`', 2, 'payroll-launch-route.ts'],
  ['docs/native-apps.md', 'The server: `createLinkLaunches` / Mounting `handle()`', 0, 'launches-node-http.ts'],
  ['docs/native-apps.md', 'The server: `createLinkLaunches` / Mounting `handle()`', 1, 'launches-express.ts'],
  ['docs/native-apps.md', 'The server: `createLinkLaunches` / Mounting `handle()`', 2, 'launches-hono.ts'],
  ['docs/native-apps.md', 'The server: `createLinkLaunches` / Mounting `handle()`', 3, 'app/link/[...launch]/route.ts'],
  // morgan's types are servers/'s, as Express's are; both import the docs' launches.ts and payroll-client.ts (above).
  ['docs/security.md', 'Launches: native apps and links you send / Keep launch URLs out of access logs', 0, 'launches-access-log.ts'],
  ['docs/security.md', 'Launches: native apps and links you send / Whose payroll account it is', 0, 'applicant-employer.ts'],
];

/** Snippets checked elsewhere, by the toolchain they are written for (.vue and .svelte blocks are not ts: apps.test.ts and svelte.test.ts). */
const ELSEWHERE: [page: string, section: string, block: number, why: string][] = [
  ...ANGULAR_SNIPPETS.filter(([, language]) => language === 'ts').map(([section, , file]): [string, string, number, string] => [
    'docs/angular.md',
    section,
    0,
    `${file}: built by the Angular 22 CLI with strict templates in angular.test.ts`,
  ]),
  ...NUXT_SNIPPETS.filter(([, language]) => language === 'ts').map(([section, , block, file]): [string, string, number, string] => [
    'docs/nuxt.md',
    section,
    block,
    `${file}: type-checked by nuxi typecheck and built by nuxt build in nuxt.test.ts`,
  ]),
  ...REACT_NATIVE_SNIPPETS.map(([page, section, subsection, file, why]): [string, string, number, string] => [
    page,
    subsection === null ? section : `${section} / ${subsection}`,
    0,
    `${file}: ${why} in react-native.test.ts`,
  ]),
  [
    'docs/react-native.md',
    'Testing with Jest',
    0,
    "its transformIgnorePatterns is the React Native app's jest.config.js's, compared in react-native.test.ts",
  ],
  ['docs/nextjs.md', 'Next.js (App Router)', 0, 'built by next build in frameworks.test.ts'],
  ['docs/nextjs.md', 'Next.js (App Router)', 1, "its import is in the Next app's layout.tsx, built by next build in frameworks.test.ts"],
  ['docs/inline.md', 'Server-rendered pages', 0, "the same import, built by next build in frameworks.test.ts (the docs' Next.js layout)"],
  [
    'docs/nextjs.md',
    "Keep the webhook secret out of `next dev`'s log",
    0,
    'next.config.mjs: next build reads it, and must not call it invalid, in server-in-browser.test.ts',
  ],
  [
    'docs/edge.md',
    'Cloudflare Workers',
    0,
    'type-checked against @cloudflare/workers-types and run as written in workerd (wrangler dev) in workerd.test.ts',
  ],
  ...(['One app module for every runtime', 'Deno', 'Bun', 'Vercel edge functions'] as const).map(
    (section): [string, string, number, string] => [
      'docs/edge.md',
      section,
      0,
      'run as written from the packed package (Deno, Bun, edge-runtime) against the sandbox in runtimes.test.ts',
    ],
  ),
  [
    'docs/edge.md',
    'Netlify edge functions',
    0,
    'type-checked by deno check, with a declaration of the Netlify global, in runtimes.test.ts',
  ],
  ['docs/testing.md', 'Test your integration', 0, 'app.js: run as written by node --test in sandbox-package.test.ts'],
  ['docs/testing.md', 'Test your integration', 1, 'payroll.test.js: run as written by node --test in sandbox-package.test.ts'],
  ['docs/testing.md', 'Testing your components', 0, 'run as written by Vitest (jsdom, happy-dom) and Jest (jsdom) in unit-tests.test.ts'],
  ...PLAYWRIGHT_SNIPPETS.map((file, block): [string, string, number, string] => [
    'docs/testing.md',
    PLAYWRIGHT_SECTION,
    block,
    `${file}: run as written by Playwright Test in playwright.test.ts`,
  ]),
  [
    'docs/testing.md',
    'The testing kit / WebDriver and Appium: the steps as data',
    0,
    'run as written in WebKitGTK over WebDriver in test/e2e/link-flow.test.ts',
  ],
  // The kit's (#52); the jsx block beside the first (a React component's test) runs there too, under Vitest.
  ...(
    [
      ['Unit tests: `mockLink()`', 0, 'connect-button.test.js'],
      ['Webhooks: `webhookRequest()`', 0, 'webhooks.test.js'],
      ["The sandbox in your test runner's setup", 0, 'vitest.config.js'],
      ["The sandbox in your test runner's setup", 1, 'jest.config.js'],
      ["The sandbox in your test runner's setup", 2, 'link-token.test.js'],
    ] as const
  ).map(([subsection, block, file]): [string, string, number, string] => [
    'docs/testing.md',
    `The testing kit / ${subsection}`,
    block,
    `${file}: run as written by Vitest and Jest in unit-tests.test.ts`,
  ]),
  [
    'docs/link-events.md',
    'A ready signal: `link-ready` and `onReady`',
    0,
    'type-checked under strict TypeScript in test/node/link-events-doc.test.ts',
  ],
  [
    'docs/link-events.md',
    'A ready signal: `link-ready` and `onReady`',
    1,
    'type-checked under strict TypeScript in test/node/link-events-doc.test.ts',
  ],
  [
    'docs/windows-and-closing.md',
    'External windows: logins that refuse to be framed',
    0,
    'type-checked under strict TypeScript in test/node/link-events-doc.test.ts',
  ],
  [
    'docs/windows-and-closing.md',
    'A close that can ask first: `requestClose()`',
    0,
    'type-checked under strict TypeScript in test/node/link-events-doc.test.ts',
  ],
  [
    'docs/link-events.md',
    'Typed progress events: `link-event` and `onEvent`',
    0,
    'type-checked under strict TypeScript in test/node/link-events-doc.test.ts',
  ],
  [
    'docs/link-events.md',
    'Typed progress events: `link-event` and `onEvent`',
    1,
    'type-checked under strict TypeScript in test/node/link-events-doc.test.ts',
  ],
  ['docs/styling.md', 'Colour mode', 0, 'type-checked under strict TypeScript in test/node/link-events-doc.test.ts'],
  [
    'docs/multiple-instances.md',
    'Snippets',
    0,
    'type-checked against the real redis and pg types in test/node/docs-multiple-instances.test.ts',
  ],
  [
    'docs/multiple-instances.md',
    'Snippets',
    1,
    'type-checked against the real redis and pg types in test/node/docs-multiple-instances.test.ts',
  ],
  [
    'docs/multiple-instances.md',
    'Snippets',
    2,
    'type-checked against the real redis and pg types in test/node/docs-multiple-instances.test.ts',
  ],
  [
    'docs/native-apps.md',
    "Open it in the system's auth session (recommended) / Expo and React Native: `expo-web-browser`",
    0,
    'not checked: needs Expo and React Native (expo-web-browser, expo-crypto), which this repository does not install',
  ],
  [
    'docs/native-apps.md',
    'The WebView fallback: `PayrollLinkView` (`payroll-link/react-native`)',
    0,
    'not checked here: needs React Native and react-native-webview, which this repository does not install',
  ],
];

/** What the snippets leave to the reader. */
const READER_GLOBALS = `declare function save(accountId: string, jobId: string): void;
declare function saveAccount(endUserId: string, accountId: string): Promise<void>;
declare function getToken(userId?: string): Promise<string>;
// A router's navigation (React Router's useNavigate(), Next.js's router.push).
declare function navigate(path: string): void;
declare const button: HTMLButtonElement;
declare const currentUser: { id: string };
declare const accountId: string;
declare function saveReport(endUserId: string, report: object): Promise<void>;
// Your app's session: the signed-in user of a request, or null (docs/native-apps.md).
declare function signedInUserId(request: Request): Promise<string | null>;
// What SvelteKit generates for a project (.svelte-kit/ambient.d.ts): the private environment, read at run time.
declare module '$env/dynamic/private' {
  export const env: Record<string, string | undefined>;
}
`;

/** Every ts, tsx and js block of the shipped markdown, keyed `page: section`. */
async function shippedBlocks(): Promise<Map<string, CodeBlock[]>> {
  const all = new Map<string, CodeBlock[]>();
  for (const page of await shippedMarkdown()) {
    for (const [section, blocks] of await codeBlocks(page)) {
      const code = blocks.filter((block) => ['ts', 'tsx', 'js'].includes(block.language));
      if (code.length > 0) all.set(`${page}: ${section}`, code);
    }
  }
  return all;
}

test('every ts, tsx and js snippet of the shipped markdown is checked here or built by its own toolchain', async () => {
  const blocks = await shippedBlocks();
  const known = new Set([...CHECKED, ...ELSEWHERE].map(([page, section, block]) => `${page}: ${section}#${block}`));
  const found = [...blocks].flatMap(([section, list]) => list.map((_, block) => `${section}#${block}`));
  assert.deepEqual(
    found.filter((name) => !known.has(name)),
    [],
    'snippets nobody checks',
  );
  assert.deepEqual(
    [...known].filter((name) => !found.includes(name)),
    [],
    'listed snippets the docs no longer have',
  );
});

test('the docs snippets type-check as written under strict TypeScript', async () => {
  const blocks = await shippedBlocks();
  await rm(dir, { recursive: true, force: true });
  for (const [page, section, block, file] of CHECKED) {
    const code = blocks.get(`${page}: ${section}`)?.[block]?.code;
    assert.ok(code !== undefined, `${page} has block ${block} of "${section}"`);
    await mkdir(dirname(`${dir}${file}`), { recursive: true });
    await writeFile(`${dir}${file}`, code);
  }
  await writeFile(`${dir}reader-globals.d.ts`, READER_GLOBALS);
  await writeFile(
    `${dir}tsconfig.json`,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        jsx: 'react-jsx',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: ['node'],
        strict: true,
        noEmit: true,
        isolatedModules: true,
        skipLibCheck: true,
        // SvelteKit's alias of src/lib, for the SvelteKit snippets (docs/svelte.md), as SvelteKit's own tsconfig maps it.
        paths: { $lib: ['./src/lib'], '$lib/*': ['./src/lib/*'] },
      },
      include: ['**/*.ts', '**/*.tsx'],
    }),
  );
  try {
    execFileSync(`${root}node_modules/.bin/tsc`, ['-p', `${dir}tsconfig.json`], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    assert.fail(`the docs snippets do not type-check:\n${(error as { stdout: string }).stdout}`);
  }
});
