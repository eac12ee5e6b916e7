/**
 * Bench 2, soak: 500 open/close cycles of `<payroll-link prefetch>` (each
 * opened in the Link frame built on a hover) and 500 of
 * `openLink()` in one page, against the tests' fake Link page on a second
 * origin and a fake token endpoint (both outside the widget). Afterwards: no
 * frame or dialog left, no more event listeners than before, and the JS heap
 * after GC compared with before (target: < 1 MB growth).
 */
import { cdpSession, collectPageErrors, launchChromium } from './lib/browser.js';
import { snapshot, total, type Snapshot } from './lib/cdp-census.js';
import { startFakeLinkServer } from './lib/fake-link-server.js';
import { startPageServer } from './lib/page-server.js';
import { printTable, printTarget, writeResult } from './lib/report.js';
import { round } from './lib/stats.js';
import { createTokenEndpoint } from './lib/token-endpoint.js';
import type { Census } from './pages/soak-page.js';

const CYCLES = Number(process.env.BENCH_CYCLES ?? 500);
const WARMUP = 25;
const BATCH = 100;
const HEAP_TARGET_BYTES = 1_000_000;

const link = await startFakeLinkServer();
const pages = await startPageServer({ entry: 'bench/pages/soak-page.ts', title: 'Soak', extra: createTokenEndpoint() });
const browser = await launchChromium();
const started = Date.now();
let before: Snapshot, after: Snapshot, censusBefore: Census, censusAfter: Census;
const series: Array<{ cycles: number; heapUsed: number }> = [];
let errors: string[] = [];
let attachedFrames = 0;
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(120_000);
  errors = collectPageErrors(page);
  await page.goto(`${pages.url}/?link=${encodeURIComponent(link.url)}`);
  await page.waitForFunction(() => window.soak !== undefined);
  const cdp = await cdpSession(page);
  // Warm-up: lazy compilation, the shared modal sheet and the first token fetch happen once, not per session.
  await page.evaluate((n) => window.soak.elementCycles(0, n), WARMUP);
  await page.evaluate((n) => window.soak.openLinkCycles(0, n), WARMUP);
  // Counted with the element removed: what it builds ahead goes with it, and what stays is what sessions left.
  censusBefore = await page.evaluate(() => (window.soak.detach(), window.soak.census()));
  before = await snapshot(cdp);
  await page.evaluate(() => window.soak.attach());
  series.push({ cycles: 0, heapUsed: before.heapUsed });
  for (const kind of ['element', 'openLink'] as const) {
    for (let done = 0; done < CYCLES; done += BATCH) {
      const count = Math.min(BATCH, CYCLES - done);
      // Cycle numbers go on from the warm-up, so every batch covers every way a session ends.
      await page.evaluate(([k, from, n]) => (k === 'element' ? window.soak.elementCycles(from, n) : window.soak.openLinkCycles(from, n)), [
        kind,
        WARMUP + done,
        count,
      ] as const);
      const { heapUsed } = await snapshot(cdp);
      series.push({ cycles: (kind === 'element' ? 0 : CYCLES) + done + count, heapUsed });
      process.stdout.write(`  ${kind} ${done + count}/${CYCLES}\n`);
    }
  }
  censusAfter = await page.evaluate(() => (window.soak.detach(), window.soak.census()));
  after = await snapshot(cdp);
  attachedFrames = page.frames().length - 1;
} finally {
  await browser.close();
  await pages.close();
  await link.close();
}

const heapGrowth = after.heapUsed - before.heapUsed;
const listenerDiff = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(
    [...new Set([...Object.keys(a), ...Object.keys(b)])].map((t) => [t, (b[t] ?? 0) - (a[t] ?? 0)]).filter(([, d]) => d !== 0),
  );
const rows = [
  { measure: 'iframes in the DOM (shadow roots too)', before: censusBefore.frames, after: censusAfter.frames },
  { measure: '<dialog>s in the DOM', before: censusBefore.dialogs, after: censusAfter.dialogs },
  { measure: 'modal containers in <body> (element and openLink)', before: censusBefore.modalHosts, after: censusAfter.modalHosts },
  { measure: 'frames attached (Playwright)', before: 0, after: attachedFrames },
  { measure: 'document.adoptedStyleSheets (scroll lock)', before: censusBefore.adoptedSheets, after: censusAfter.adoptedSheets },
  { measure: 'listeners on window', before: total(before.windowListeners), after: total(after.windowListeners) },
  { measure: 'listeners in document (deep)', before: total(before.documentListeners), after: total(after.documentListeners) },
  { measure: 'JS event listeners (renderer)', before: before.jsEventListeners, after: after.jsEventListeners },
  { measure: 'DOM nodes (renderer)', before: before.nodes, after: after.nodes },
  { measure: 'documents (renderer)', before: before.documents, after: after.documents },
  { measure: 'JS heap after GC (KB)', before: round(before.heapUsed / 1024), after: round(after.heapUsed / 1024) },
];
printTable(
  `Soak: ${CYCLES} cycles of <payroll-link> + ${CYCLES} of openLink() in one page (${round((Date.now() - started) / 1000)} s)`,
  rows,
);
const leftovers = censusAfter.frames + censusAfter.dialogs + censusAfter.modalHosts + attachedFrames;
const listenerGrowth =
  total(after.windowListeners) - total(before.windowListeners) + total(after.documentListeners) - total(before.documentListeners);
const targets = [
  { name: 'zero frames and dialogs left', value: leftovers, met: leftovers === 0 && !censusAfter.elementOpen },
  {
    name: 'no growth in listener counts (window, document deep, renderer)',
    value: listenerGrowth,
    met: listenerGrowth <= 0 && after.jsEventListeners <= before.jsEventListeners,
  },
  { name: 'JS heap growth after GC < 1 MB', value: heapGrowth, met: heapGrowth < HEAP_TARGET_BYTES },
  { name: 'no uncaught errors', value: errors.length, met: errors.length === 0 },
];
for (const t of targets) printTarget(t.name, t.met, String(t.name.includes('heap') ? `${round(t.value / 1024)} KB` : t.value));
const file = await writeResult('soak', {
  cycles: { element: CYCLES, openLink: CYCLES, warmupEach: WARMUP },
  census: { before: censusBefore, after: censusAfter, attachedFramesAfter: attachedFrames },
  snapshots: { before, after },
  listenerChanges: {
    window: listenerDiff(before.windowListeners, after.windowListeners),
    document: listenerDiff(before.documentListeners, after.documentListeners),
  },
  heapGrowthBytes: heapGrowth,
  heapSeries: series,
  errors,
  targets,
});
console.log(`wrote ${file}`);
