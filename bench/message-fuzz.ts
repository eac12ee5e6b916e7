/**
 * Bench 3, message fuzz: 10,000 generated messages posted at one open
 * session, for `openLink()` and again for `<payroll-link>`: random JSON and
 * near-valid messages (one field wrong) over the session's own port and
 * window, valid messages from another window of the Link origin and from a
 * foreign origin, and oversized payloads. Zero callbacks may fire, nothing may
 * throw, and the session must then complete normally.
 */
import { collectPageErrors, launchChromium } from './lib/browser.js';
import { startFakeLinkServer } from './lib/fake-link-server.js';
import { startPageServer } from './lib/page-server.js';
import { printTable, printTarget, writeResult } from './lib/report.js';
import { round } from './lib/stats.js';
import type { FuzzOutcome, FuzzPlans } from './pages/fuzz-page.js';

const SEED = Number(process.env.BENCH_SEED ?? 20_250_708);
/** 10,000 messages per session; the split is in the README. */
const PLANS: FuzzPlans = {
  session: {
    portNearValid: 3000,
    portRandom: 1500,
    portOversized: 200,
    windowNearValidReady: 500,
    windowValidEvents: 500,
    windowRandom: 500,
  },
  sameOrigin: { windowValidReady: 600, windowValidEvents: 1200, windowOversized: 50 },
  foreign: { windowValidReady: 600, windowValidEvents: 1200, windowRandom: 100, windowOversized: 50 },
};
const EXPECTED_AFTER = ['onEvent:login', 'onLogin', 'onEvent:success', 'onSuccess', 'onEvent:exit', 'onExit'];

const helperPages = { '/fuzz-helper.html': 'bench/pages/fuzz-helper.ts' };
const link = await startFakeLinkServer({ ...helperPages, '/fuzz-link.html': 'bench/pages/fuzz-link.ts' });
const foreign = await startFakeLinkServer(helperPages);
const pages = await startPageServer({ entry: 'bench/pages/fuzz-page.ts', title: 'Message fuzz' });
const browser = await launchChromium();
const outcomes: FuzzOutcome[] = [];
let pageErrors: string[] = [];
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(180_000);
  pageErrors = collectPageErrors(page);
  await page.goto(`${pages.url}/?link=${encodeURIComponent(link.url)}&foreign=${encodeURIComponent(foreign.url)}`);
  await page.waitForFunction(() => window.fuzz !== undefined);
  await page.evaluate(() => window.fuzz.ready);
  for (const target of ['openLink', 'element'] as const) {
    outcomes.push(await page.evaluate(([t, plans, seed]) => window.fuzz.run(t, plans, seed), [target, PLANS, SEED] as const));
  }
} finally {
  await browser.close();
  await pages.close();
  await foreign.close();
  await link.close();
}

const rows = outcomes.map((o) => ({
  target: o.target === 'openLink' ? 'openLink()' : '<payroll-link>',
  sent: o.sent.total,
  'session port': o.sent.sessionPort,
  'session window': o.sent.sessionWindow,
  'other window, Link origin': o.sent.sameOrigin,
  'foreign origin': o.sent.foreign,
  dropped: o.droppedCount ?? 'n/a',
  'callbacks during fuzz': o.duringFuzz.length,
  errors: o.errors.length,
  'then exit': o.exitReason,
  'fuzz s': round(o.fuzzMs / 1000, 2),
  'long tasks': o.longTasks.count,
  'long tasks ms': round(o.longTasks.totalMs),
  'longest ms': round(o.longTasks.longestMs),
}));
printTable(`Message fuzz: seed ${SEED}`, rows);
const checks = outcomes.map((o) => ({
  target: o.target,
  allSent: o.sent.total === 10_000,
  noCallbacks: o.duringFuzz.length === 0,
  noErrors: o.errors.length === 0,
  allDropped: o.droppedCount === null || o.droppedCount === o.sent.total,
  completedAfter:
    o.exitReason === 'completed' && JSON.stringify(o.afterFuzz.filter((n) => n.startsWith('on'))) === JSON.stringify(EXPECTED_AFTER),
  noFramesLeft: o.framesLeft === 0,
}));
const targets = [
  { name: '10,000 messages per session', met: checks.every((c) => c.allSent) },
  { name: 'zero callbacks and events during the fuzz', met: checks.every((c) => c.noCallbacks) },
  { name: 'zero uncaught errors', met: checks.every((c) => c.noErrors) && pageErrors.length === 0 },
  { name: 'every message dropped and counted (openLink debug hook)', met: checks.every((c) => c.allDropped) },
  { name: 'the session then completes normally', met: checks.every((c) => c.completedAfter && c.noFramesLeft) },
];
for (const t of targets) printTarget(t.name, t.met, t.met ? 'yes' : JSON.stringify(checks));
const file = await writeResult('message-fuzz', { seed: SEED, plans: PLANS, outcomes, pageErrors, checks, targets });
console.log(`wrote ${file}`);
