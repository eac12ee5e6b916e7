// web-test-runner's WebKit: @web/test-runner-webdriver's launcher, which starts its own WebKitWebDriver and Xvfb
// when the run starts (only if WebKit is one of the browsers) and ends them when the run ends.
import { WebdriverLauncher } from '@web/test-runner-webdriver';
import { startWebKitDriver, webkitCapabilities } from './webkit-driver.mjs';

/** WebKitGTK's MiniBrowser for web-test-runner, labelled `WebKit`. */
export function webkitLauncher() {
  const options = { automationProtocol: 'webdriver', hostname: '127.0.0.1', path: '/', port: 0, capabilities: webkitCapabilities };
  let driver;
  let stopping = false;
  return new (class WebKitLauncher extends WebdriverLauncher {
    // The parent labels itself "Initializing..." until it starts: a name of our own, for BROWSERS and the report.
    name = 'WebKit';

    async initialize(config, testFiles) {
      driver = await startWebKitDriver();
      options.port = driver.port;
      await super.initialize(config, testFiles);
      this.name = 'WebKit';
    }

    // The parent's session manager starts each test page's navigation without awaiting it, and WebKitWebDriver
    // answers that navigation only once the page has loaded. When the run ends first (the page's tests reported,
    // yet a frame a test made still loading), ending the driver's session aborts that request, and the rejection,
    // with nobody listening, made web-test-runner stop every browser ("Uncaught exception, stopping test runner").
    // Here it is awaited: after the run it is expected and dropped; before, it is the session's own failure.
    async startSession(id, url) {
      await this.ensureManagerInitialized();
      this.driverManager.startSession(id, url).catch((error) => {
        if (!stopping && this.isActive(id)) console.error(`WebKit could not open the test page ${url}:`, error);
      });
    }

    async stop() {
      stopping = true;
      try {
        await super.stop();
      } finally {
        await driver?.stop();
      }
    }
  })(options);
}
