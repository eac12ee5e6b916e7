/** The launcher's part that tests drive (the rest is web-test-runner's `BrowserLauncher`). */
export interface WebKitLauncher {
  name: string;
  initialize(config: { concurrency: number }, testFiles: string[]): Promise<void>;
  startSession(id: string, url: string): Promise<void>;
  isActive(id: string): boolean;
  stop(): Promise<void>;
}
/** WebKitGTK's MiniBrowser for web-test-runner, labelled `WebKit`, with its own WebKitWebDriver and Xvfb. */
export function webkitLauncher(): WebKitLauncher;
