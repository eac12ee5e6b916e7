// An app's own end-to-end tests with Playwright Test (#52): the packed package, installed beside @playwright/test
// 1.65.1 (playwright/, the version of the repository's playwright-core), runs docs/testing.md's three snippets of
// "End to end: `linkFlow(page)`" as written (tests/connect-payroll.spec.ts, global-setup.ts, playwright.config.ts)
// against app.js, the app's stand-in (its page with <payroll-link>, modal and inline, its token route and its launch
// pages). The global setup starts the real sandbox through payroll-link/testing/sandbox, then the app. Five tests,
// each at a desktop's and a phone's size (the config's two projects): connect() in the modal, inline (the one-time
// code, a fixed amount) and on a launch page, exit(), fail('user_error'). Chromium only, Debian's (CHROME_PATH): here
// Playwright can drive no other browser (its own builds cannot be downloaded; Debian's Firefox ESR and WebKitGTK do
// not speak its protocol), so the "three browsers" is not run; the config names where Firefox and WebKit go.
// Needs install-toolchains.ts and install-packed.ts first: `npm run test:packaging` runs both.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { chromiumPath } from '../browser/chromium.mjs';
import { freePort } from '../free-port.js';
import { codeBlocks, PLAYWRIGHT_SECTION, PLAYWRIGHT_SNIPPETS } from './docs-snippet.js';
import { playwrightPackageDir } from './install-packed.js';

const appDir = fileURLToPath(new URL('./playwright/', import.meta.url));

/** The docs' files, written for this run only: the docs are their source. */
before(async () => {
  const blocks = (await codeBlocks('docs/testing.md')).get(PLAYWRIGHT_SECTION)?.filter((block) => block.language === 'ts') ?? [];
  assert.equal(
    blocks.length,
    PLAYWRIGHT_SNIPPETS.length,
    `docs/testing.md, "${PLAYWRIGHT_SECTION}", has ${PLAYWRIGHT_SNIPPETS.length} ts blocks`,
  );
  await mkdir(`${appDir}tests`, { recursive: true });
  for (const [i, file] of PLAYWRIGHT_SNIPPETS.entries()) await writeFile(`${appDir}${file}`, blocks[i]!.code);
});
after(async () => {
  for (const file of PLAYWRIGHT_SNIPPETS) await rm(`${appDir}${file}`, { force: true });
  await rm(`${appDir}tests`, { recursive: true, force: true });
  await rm(`${appDir}test-results`, { recursive: true, force: true });
});

test('Playwright Test runs the docs’ spec with linkFlow(page): 10 passed (5 tests, desktop and phone)', async () => {
  assert.ok(
    existsSync(`${playwrightPackageDir}/package.json`),
    'run `npm run test:packaging` (it installs Playwright Test and the packed package first)',
  );
  const result = spawnSync(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '--reporter=line'], {
    cwd: appDir,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, CI: 'true', CHROME_PATH: chromiumPath, APP_PORT: String(await freePort()) },
  });
  const output = stripVTControlCharacters(`${result.stdout}${result.stderr}`);
  assert.equal(result.status, 0, output);
  assert.match(output, /\b10 passed\b/, output);
  assert.doesNotMatch(output, /\b(failed|flaky|skipped)\b/, output);
});
