// Browser tests in Debian's Chromium (through Playwright), Firefox ESR (through puppeteer over WebDriver BiDi)
// and WebKitGTK, Safari's engine (over W3C WebDriver, with its own WebKitWebDriver and Xvfb); see shared notes
// on the toolchain. BROWSERS=webkit (or chromium, firefox, a comma-separated list) runs only those.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromiumArgs, chromiumPath } from './test/browser/chromium.mjs';
import { firefoxLauncher } from './test/browser/firefox-launcher.mjs';
import { fakeLinkPlugin, fakeTokenMiddleware } from './test/browser/fake-servers.mjs';
import { realSandboxMiddleware, realSandboxPlugin } from './test/browser/real-sandbox.mjs';
import { webkitLauncher } from './test/browser/webkit-launcher.mjs';

const chromium = playwrightLauncher({
  product: 'chromium',
  launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
});
const firefox = firefoxLauncher();

// Labels of our own: a launcher's `name` may change once it starts (webdriver's reads "Initializing..." before).
// WebKit's launcher is only made when it runs: making it starts nothing, but it has nothing to do otherwise.
const launchers = { chromium: () => chromium, firefox: () => firefox, webkit: webkitLauncher };
const only = process.env.BROWSERS?.split(',').map((name) => name.trim().toLowerCase());
const unknown = only?.filter((name) => !(name in launchers)) ?? [];
if (unknown.length > 0) throw new Error(`BROWSERS: unknown ${unknown.join(', ')} (known: ${Object.keys(launchers).join(', ')})`);
const browsers = Object.entries(launchers)
  .filter(([label]) => !only || only.includes(label))
  .map(([, launcher]) => launcher());

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  // The three engines at once: they spend most of a test waiting, so on a 2-core machine (load 24-34) the whole
  // suite took 196 s this way against 224 s two at a time (Chromium and Firefox alone: 152 s).
  concurrentBrowsers: 3,
  browsers,
  // The real sandbox's Link page and API on the test page's origin (the accessibility tests): see real-sandbox.mjs.
  middleware: [fakeTokenMiddleware, realSandboxMiddleware],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022' }), fakeLinkPlugin(), realSandboxPlugin()],
  // Bounds, not waits: they only decide when a stuck test or browser counts as failed. On a shared
  // 2-core machine (load 16 seen) Firefox took over 30 s (the default) to open its first page.
  testFramework: { config: { timeout: 30_000 } },
  // A failure whose values are DOM nodes must reach Node as a failure, not hang the file: see cloneable-failures.ts.
  testRunnerHtml: (testFramework) =>
    `<!DOCTYPE html><html><head></head><body><script type="module" src="/test/browser/cloneable-failures.ts"></script><script type="module" src="${testFramework}"></script></body></html>`,
  browserStartTimeout: 120_000,
  testsStartTimeout: 120_000,
  testsFinishTimeout: 240_000,
};
