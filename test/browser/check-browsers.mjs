// Fails fast with one clear line per missing browser part, naming the Debian package that brings it.
// Checks the browsers named as arguments (chromium, firefox, webkit: what the end-to-end tests use), or else
// those BROWSERS (comma-separated) selects for the browser suite, or else all.
import { existsSync } from 'node:fs';
import { chromiumPath } from './chromium.mjs';
import { miniBrowserPath, webkitDriverPath, xvfbPath } from './webkit-driver.mjs';

const needed = [
  ['chromium', 'Chromium', chromiumPath, 'chromium', 'CHROME_PATH'],
  ['firefox', 'Firefox ESR', process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr', 'firefox-esr', 'FIREFOX_PATH'],
  ['webkit', "WebKit's MiniBrowser", miniBrowserPath, 'webkit2gtk-driver', 'WEBKIT_PATH'],
  ['webkit', 'WebKitWebDriver', webkitDriverPath, 'webkit2gtk-driver', 'WEBKIT_DRIVER_PATH'],
  ['webkit', 'Xvfb (the display WebKit runs on)', xvfbPath, 'xvfb', 'XVFB_PATH'],
];
const only = process.argv.length > 2 ? process.argv.slice(2) : process.env.BROWSERS?.split(',').map((name) => name.trim().toLowerCase());
const missing = needed.filter(([label, , path]) => (!only || only.includes(label)) && !existsSync(path));
for (const [, name, path, pkg, variable] of missing) {
  console.error(`${name} not found at ${path}: install it with 'sudo apt-get install -y ${pkg}' (or set ${variable}).`);
}
if (missing.length > 0) process.exit(1);
