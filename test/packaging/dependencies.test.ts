// What `npm install payroll-link` brings into an app, from the packed tarball and the npm registry:
// an app without React gets no React wrapper dependency (@lit/react and react are optional peers) and no React Native
// (react-native and react-native-webview, payroll-link/react-native's, are optional peers too) and no Playwright (the
// testing kit's optional peer), an app without
// Redis or PostgreSQL gets neither client (redis and pg are optional peers of payroll-link/server/redis and /postgres),
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
  const output = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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

/** An app with nothing but the package, installed once for the tests that need one. */
let plainApp: Promise<string> | undefined;
const appWithNothingElse = () => (plainApp ??= appWith('no-react', {}));

test('an app without React installs no React wrapper dependency, no React Native, and no Playwright', async () => {
  const dir = await appWithNothingElse();
  assert.ok(existsSync(join(dir, 'node_modules/payroll-link/dist/index.js')));
  // @playwright/test is payroll-link/testing/playwright's optional peer (#52): the kit adds no dependency.
  for (const name of ['@lit/react', 'react', 'react-dom', 'react-native', 'react-native-webview', '@playwright/test', 'playwright-core'])
    assert.ok(!existsSync(join(dir, 'node_modules', name)), `${name} is not installed`);
  const manifest = JSON.parse(await readFile(join(dir, 'node_modules/payroll-link/package.json'), 'utf8')) as { dependencies: object };
  assert.deepEqual(Object.keys(manifest.dependencies), ['lit', 'zod'], "the package's dependencies: lit and zod, nothing for the kit");
});

test('an app without Redis or PostgreSQL installs neither client, and the server with its store entry points runs', async () => {
  const dir = await appWithNothingElse();
  for (const name of ['redis', '@redis/client', 'pg']) assert.ok(!existsSync(join(dir, 'node_modules', name)), `${name} is not installed`);
  // The stores take a client by its shape: each entry point loads and makes a store with none of the clients present.
  const script = `import { createWebhookHandler } from 'payroll-link/server';
import { redisEventStore } from 'payroll-link/server/redis';
import { postgresEventStore } from 'payroll-link/server/postgres';
const stores = [redisEventStore({ eval: async () => 'claimed' }), postgresEventStore({ query: async () => ({ rows: [] }) })];
const handlers = stores.map((store) => createWebhookHandler({ allowUnverified: true, store, onEvent: () => {} }));
const answer = await createWebhookHandler({ allowUnverified: true, onEvent: () => {} })(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ event: 'x.y', event_id: crypto.randomUUID(), payload: {} }) }));
console.log(handlers.length, answer.status);`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' }).trim();
  // The last line is the script's; the one before is the handler's own log of the unknown event.
  assert.equal(output.split('\n').at(-1), '2 200');
});

test('an app on the lowest lit and zod the package allows keeps one copy of each, its own, and the server runs on it', async () => {
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
