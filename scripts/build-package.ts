// `npm run build:package`: the publishable package in dist/.
// 1. JS and .d.ts, one file per source module, by tsc (lit, zod, @lit/react and react stay imports, so apps dedupe them);
//    the Node adapter (src/server/node.ts) in a second pass, the only one with Node's types;
// 2. dist/payroll-link.bundled.js: everything in one minified file, Lit in production mode, for a plain <script>;
// 3. dist/custom-elements.json, by @custom-elements-manifest/analyzer (see custom-elements-manifest.config.mjs);
// 4. dist/sandbox/: the sandbox, its bin and its Link page (scripts/build-sandbox.ts).
// dist/demo belongs to the demo's build and is left alone.
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { buildSandbox } from './build-sandbox.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist/`;

/** The bundled file's build; the size check builds the same way. */
export const bundledOptions = {
  entryPoints: [`${root}src/index.ts`],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  // No 'development' condition: Lit resolves to its production build.
  legalComments: 'eof',
} satisfies BuildOptions;

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
  await build({ ...bundledOptions, outfile: `${dist}payroll-link.bundled.js`, logLevel: 'warning' });
  run('cem', ['analyze', '--quiet']);
  await buildSandbox();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildPackage();
  console.log('build:package: dist/ written');
}
