/** Where Chromium is: CHROME_PATH, or Debian's. */
export const chromiumPath: string;
/** Chromium's flags for tests on a closed network. */
export const chromiumArgs: string[];
