// Fails fast with one clear line when a browser the tests need is missing.
import { existsSync } from 'node:fs';

const needed = [
  ['Chromium', process.env.CHROME_PATH ?? '/usr/bin/chromium'],
  ['Firefox ESR', process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'],
];
const missing = needed.filter(([, path]) => !existsSync(path));
if (missing.length > 0) {
  for (const [name, path] of missing) {
    console.error(`${name} not found at ${path}: install it with 'sudo apt-get install -y chromium firefox-esr' (or set CHROME_PATH / FIREFOX_PATH).`);
  }
  process.exit(1);
}
