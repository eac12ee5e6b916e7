/** Where WebKitGTK's MiniBrowser is: WEBKIT_PATH, or Debian's. */
export const miniBrowserPath: string;
/** Where WebKitWebDriver is: WEBKIT_DRIVER_PATH, or Debian's. */
export const webkitDriverPath: string;
/** Where Xvfb is: XVFB_PATH, or Debian's. */
export const xvfbPath: string;
/** W3C capabilities for a MiniBrowser session whose window can be set to an exact viewport. */
export const webkitCapabilities: {
  browserName: string;
  'wdio:enforceWebDriverClassic': boolean;
  'webkitgtk:browserOptions': { binary: string; args: string[] };
};
/** Starts Xvfb and WebKitWebDriver on a free loopback port; `stop()` ends both and their browsers. */
export function startWebKitDriver(): Promise<{ port: number; stop: () => Promise<void> }>;
