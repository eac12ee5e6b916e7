// `npm run build:package`: the publishable package in dist/.
// 1. JS and .d.ts, one file per source module, by tsc (lit, zod, @lit/react and react stay imports, so apps dedupe them);
//    the Node adapter (src/server/node.ts) in a second pass, the only one with Node's types; the Redis, PostgreSQL and D1
//    stores (src/server/redis.ts, postgres.ts, d1.ts: payroll-link/server/redis, /postgres and /d1) in the first, since they take
//    the integrator's client by its shape and import neither `redis` nor `pg`; then the framework entries at the
//    published names (dist/react.js, ...), which forward to dist/frameworks/ (see FRAMEWORK_ENTRIES); then
//    dist/element/session-code.js made one module, so that every bundler keeps it a lazy chunk (see bundleSessionCode);
// 2. dist/payroll-link.bundled.js, for a plain <script>: the element and a lazy openLink(), minified, Lit in production
//    mode; and dist/payroll-link.session.js next to it, the session's code it loads on intent (see src/element/session-code.ts);
//    dist/styles.css (payroll-link/styles.css), minified from src/element/styles.css; and the launch page's one
//    script (src/launch-page/: the element, its session code and the page's own) as a string written over tsc's
//    stand-in in dist/server/launches/launch-page-script.js (see buildLaunchPageScript);
// 3. dist/custom-elements.json, by @custom-elements-manifest/analyzer (see custom-elements-manifest.config.mjs);
// 4. dist/sandbox/: the sandbox, its bin and its Link page (scripts/build-sandbox.ts).
// dist/demo belongs to the demo's build and is left alone.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { buildSandbox } from './build-sandbox.js';
import { minifyCssTemplates } from './minify-css-templates.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist/`;

/** The session's code as the bundled file loads it: a file beside it, with a name that stays the same. */
export const SESSION_FILE = 'payroll-link.session.js';

/** The package's version, in the bundled file's URL of the session file: see sessionFileApart. */
const { version } = JSON.parse(await readFile(`${root}package.json`, 'utf8')) as { version: string };

/**
 * The bundled file's `import('./session-code.js')` becomes `import('./payroll-link.session.js?v=<version>')`, a file
 * of its own built from that module. The version keeps the pair together: after an upgrade, a browser's cached
 * session file of the release before is never run with the new bundled file (their interface is internal). Two builds, not esbuild's code splitting: splitting moves every module both files use
 * (the widget's words, a helper or two) into a third file that the page must load before the element, while
 * each file having its own copy of those costs a few hundred bytes.
 */
const sessionFileApart: Plugin = {
  name: 'session-file-apart',
  setup(build) {
    // After a failed load, a new URL: a browser may keep the failed import of the first (see `failures` there).
    build.onLoad({ filter: /[\\/]src[\\/]element[\\/]load-session\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const asked = "loading ??= import('./session-code.js')";
      if (!source.includes(asked)) throw new Error(`${args.path} no longer has ${asked}: the bundled file cannot load its session file.`);
      const url = `\`./${SESSION_FILE}?v=${version}\${failures ? '&retry=' + failures : ''}\``;
      // Through a variable: esbuild reads a template literal in import() as a glob of files to bundle.
      return { contents: source.replace(asked, `const url = ${url};\n  loading ??= import(url)`), loader: 'ts' };
    });
  },
};

/** The bundled files' build: minified ESM, Lit in production mode (no 'development' condition). */
export const bundledOptions = {
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  // No 'development' condition: Lit resolves to its production build.
  // The licences of what is bundled (Lit's) go to `<file>.LEGAL.txt` beside it, named by a one-line comment at
  // its end: the page that loads the file before intent no longer downloads them (about 100 B gzip, #28).
  legalComments: 'linked',
} satisfies BuildOptions;

/**
 * The framework entries, published as `dist/<name>.js` and `.d.ts` (the `exports` map's `./react`, `./jsx`, `./vue`,
 * `./svelte`, `./react-native`) while their sources sit in src/frameworks/: tsc keeps the source tree, so each published file is a
 * one-line module that re-exports its namesake there (for the types-only ones, that brings their declarations in).
 */
export const FRAMEWORK_ENTRIES = ['react', 'jsx', 'vue', 'svelte', 'react-native'] as const;

/**
 * dist/react.node.js, `payroll-link/react` under Node's resolution (the `node` condition; browsers and bundlers for
 * them get dist/react.js). Node's resolution gives `@lit/react`'s server-rendering build, whose component sets no
 * property and adds no listener (lit/lit#4446): right on a server, wrong under Vitest + jsdom, where an app's
 * component test renders the wrapper in a DOM. So this file is the wrapper with both builds of `createComponent`:
 * the browser's, bundled from `@lit/react` (no imports of its own), where there is a document, and the one Node
 * resolves (`@lit/react` stays an import) where there is none.
 */
async function buildReactForNode(): Promise<void> {
  const litReact = `${root}node_modules/@lit/react/`;
  const bothBuilds: Plugin = {
    name: 'lit-react-both-builds',
    setup(plugin) {
      plugin.onResolve({ filter: /^@lit\/react$/ }, (args) =>
        args.namespace === 'both-builds' ? { path: '@lit/react', external: true } : { path: '@lit/react', namespace: 'both-builds' },
      );
      plugin.onLoad({ filter: /.*/, namespace: 'both-builds' }, () => ({
        contents: [
          "import { createComponent as inNode } from '@lit/react';",
          `import { createComponent as inBrowser } from ${JSON.stringify(`${litReact}create-component.js`)};`,
          "export const createComponent = typeof document === 'undefined' ? inNode : inBrowser;",
        ].join('\n'),
        resolveDir: litReact,
      }));
    },
  };
  // The element and the rest of the package stay the modules they are (one element class, one registration): each
  // of the wrapper's relative imports stays an import, of the same file, from dist/.
  const modulesApart: Plugin = {
    name: 'package-modules-apart',
    setup(plugin) {
      plugin.onResolve({ filter: /^\.\.?\//, namespace: 'file' }, (args) => ({
        path: `./${relative(dist, resolve(dirname(args.importer), args.path))}`,
        external: true,
      }));
    },
  };
  await build({
    entryPoints: [`${dist}frameworks/react.js`],
    outfile: `${dist}react.node.js`,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    plugins: [bothBuilds, modulesApart],
    external: ['react'],
    legalComments: 'inline',
    logLevel: 'warning',
  });
}

async function writeFrameworkEntries(): Promise<void> {
  for (const name of FRAMEWORK_ENTRIES) {
    const forward = `export * from './frameworks/${name}.js';\n`;
    await writeFile(`${dist}${name}.js`, forward);
    await writeFile(`${dist}${name}.d.ts`, forward);
  }
}

/**
 * Rewrites tsc's dist/element/session-code.js, the module the element imports on intent, as one module holding the
 * session's code (the core, the wire contract's schemas), with imports left for the modules the element loads
 * first anyway and for packages (zod, lit). Why: esbuild's code splitting, which Angular's application builder
 * uses, puts a module in a chunk the page loads first as soon as the page's entry reaches it through any import,
 * used or not (it follows import statements, not the names used), and `payroll-link`'s index re-exports the core.
 * With one file per module, every module of the session was reached from the page's entry: the session's code was
 * part of the first load and its lazy chunk a stub. Bundled, the session's modules are copies nothing else
 * imports; dist/core/ keeps its own for `payroll-link/core`. The modules left as imports are derived from the
 * element's static imports, so that a page has one copy of each (the words, `LinkFailure`, whose class is checked
 * with `instanceof`).
 */
async function bundleSessionCode(): Promise<void> {
  const sessionCode = `${dist}element/session-code.js`;
  const elementGraph = await build({
    entryPoints: [`${dist}element/payroll-link.js`],
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    absWorkingDir: dist,
    logLevel: 'warning',
    plugins: [
      {
        name: 'stop-at-import()',
        setup: (b) => b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { external: true } : undefined)),
      },
    ],
  });
  const loadedFirst = new Set(Object.keys(elementGraph.metafile.inputs).map((input) => `${dist}${input}`));
  await build({
    entryPoints: [sessionCode],
    outfile: sessionCode,
    allowOverwrite: true,
    banner: {
      js: "// The session's code, loaded on intent, as one module: see bundleSessionCode in payroll-link's scripts/build-package.ts.",
    },
    bundle: true,
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'element-modules-stay-imports',
        setup(b) {
          b.onResolve({ filter: /^\./ }, (args) => {
            const file = resolve(dirname(args.importer), args.path);
            return loadedFirst.has(file) ? { path: relative(`${dist}element`, file).replace(/^(?!\.)/, './'), external: true } : undefined;
          });
        },
      },
    ],
  });
}

/**
 * The launch page's one script, for `payroll-link/server/launches`: one classic script, no `import()` (esbuild
 * inlines the session code's dynamic import when it does not split), minified, written as a string module over the
 * stand-in tsc emitted, so that the page runs where there is no file system. What would end the page's inline
 * `<script>` early (`</script`, `<!--`) is escaped, and refused if it remains.
 */
async function buildLaunchPageScript(): Promise<void> {
  const code = await launchPageScript();
  await writeFile(`${dist}server/launches/launch-page-script.js`, `export const LAUNCH_PAGE_SCRIPT = ${JSON.stringify(code)};\n`);
  await rm(`${dist}server/launches/launch-page-script.js.map`, { force: true });
}

/** The launch page's one script as `buildLaunchPageScript` writes it; also for the demo, which runs the sources (start-demo.ts). */
export async function launchPageScript(): Promise<string> {
  const { outputFiles } = await build({
    ...bundledOptions,
    format: 'iife',
    legalComments: 'eof',
    entryPoints: [`${root}src/launch-page/launch-page.ts`],
    plugins: [minifyCssTemplates],
    write: false,
    logLevel: 'warning',
  });
  const code = outputFiles[0]!.text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  if (/<\/script|<!--|\bimport\(/i.test(code))
    throw new Error('build: the launch page script would end its <script> early, or imports a file');
  return code;
}

/** Removes what an earlier build:package wrote, so a deleted source never ships as a stale file. */
async function clean(): Promise<void> {
  await mkdir(dist, { recursive: true });
  for (const entry of await readdir(dist)) {
    if (entry !== 'demo') await rm(`${dist}${entry}`, { recursive: true, force: true });
  }
}

function run(bin: string, args: string[]): void {
  execFileSync(`${root}node_modules/.bin/${bin}`, args, { cwd: root, stdio: 'inherit' });
}

export async function buildPackage(): Promise<void> {
  await clean();
  run('tsc', ['-p', 'tsconfig.build.json']);
  run('tsc', ['-p', 'tsconfig.build-node.json']);
  await writeFrameworkEntries();
  await buildReactForNode();
  await bundleSessionCode();
  await build({
    ...bundledOptions,
    entryPoints: [`${root}src/element/bundled.ts`],
    outfile: `${dist}payroll-link.bundled.js`,
    plugins: [sessionFileApart, minifyCssTemplates],
    logLevel: 'warning',
  });
  await build({
    ...bundledOptions,
    entryPoints: [`${root}src/element/session-code.ts`],
    outfile: `${dist}${SESSION_FILE}`,
    logLevel: 'warning',
  });
  // payroll-link/styles.css, for server-rendered pages: the room the element holds before its script runs (an inline
  // flow's, the modal button's height).
  await build({ entryPoints: [`${root}src/element/styles.css`], outfile: `${dist}styles.css`, minify: true, logLevel: 'warning' });
  await buildLaunchPageScript();
  run('cem', ['analyze', '--quiet']);
  await buildSandbox();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildPackage();
  console.log('build:package: dist/ written');
}
