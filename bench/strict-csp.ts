/**
 * Bench 5, strict CSP: the demo built for production (`vite build` with the
 * project's vite.config.ts) served with the Content-Security-Policy
 * (no `unsafe-*`, no nonce) and `/api` proxied to the example backend; a full
 * `user_good` session through the real sandbox Link page, once with the
 * element and once with `openLink()`. Every `securitypolicyviolation` event,
 * in the page and in the Link frame, is reported back and counted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { build } from 'vite';
import { launchChromium } from './lib/browser.js';
import { fromRoot } from './lib/bundle.js';
import { startHttpServer } from './lib/http-server.js';
import { printTable, printTarget, writeResult } from './lib/report.js';
import { createApiProxy, startServiceStack } from './lib/service-stack.js';
import { serveStatic } from './lib/static-files.js';

interface Violation {
  frame: string;
  directive: string;
  blockedURI: string;
  sample: string;
}

const stack = await startServiceStack({ rateLimitPerSecond: 0 });
const sandboxOrigin = new URL(stack.sandboxUrl).origin;
const CSP = `default-src 'self'; frame-src ${sandboxOrigin}; connect-src 'self'; style-src 'self'; script-src 'self'`;
const outDir = await mkdtemp(join(tmpdir(), 'payroll-link-demo-'));
// The demo reads its Link URL at build time (envPrefix DEMO_), so it is built after the sandbox has its port.
process.env.DEMO_LINK_URL = stack.linkUrl;
await build({ configFile: fromRoot('vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
const proxy = createApiProxy(stack.backendUrl);
const statics = serveStatic(outDir, { 'content-security-policy': CSP });
const site = await startHttpServer(async (req, res, url) => {
  if (!(await proxy(req, res, url))) await statics(req, res, url);
}, 'localhost');

const violations: Violation[] = [];
const consoleCsp: string[] = [];
const pageErrors: string[] = [];
const sessions: Array<{ driver: string; listeningInFrame: boolean; events: string[]; exit: string | null }> = [];
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  context.setDefaultTimeout(15_000);
  await context.exposeBinding('__reportCspViolation', ({ frame }, v: Omit<Violation, 'frame'>) =>
    violations.push({ frame: frame.url(), ...v }),
  );
  // In every frame, the Link frame included, before any of its own scripts run.
  await context.addInitScript(() => {
    (window as unknown as { __cspListening: boolean }).__cspListening = true;
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCspViolation: (v: object) => void }).__reportCspViolation;
      report({ directive: e.effectiveDirective, blockedURI: e.blockedURI, sample: e.sample });
    });
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) consoleCsp.push(message.text());
  });
  const response = await page.goto(site.url);
  if (response?.headers()['content-security-policy'] !== CSP) throw new Error('the demo was not served with the CSP under test');
  await page.locator('payroll-link#element-demo').getByRole('button', { name: 'Connect payroll' }).waitFor();

  sessions.push(
    await userGood(page, 'element', () =>
      page.locator('payroll-link#element-demo').getByRole('button', { name: 'Connect payroll' }).click(),
    ),
  );
  sessions.push(await userGood(page, 'openLink', () => page.locator('#imperative-demo').click()));
} finally {
  await browser.close();
  await site.close();
  await stack.close();
  await rm(outDir, { recursive: true, force: true });
}

/** Logs in as user_good and switches the deposit (selectors of test/e2e/demo.test.ts); returns the timeline's new entries. */
async function userGood(page: Page, driver: string, open: () => Promise<void>) {
  const before = await timeline(page);
  await open();
  const frame = await linkFrame(page);
  await frame.getByRole('heading', { level: 1, name: /wants to switch your direct deposit/ }).waitFor();
  // The listener must really be there in the cross-origin frame, or "zero in the frame" would mean nothing.
  const listeningInFrame = await frame.evaluate(() => {
    const w = window as unknown as { __cspListening?: boolean; __reportCspViolation?: unknown };
    return w.__cspListening === true && typeof w.__reportCspViolation === 'function';
  });
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first().click();
  await frame.getByLabel('Username').fill('user_good');
  await frame.getByLabel('Password').fill('pass_good');
  await frame.getByLabel('Password').press('Enter');
  await frame.getByRole('heading', { level: 1, name: 'Choose your deposit' }).waitFor();
  await frame.getByRole('button', { name: 'Switch my deposit' }).click();
  await frame.getByRole('heading', { level: 1, name: 'Your direct deposit is switched' }).waitFor();
  const exitName = driver === 'element' ? 'link-exit' : 'openLink closed';
  const exited = page.locator(`#timeline > li[data-name="${exitName}"]`).first().waitFor();
  // "Done" ends the session, which removes the frame under the click: the exit in the timeline is what counts.
  await Promise.race([
    frame
      .getByRole('button', { name: 'Done' })
      .click({ timeout: 5_000 })
      .catch(() => {}),
    exited,
  ]);
  await exited;
  const entries = (await timeline(page)).slice(before.length);
  const exit = entries.find((e) => e.name === exitName);
  return {
    driver,
    listeningInFrame,
    events: entries.filter((e) => e.name !== 'link-event').map((e) => e.name),
    exit: exit ? String(exit.detail.reason) : null,
  };
}

async function linkFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('iframe[src^="' + stack.linkUrl + '"]', { state: 'attached' }).catch(() => null);
  const frame = (await handle?.contentFrame()) ?? page.frames().find((f) => f.url().startsWith(stack.linkUrl));
  if (!frame) throw new Error('no Link frame');
  return frame;
}

async function timeline(page: Page): Promise<Array<{ name: string; detail: Record<string, unknown> }>> {
  const entries = await page.locator('#timeline > li').evaluateAll((items) =>
    items.map((item) => ({
      name: (item as HTMLElement).dataset.name ?? '',
      detail: JSON.parse((item as HTMLElement).dataset.detail ?? 'null'),
    })),
  );
  return entries.reverse();
}

const rows = sessions.map((s) => ({
  driver: s.driver,
  'events and callbacks': s.events.join(' → '),
  exit: s.exit,
  'listening in frame': s.listeningInFrame,
}));
printTable(`Strict CSP: ${CSP}`, rows);
printTable('Violations', [
  { where: 'demo page', 'securitypolicyviolation events': violations.filter((v) => !v.frame.startsWith(stack.linkUrl)).length },
  { where: 'Link frame', 'securitypolicyviolation events': violations.filter((v) => v.frame.startsWith(stack.linkUrl)).length },
  { where: 'console (CSP messages)', 'securitypolicyviolation events': consoleCsp.length },
]);
const completed = sessions.length === 2 && sessions.every((s) => s.exit === 'completed');
const targets = [
  { name: 'a full user_good session completes (element and openLink)', met: completed },
  {
    name: 'zero CSP violations (page and Link frame)',
    met: violations.length === 0 && consoleCsp.length === 0 && sessions.length === 2 && sessions.every((s) => s.listeningInFrame),
  },
  { name: 'no uncaught errors', met: pageErrors.length === 0 },
];
for (const t of targets)
  printTarget(t.name, t.met, t.met ? 'yes' : JSON.stringify({ violations, consoleCsp, pageErrors, sessions }).slice(0, 2000));
const file = await writeResult('strict-csp', { csp: CSP, sessions, violations, consoleCsp, pageErrors, targets });
console.log(`wrote ${file}`);
