// Firefox ESR through puppeteer over WebDriver BiDi (see the shared notes on the toolchain). Debian's Firefox ESR
// 140.12 does not know `emulation.setScreenOrientationOverride`, which puppeteer-core 25 sends beside every
// `setViewport` (the launcher's before each test file, and `setViewport` of @web/test-runner-commands): the size is
// set by its own command in the same batch, so only that unknown command's refusal is let through.
import { chromeLauncher } from '@web/test-runner-chrome';

/** Whether `error` is Firefox refusing the screen orientation command it does not know. */
const isUnknownOrientationCommand = (error) =>
  error instanceof Error && error.message.includes('setScreenOrientationOverride') && error.message.includes('unknown command');

export function firefoxLauncher() {
  const launcher = chromeLauncher({
    launchOptions: { browser: 'firefox', executablePath: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr', headless: true },
    async createPage({ context }) {
      const page = await context.newPage();
      const setViewport = page.setViewport.bind(page);
      page.setViewport = (viewport) =>
        setViewport(viewport).catch((error) => {
          if (!isUnknownOrientationCommand(error)) throw error;
        });
      return page;
    },
  });
  // It labels itself Chrome.
  launcher.name = 'Firefox';
  return launcher;
}
