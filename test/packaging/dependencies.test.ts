// What `npm install payroll-link` brings into an app, from the packed tarball and the npm registry:
// an app without React gets no React wrapper dependency (@lit/react and react are optional peers),
// and an app that already has other minors of lit and zod within the package's ranges keeps one
// copy of each (npm dedupes them). Needs build:package first (`npm run test:packaging`).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
let work: string;
let tarball: string;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'payroll-link-deps-'));
  const output = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  tarball = join(work, (JSON.parse(output) as Array<{ filename: string }>)[0]!.filename);
});
after(() => rm(work, { recursive: true, force: true }));

/** A scratch app with `dependencies`, then `npm install <tarball>` in it, as a user would. */
async function appWith(name: string, dependencies: Record<string, string>): Promise<string> {
  const dir = join(work, name);
  execFileSync('mkdir', ['-p', dir]);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module', dependencies }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: dir, stdio: 'pipe', timeout: 240_000 });
  return dir;
}

/** Every installed copy of `name` below `dir`'s node_modules (hoisted or nested). */
function copiesOf(dir: string, name: string): string[] {
  const output = execFileSync('npm', ['ls', name, '--all', '--parseable'], { cwd: dir, encoding: 'utf8' }).trim();
  return output === '' ? [] : [...new Set(output.split('\n').filter((path) => path.endsWith(`/node_modules/${name}`)))];
}

test('an app without React installs no React wrapper dependency', async () => {
  const dir = await appWith('no-react', {});
  assert.ok(existsSync(join(dir, 'node_modules/payroll-link/dist/index.js')));
  for (const name of ['@lit/react', 'react', 'react-dom']) assert.ok(!existsSync(join(dir, 'node_modules', name)), `${name} is not installed`);
});

test("an app on the lowest lit and zod the package allows keeps one copy of each, its own, and the server runs on it", async () => {
  // The floors of the package's ranges (^3.0.0, ^4.0.0): what it claims to work with.
  const dir = await appWith('lowest-minors', { lit: '3.0.0', zod: '4.0.0' });
  assert.deepEqual(copiesOf(dir, 'lit'), [join(dir, 'node_modules/lit')]);
  assert.deepEqual(copiesOf(dir, 'zod'), [join(dir, 'node_modules/zod')]);
  const zod = JSON.parse(await readFile(join(dir, 'node_modules/zod/package.json'), 'utf8')) as { version: string };
  assert.equal(zod.version, '4.0.0');
  // The server entry runs on that zod: a token handler is created, a bad option is a ConfigError.
  const script = `import { createLinkTokenHandler, ConfigError } from 'payroll-link/server';
try { createLinkTokenHandler({ apiSecret: '', baseUrl: 'https://x.example', version: '2025-07-08', orgName: 'o', solution: 's', features: ['direct_deposit_switch'] }); }
catch (error) { console.log(error instanceof ConfigError ? 'config-error' : 'other'); }`;
  const answer = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' }).trim();
  assert.equal(answer, 'config-error');
});
