// Browser tests in Debian's Chromium (through Playwright) and Firefox ESR
// (through puppeteer over WebDriver BiDi); see shared notes on the toolchain.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { fakeLinkPlugin, fakeTokenMiddleware } from './test/browser/fake-servers.mjs';

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

const chromium = playwrightLauncher({
  product: 'chromium',
  launchOptions: { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
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
  testFramework: { config: { timeout: 10_000 } },
  testsFinishTimeout: 240_000,
};
