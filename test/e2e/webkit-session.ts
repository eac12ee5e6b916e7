/**
 * A W3C WebDriver session in WebKitGTK's MiniBrowser (Safari's engine), through the WebKitWebDriver that
 * `startWebKitDriver` started: the e2e tests' one way to open WebKit, so every such test drives it the same way.
 */
import { remote } from 'webdriverio';
import { webkitCapabilities } from '../browser/webkit-driver.mjs';

/** Opens the session; each of its waits (`waitUntil`, `waitForDeep`) gives up after `waitMs`. */
export function webkitSession(driver: { port: number }, waitMs: number): Promise<WebdriverIO.Browser> {
  return remote({
    hostname: '127.0.0.1',
    port: driver.port,
    path: '/',
    automationProtocol: 'webdriver',
    logLevel: 'error',
    waitforTimeout: waitMs,
    capabilities: webkitCapabilities,
  });
}
