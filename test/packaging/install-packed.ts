// Installs payroll-link into test/packaging/node_modules/payroll-link (and the framework apps' and the runtimes'
// node_modules: run test/packaging/install-toolchains.ts first) from the tarball `npm pack`
// makes of the built package (run build:package first), so the example apps and the SSR test see
// exactly what users would install: a file missing from `files` or `exports` fails them.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Where the example apps find the package. */
export const installedPackageDir = fileURLToPath(new URL('./node_modules/payroll-link', import.meta.url));
/**
 * Where the Angular and Next.js apps find it: their own node_modules, so that the package's
 * imports of react and lit resolve to the same copies as the apps' own (one React on the page).
 */
export const frameworksPackageDir = fileURLToPath(new URL('./frameworks/node_modules/payroll-link', import.meta.url));
/** Where the Angular app finds it: beside its own Angular 22 toolchain (angular/), which runs on Node 22. */
export const angularPackageDir = fileURLToPath(new URL('./angular/node_modules/payroll-link', import.meta.url));
/** Where the Nuxt app finds it: beside its own Nuxt 4 toolchain (nuxt/), which runs on Node 22. */
export const nuxtPackageDir = fileURLToPath(new URL('./nuxt/node_modules/payroll-link', import.meta.url));
/** Where the Svelte app finds it: beside its own Svelte, which the package's `svelte/elements` augmentation must meet. */
export const sveltePackageDir = fileURLToPath(new URL('./svelte/node_modules/payroll-link', import.meta.url));
/** Where the unit-test apps (Vitest, Jest) find it: beside their runners, as an app's own tests would. */
export const unitTestsPackageDir = fileURLToPath(new URL('./unit-tests/node_modules/payroll-link', import.meta.url));
/** The same app's React 18 folder: its own copy, whose `react` is React 18 (unit-tests/react-18/package.json). */
export const unitTestsReact18PackageDir = fileURLToPath(new URL('./unit-tests/react-18/node_modules/payroll-link', import.meta.url));
/** Where Deno, Bun and Vercel's edge runtime find it: beside them (runtimes/), as an app's own install would have it. */
export const runtimesPackageDir = fileURLToPath(new URL('./runtimes/node_modules/payroll-link', import.meta.url));
/** Where the React Native app's Jest tests and tsc find it: beside React Native and react-native-webview. */
export const reactNativePackageDir = fileURLToPath(new URL('./react-native/node_modules/payroll-link', import.meta.url));
/** Where the Playwright Test app finds it: beside @playwright/test, as an app's end-to-end tests would. */
export const playwrightPackageDir = fileURLToPath(new URL('./playwright/node_modules/payroll-link', import.meta.url));

/** Packs the repository's package and extracts it into each folder above. Returns the tarball's file name. */
export async function installPackedPackage(): Promise<string> {
  const packDir = await mkdtemp(join(tmpdir(), 'payroll-link-pack-'));
  try {
    // --ignore-scripts: the package is already built; `prepack` would build it again.
    const output = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [{ filename }] = JSON.parse(output) as Array<{ filename: string }>;
    for (const dir of [
      installedPackageDir,
      frameworksPackageDir,
      angularPackageDir,
      nuxtPackageDir,
      sveltePackageDir,
      unitTestsPackageDir,
      unitTestsReact18PackageDir,
      runtimesPackageDir,
      reactNativePackageDir,
      playwrightPackageDir,
    ]) {
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      execFileSync('tar', ['-xzf', join(packDir, filename), '-C', dir, '--strip-components=1']);
    }
    return filename;
  } finally {
    await rm(packDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const filename = await installPackedPackage();
  console.log(
    `install-packed: ${filename} extracted into test/packaging/node_modules, frameworks/, angular/, nuxt/, svelte/, unit-tests/ (and its react-18/), runtimes/, react-native/ and playwright/node_modules`,
  );
}
