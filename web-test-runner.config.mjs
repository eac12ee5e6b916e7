// Browser tests in Debian's Chromium (through Playwright) and Firefox ESR
// (through puppeteer over WebDriver BiDi); see shared notes on the toolchain.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromiumArgs, chromiumPath } from './test/browser/chromium.mjs';
import { fakeLinkPlugin, fakeTokenMiddleware } from './test/browser/fake-servers.mjs';

const chromium = playwrightLauncher({
  product: 'chromium',
  launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
});
const firefox = chromeLauncher({
  launchOptions: { browser: 'firefox', executablePath: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr', headless: true },
});
firefox.name = 'Firefox';

const only = process.env.BROWSERS?.split(',');
const browsers = [chromium, firefox].filter((b) => !only || only.some((name) => b.name.toLowerCase().includes(name.toLowerCase())));

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  browsers,
  middleware: [fakeTokenMiddleware],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022' }), fakeLinkPlugin()],
  // Bounds, not waits: they only decide when a stuck test or browser counts as failed. On a shared
  // 2-core machine (load 16 seen) Firefox took over 30 s (the default) to open its first page.
  testFramework: { config: { timeout: 30_000 } },
  browserStartTimeout: 120_000,
  testsStartTimeout: 120_000,
  testsFinishTimeout: 240_000,
};
