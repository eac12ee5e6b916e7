/**
 * Bench 11, inline (issue #26). Two figures, in Chromium (the `layout-shift` entries are Chromium's), against
 * the tests' fake Link page and a fake token endpoint (both outside the widget):
 * 1. tokens minted per 100 fresh page views of a page with five `<payroll-link display="inline">` far below the
 *    fold (each 3 viewports under the last, a 1280x800 viewport), without scrolling (0 expected), and per 100
 *    views scrolled to the first of them (1 expected: it, not the others);
 * 2. layout shift (the sum of `layout-shift` values without recent input: CLS over the page's short life) from
 *    load through an inline session's start, for an element in view in an onboarding step with content under
 *    it: when the Link page reports no height, the declared height; and when it reports 160 px less (the
 *    integrator's declared height was off).
 */
import { collectPageErrors, launchChromium } from './lib/browser.js';
import { startFakeLinkServer } from './lib/fake-link-server.js';
import { startPageServer } from './lib/page-server.js';
import { printTable, printTarget, writeResult } from './lib/report.js';
import { round, summarize } from './lib/stats.js';
import { createTokenEndpoint } from './lib/token-endpoint.js';

const VIEWS = Number(process.env.BENCH_VIEWS ?? 100);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 20);
/** The element's default declared height (`--payroll-link-inline-height`). */
const DECLARED = 640;
const REPORTS = [
  { name: 'no report', heights: [] as number[], height: DECLARED },
  { name: 'report = declared (640 px)', heights: [DECLARED], height: DECLARED },
  { name: 'report 160 px under (480 px)', heights: [480], height: 480 },
];

const link = await startFakeLinkServer();
const pages = await startPageServer({ entry: 'bench/pages/inline-page.ts', title: 'Inline', extra: createTokenEndpoint() });
const browser = await launchChromium();
const tokens = { below: 0, scrolled: 0 };
const shifts: Record<string, number[]> = Object.fromEntries(REPORTS.map((r) => [r.name, []]));
const errors: string[] = [];
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(15_000);
  const linkUrl = (scenario: string, heights: number[] = []) =>
    encodeURIComponent(`${link.url}/fake-link.html?scenario=${scenario}&heights=${encodeURIComponent(JSON.stringify(heights))}`);
  for (let i = 0; i < VIEWS; i++) {
    for (const use of ['below', 'scrolled'] as const) {
      const page = await context.newPage();
      const pageErrors = collectPageErrors(page);
      try {
        await page.goto(`${pages.url}/?layout=below&key=${use}-${i}&link=${linkUrl('idle')}`);
        await page.evaluate(() => window.inlineBench.settled());
        if (use === 'scrolled') {
          await page.evaluate(() => document.querySelector('payroll-link')!.scrollIntoView());
          await page.waitForFunction(() => window.inlineBench.requests() > 0);
          await page.evaluate(() => window.inlineBench.settled());
        }
        tokens[use] += await page.evaluate(() => window.inlineBench.requests());
      } finally {
        errors.push(...pageErrors);
        await page.close();
      }
    }
    if ((i + 1) % 25 === 0) process.stdout.write(`  ${i + 1}/${VIEWS} views of each\n`);
  }
  for (let i = 0; i < SESSIONS; i++) {
    for (const report of REPORTS) {
      const page = await context.newPage();
      const pageErrors = collectPageErrors(page);
      try {
        await page.goto(`${pages.url}/?layout=step&key=cls-${i}&link=${linkUrl('login-then-wait', report.heights)}`);
        await page.evaluate(() => window.inlineBench.opened);
        await page.evaluate((height) => window.inlineBench.sized(height), report.height);
        shifts[report.name]!.push(await page.evaluate(() => window.inlineBench.shifts().sum));
      } finally {
        errors.push(...pageErrors);
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  await pages.close();
  await link.close();
}

const per100 = (n: number) => Math.round((n * 100) / VIEWS);
printTable(`Tokens minted (token requests sent), ${VIEWS} fresh page views of each kind, five inline elements below the fold`, [
  { view: 'no scroll', 'tokens per 100 page views': per100(tokens.below) },
  { view: 'scrolled to the first element', 'tokens per 100 page views': per100(tokens.scrolled) },
]);
const cls = REPORTS.map((report) => ({
  'Link page reports': report.name,
  'CLS median': round(summarize(shifts[report.name]!).median, 4),
  'CLS max': round(Math.max(...shifts[report.name]!), 4),
}));
printTable(`Layout shift from load through an inline session's start, ${SESSIONS} sessions of each`, cls);
const noTokens = tokens.below === 0 && errors.length === 0;
const noShift = Math.max(...shifts[REPORTS[0]!.name]!, ...shifts[REPORTS[1]!.name]!) === 0;
printTarget('five inline elements below the fold mint nothing without a scroll', noTokens, `${per100(tokens.below)} per 100 views, ${errors.length} page errors`);
printTarget('no layout shift when the session starts (declared height until the first report)', noShift, JSON.stringify(cls));
const file = await writeResult('inline', {
  views: VIEWS,
  sessions: SESSIONS,
  tokens,
  per100: { below: per100(tokens.below), scrolled: per100(tokens.scrolled) },
  cls,
  pageErrors: errors,
  targets: [
    { name: 'inline below the fold: 0 tokens per 100 page views', value: per100(tokens.below), met: noTokens },
    { name: 'inline: CLS 0 when the session starts', value: Math.max(...shifts[REPORTS[0]!.name]!, ...shifts[REPORTS[1]!.name]!), met: noShift },
  ],
});
console.log(`wrote ${file}`);
