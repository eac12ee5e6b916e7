// The sandbox in the package (part of build:package), so `npx payroll-link-sandbox` and
// `import('payroll-link/sandbox')` need Node and the package's own dependencies only:
// 1. dist/sandbox/index.js (startSandbox, from sandbox/index.ts) and dist/sandbox/cli.js (the bin, from
//    sandbox/cli/cli.ts), bundled by esbuild for Node, with the package's dependencies (zod) left as imports,
//    and `sandbox/link-page/link-page-build.ts` (esbuild at run time) swapped for `link-page-prebuilt.ts`
//    (reads the files of step 2); the client's schemas the sandbox imports as `payroll-link/server` are bundled
//    from src/ (tsconfig.json's `paths`), only the modules it uses;
// 2. dist/sandbox/link/index.html and app.js: the hosted Link page (sandbox/link-page/app/ and screens/: its
//    link-page.html and link-app.ts bundled), built now, not at run time;
// 3. the .d.ts files of `payroll-link/sandbox`, by tsc (tsconfig.sandbox.json), after dist/server/'s: see there.
//    The sandbox shares a few helpers of src/shared/ (escapeHtml, hex), which esbuild bundles.
import { execFileSync } from 'node:child_process';
import { copyFile, cp, mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { LINK_APP_BUILD_OPTIONS, LINK_APP_ENTRY, LINK_INDEX_HTML } from '../sandbox/link-page/link-page-build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/sandbox/`;

/** Resolves the sandbox's `./link-page/link-page-build.js` to the prebuilt page's reader. */
const prebuiltLinkPage: Plugin = {
  name: 'prebuilt-link-page',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\/link-page\/link-page-build\.js$/ }, () => ({
      path: `${root}sandbox/link-page/link-page-prebuilt.ts`,
    }));
  },
};

export async function buildSandbox(): Promise<void> {
  await mkdir(`${out}link`, { recursive: true });
  await build({
    entryPoints: {
      index: `${root}sandbox/index.ts`,
      cli: `${root}sandbox/cli/cli.ts`,
      // payroll-link/testing/sandbox: a test runner's global setup and Jest's teardown, sharing the sandbox they run.
      'test-setup': `${root}sandbox/test-setup.ts`,
      'test-teardown': `${root}sandbox/test-teardown.ts`,
    },
    outdir: out,
    bundle: true,
    splitting: true,
    // Chunks beside the entries: the prebuilt page is found relative to the module that reads it.
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // zod, the package's runtime dependency, stays an import; so does every node: module.
    packages: 'external',
    // A hashbang is valid at the top of any ES module; the bin needs it.
    banner: { js: '#!/usr/bin/env node' },
    plugins: [prebuiltLinkPage],
    logLevel: 'warning',
  });
  await build({ ...LINK_APP_BUILD_OPTIONS, entryPoints: [LINK_APP_ENTRY], outfile: `${out}link/app.js`, logLevel: 'warning' });
  await copyFile(LINK_INDEX_HTML, `${out}link/index.html`);
  // Written beside dist/ first: the program holds the few src/shared/ helpers the sandbox bundles too (their
  // .d.ts land under src/ there and are left out: no public type of the sandbox names them).
  const declarations = `${root}dist/.sandbox-declarations/`;
  await rm(declarations, { recursive: true, force: true });
  execFileSync(`${root}node_modules/.bin/tsc`, ['-p', 'tsconfig.sandbox.json', '--outDir', declarations], { cwd: root, stdio: 'inherit' });
  await cp(`${declarations}sandbox/`, out, { recursive: true });
  await rm(declarations, { recursive: true, force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildSandbox();
  console.log('build-sandbox: dist/sandbox/ written');
}
