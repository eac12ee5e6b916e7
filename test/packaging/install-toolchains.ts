// Installs the packaging tests' own toolchains from their lockfiles, once each: `npm ci` runs again
// only when a package-lock.json has changed since its last install. frameworks/ holds the Angular
// and Next.js toolchains, angular/ Angular 22 with Node 22, nuxt/ Nuxt 4 with Node 22, servers/ the backend frameworks (Express 4 and 5, Fastify, Hono), svelte/
// Svelte 5, unit-tests/ the app test runners (Vitest, Jest), runtimes/ Deno, Bun and Vercel's edge-runtime, workerd/ Cloudflare's
// wrangler (workerd), react-native/ React Native with Jest and Node 22, playwright/ Playwright Test. Run before install-packed.ts,
// which extracts payroll-link into frameworks/, angular/, nuxt/, svelte/, unit-tests/, runtimes/, react-native/ and playwright/.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** Each toolchain's folder, and what it holds (for the log line). */
const TOOLCHAINS: [folder: string, what: string][] = [
  ['frameworks', 'Angular and Next.js toolchains; the first run takes a minute'],
  ['angular', "Angular 22 and the Node 22 it runs on (npm's `node` package)"],
  ['nuxt', "Nuxt 4, vue-tsc and the Node 22 it builds on (npm's `node` package)"],
  ['servers', 'Express 4 and 5, Fastify, Hono'],
  ['svelte', 'Svelte 5, its Vite plugin and svelte-check'],
  ['unit-tests', 'Vitest with jsdom and happy-dom, Jest with jsdom'],
  ['unit-tests/react-18', 'React 18 and Testing Library, for the React component test under React 18 (its runners are unit-tests/)'],
  ['runtimes', "Deno and Bun (npm's packages carry the binaries), Vercel's edge-runtime"],
  ['workerd', 'Cloudflare Workers: wrangler 4.86.0 and its workerd'],
  ['react-native', "React Native 0.87, react-native-webview, Jest and the Node 22 they run on (npm's `node` package)"],
  ['playwright', "Playwright Test 1.65 (it drives Debian's Chromium: no browser download)"],
];

for (const [folder, what] of TOOLCHAINS) {
  const dir = fileURLToPath(new URL(`./${folder}/`, import.meta.url));
  /** Lives inside node_modules, so `npm ci` (which empties it) also forgets the stamp. */
  const stamp = `${dir}node_modules/.payroll-link-lock-hash`;
  const lockHash = createHash('sha256')
    .update(await readFile(`${dir}package-lock.json`))
    .digest('hex');
  const installedHash = await readFile(stamp, 'utf8').catch(() => '');
  if (installedHash === lockHash) {
    console.log(`${folder}: dependencies up to date`);
  } else {
    console.log(`${folder}: npm ci (${what})`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
    await writeFile(stamp, lockHash);
  }
}
