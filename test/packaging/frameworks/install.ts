// Installs the framework apps' own dependencies (Angular and Next.js toolchains) from their
// lockfile, once: `npm ci` runs again only when package-lock.json has changed since the last
// install. Run before install-packed.ts, which extracts payroll-link into these node_modules.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
/** Lives inside node_modules, so `npm ci` (which empties it) also forgets the stamp. */
const stamp = `${dir}node_modules/.payroll-link-lock-hash`;

const lockHash = createHash('sha256').update(await readFile(`${dir}package-lock.json`)).digest('hex');
const installedHash = await readFile(stamp, 'utf8').catch(() => '');
if (installedHash === lockHash) {
  console.log('frameworks: dependencies up to date');
} else {
  console.log('frameworks: npm ci (Angular and Next.js toolchains; the first run takes a minute)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
  await writeFile(stamp, lockHash);
}
