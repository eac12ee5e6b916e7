// web-test-runner's WebKit: @web/test-runner-webdriver's launcher, which starts its own WebKitWebDriver and Xvfb
// when the run starts (only if WebKit is one of the browsers) and ends them when the run ends.
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import { startWebKitDriver, webkitCapabilities } from './webkit-driver.mjs';

/** WebKitGTK's MiniBrowser for web-test-runner, labelled `WebKit`. */
export function webkitLauncher() {
  const options = { automationProtocol: 'webdriver', hostname: '127.0.0.1', path: '/', port: 0, capabilities: webkitCapabilities };
  let driver;
  return new (class WebKitLauncher extends WebdriverLauncher {
    // The parent labels itself "Initializing..." until it starts: a name of our own, for BROWSERS and the report.
    name = 'WebKit';

    async initialize(config, testFiles) {
      driver = await startWebKitDriver();
      options.port = driver.port;
      await super.initialize(config, testFiles);
      this.name = 'WebKit';
    }

    async stop() {
      try {
        await super.stop();
      } finally {
        await driver?.stop();
      }
    }
  })(options);
}
