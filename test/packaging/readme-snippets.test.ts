// Every TypeScript and JavaScript snippet of the README type-checks as written, under `strict`,
// against the packed package's declarations (and the frameworks' own types: React, Vite, Express,
// Fastify, Hono, Node). A JavaScript snippet is checked as TypeScript, because that is where users
// paste it (a default Vite TypeScript project). What a snippet leaves to the reader (`save()`,
// `button`, `currentUser`, `getToken()`, `saveAccount()`) is declared, and nothing else. Snippets
// that their own toolchains build are listed with the test that does it; a new snippet that is in
// neither list fails here. Needs install-toolchains.ts and install-packed.ts first.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Inside servers/, so that Express, Fastify and Hono (and their types) resolve as in an app. */
const dir = fileURLToPath(new URL('./servers/readme-snippets/', import.meta.url));

/** Where each checked snippet goes: `## section` (and `### subsection`), the n-th code block there. */
const CHECKED: [section: string, block: number, file: string][] = [
  ['ESM and bundlers (Vite, webpack, esbuild, Rollup)', 0, 'esm-element.ts'],
  ['ESM and bundlers (Vite, webpack, esbuild, Rollup)', 1, 'esm-core.ts'],
  ['ESM and bundlers (Vite, webpack, esbuild, Rollup)', 2, 'esm-prepare.ts'],
  ['React 18 (and 19): `payroll-link/react`', 0, 'react-wrapper.tsx'],
  ['React 19: the bare element', 0, 'react-19-env.d.ts'],
  ['React 19: the bare element', 1, 'react-19-bare.tsx'],
  ['React 19: the bare element', 2, 'react-19-fetch-token.tsx'],
  ['Vue 3', 0, 'vite.config.ts'],
  ['Svelte 5', 0, 'svelte-env.d.ts'],
  ['Your backend: `payroll-link/server`', 0, 'payroll.ts'],
  ['Your backend: `payroll-link/server` / node:http', 0, 'node-http.ts'],
  ['Your backend: `payroll-link/server` / Express 4 and 5', 0, 'express.ts'],
  ['Your backend: `payroll-link/server` / Fastify 5', 0, 'fastify.ts'],
  ['Your backend: `payroll-link/server` / Hono', 0, 'hono.ts'],
  ['Your backend: `payroll-link/server` / Next.js route handlers', 0, 'app/api/link-token/route.ts'],
];

/** Snippets checked elsewhere, by the toolchain they are written for (.vue and .svelte blocks are not ts: apps.test.ts and svelte.test.ts). */
const ELSEWHERE: [section: string, block: number, why: string][] = [
  ['Angular', 0, 'built by the Angular CLI with strict templates in frameworks.test.ts'],
  ['Next.js (App Router)', 0, 'built by next build in frameworks.test.ts'],
  ['Test your integration', 0, 'app.js: run as written by node --test in sandbox-package.test.ts'],
  ['Test your integration', 1, 'payroll.test.js: run as written by node --test in sandbox-package.test.ts'],
];

/** What the snippets leave to the reader. */
const READER_GLOBALS = `declare function save(accountId: string, jobId: string): void;
declare function saveAccount(endUserId: string | null | undefined, accountId: string): Promise<void>;
declare function getToken(userId?: string): Promise<string>;
declare const button: HTMLButtonElement;
declare const currentUser: { id: string };
`;

/** Every ts, tsx and js block of the README, keyed `section` or `section / subsection`. */
async function readmeBlocks(): Promise<Map<string, { language: string; code: string }[]>> {
  const readme = await readFile(`${root}README.md`, 'utf8');
  const blocks = new Map<string, { language: string; code: string }[]>();
  let section = '';
  let key = '';
  for (const match of readme.matchAll(/^(## |### )(.*)$|^```(\w*)\n([\s\S]*?)^```$/gm)) {
    if (match[1] === '## ') key = section = match[2]!;
    else if (match[1] === '### ') key = `${section} / ${match[2]}`;
    else if (['ts', 'tsx', 'js'].includes(match[3]!)) {
      blocks.set(key, [...(blocks.get(key) ?? []), { language: match[3]!, code: match[4]! }]);
    }
  }
  return blocks;
}

test('every ts, tsx and js snippet of the README is checked here or built by its own toolchain', async () => {
  const blocks = await readmeBlocks();
  const known = new Set([...CHECKED, ...ELSEWHERE].map(([section, block]) => `${section}#${block}`));
  const found = [...blocks].flatMap(([section, list]) => list.map((_, block) => `${section}#${block}`));
  assert.deepEqual(found.filter((name) => !known.has(name)), [], 'snippets nobody checks');
  assert.deepEqual([...known].filter((name) => !found.includes(name)), [], 'listed snippets the README no longer has');
});

test('the README snippets type-check as written under strict TypeScript', async () => {
  const blocks = await readmeBlocks();
  await rm(dir, { recursive: true, force: true });
  for (const [section, block, file] of CHECKED) {
    const code = blocks.get(section)?.[block]?.code;
    assert.ok(code !== undefined, `README has block ${block} of "${section}"`);
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
      },
      include: ['**/*.ts', '**/*.tsx'],
    }),
  );
  try {
    execFileSync(`${root}node_modules/.bin/tsc`, ['-p', `${dir}tsconfig.json`], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    assert.fail(`the snippets do not type-check:\n${(error as { stdout: string }).stdout}`);
  }
});
