// Debian's Chromium and the flags that keep it quiet on a closed network (see the shared toolchain notes),
// for web-test-runner and the packaging tests alike.

/** Where Chromium is: CHROME_PATH, or Debian's. */
export const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** `--no-sandbox` is required as root; the rest stop background traffic and first-run work. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
