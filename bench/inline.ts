/**
 * Bench 11, inline (issues #26 and #37). Three figures, in Chromium (the `layout-shift` entries are Chromium's),
 * the first two against the tests' fake Link page and a fake token endpoint (both outside the widget):
 * 1. tokens minted per 100 fresh page views of a page with five `<payroll-link display="inline">` far below the
 *    fold (each 3 viewports under the last, a 1280x800 viewport), without scrolling (0 expected), and per 100
 *    views scrolled to the first of them (1 expected: it, not the others);
 * 2. layout shift (the sum of `layout-shift` values without recent input: CLS over the page's short life) from
 *    load through an inline session's start, for an element in view in an onboarding step with content under
 *    it: when the Link page reports no height, the declared height; and when it reports 160 px less (the
 *    integrator's declared height was off: held, the box keeps its room until the user is in the frame);
 * 3. server-rendered (issues #37 and #41): CLS from first paint to a second after the Link page's first screen, for
 *    a page whose markup and `payroll-link/styles.css` paint first and whose element script comes 500 ms late, with
 *    the real sandbox's own Link page and token (its example backend), at 390x844 and 1280x800: inline (the flow in
 *    the page), and the modal (the button, clicked a second after it upgraded: the modal's first screen a second
 *    later ends the window). Target: at most 0.01.
 */
import { collectPageErrors, launchChromium } from './lib/browser.js';
import { startFakeLinkServer } from './lib/fake-link-server.js';
import { readFile } from 'node:fs/promises';
import { bundlePage, fromRoot } from './lib/bundle.js';
import { send, startHttpServer } from './lib/http-server.js';
import { startPageServer } from './lib/page-server.js';
import { createApiProxy, startServiceStack } from './lib/service-stack.js';
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
  // Held: the box keeps its declared room until a report comes while the user is in the frame (#37).
  { name: 'report 160 px under (480 px)', heights: [480], height: DECLARED },
];

const SSR_SESSIONS = Number(process.env.BENCH_SSR_SESSIONS ?? 10);
/** How late the server-rendered page's element script comes. */
const SCRIPT_LATE_MS = 500;
const VIEWPORTS = [
  { name: '390x844', width: 390, height: 844 },
  { name: '1280x800', width: 1280, height: 800 },
];
/** The server-rendered pages: the element's `display` attribute in each. */
const SSR_MODES = [
  { mode: 'inline', display: 'display="inline"' },
  { mode: 'modal', display: '' },
];
const ssrRows = SSR_MODES.flatMap(({ mode, display }) =>
  VIEWPORTS.map((viewport) => ({ mode, display, viewport, name: `${mode}, ${viewport.name}` })),
);

/**
 * The server-rendered onboarding step: the stylesheet in the head, the element in view with the page's content
 * under it, layout shifts summed from the start (a classic script before any content: it sees every shift).
 * `display`: the element's attribute, inline or (absent) the modal's button.
 */
const ssrPageHtml = (linkUrl: string, display: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Server-rendered</title>
<link rel="stylesheet" href="/styles.css">
<style>body { font: 16px system-ui; margin: 0; } .step { max-width: 640px; margin: 24px auto; padding: 0 12px; } .after { height: 400px; background: #f1f5f9; }</style>
<script>
window.ssrShifts = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.ssrShifts += e.value; }).observe({ type: 'layout-shift', buffered: true });
</script>
<script type="module" src="/page.js"></script>
</head><body><section class="step">
<h1>Step 3 of 4: connect your payroll</h1>
<p>Connect the account your pay goes to.</p>
<payroll-link ${display} token-url="/api/link-token" link-url="${linkUrl}"></payroll-link>
<div class="after">The rest of the step, under the flow.</div>
</section></body></html>`;

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
  await pages.close();
  await link.close();
}

// 3. Server-rendered, with the sandbox's own Link page: CLS from first paint to a second after its first screen.
const ssr: Record<string, number[]> = Object.fromEntries(ssrRows.map((row) => [row.name, []]));
const stack = await startServiceStack({ rateLimitPerSecond: 0 });
const ssrFiles = await bundlePage('bench/pages/inline-ssr-page.ts');
const styles = await readFile(fromRoot('src/element/styles.css'), 'utf8');
const proxy = createApiProxy(stack.backendUrl);
const ssrServer = await startHttpServer(async (req, res, url) => {
  const row = ssrRows.find(({ mode }) => url.pathname === `/${mode}`);
  if (row) return send(res, 200, 'text/html', ssrPageHtml(stack.linkUrl, row.display));
  if (url.pathname === '/styles.css') return send(res, 200, 'text/css', styles);
  const js = ssrFiles.get(url.pathname);
  // The element's script comes late, as on a server-rendered page whose bundle loads after its markup painted.
  if (url.pathname === '/page.js') await new Promise((resolve) => setTimeout(resolve, SCRIPT_LATE_MS));
  if (js !== undefined) return send(res, 200, 'text/javascript', js);
  if (await proxy(req, res, url)) return;
  send(res, 404, 'text/plain', 'not found');
}, 'localhost');
try {
  for (const row of ssrRows) {
    const context = await browser.newContext({ viewport: { width: row.viewport.width, height: row.viewport.height } });
    context.setDefaultTimeout(30_000);
    for (let i = 0; i < SSR_SESSIONS; i++) {
      const page = await context.newPage();
      const pageErrors = collectPageErrors(page);
      try {
        await page.goto(`${ssrServer.url}/${row.mode}`);
        if (row.mode === 'modal') {
          // The button upgraded, a second for anything it moves; then the user opens the flow (shifts within
          // 500 ms of the click are the user's doing: Chromium leaves them out).
          await page.locator('payroll-link button').waitFor();
          await page.waitForTimeout(1_000);
          await page.locator('payroll-link button').click();
        }
        const frame = await (
          await page.waitForSelector('[data-payroll-link-inline] iframe, [data-payroll-link-modal] iframe')
        ).contentFrame();
        await frame!.getByRole('heading', { level: 1, name: /wants to switch your direct deposit/ }).waitFor();
        // The window the figure is defined over: the first screen plus a second.
        await page.waitForTimeout(1_000);
        ssr[row.name]!.push(await page.evaluate(() => (window as unknown as { ssrShifts: number }).ssrShifts));
      } finally {
        errors.push(...pageErrors);
        await page.close();
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
  await ssrServer.close();
  await stack.close();
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
const ssrCls = ssrRows.map((row) => ({
  mode: row.mode,
  viewport: row.viewport.name,
  'CLS median': round(summarize(ssr[row.name]!).median, 4),
  'CLS max': round(Math.max(...ssr[row.name]!), 4),
}));
printTable(
  `Server-rendered (script ${SCRIPT_LATE_MS} ms late, sandbox's Link page): CLS from first paint to the first screen + 1 s, ${SSR_SESSIONS} pages each`,
  ssrCls,
);
const ssrWorst = Math.max(...Object.values(ssr).flat());
const ssrMet = ssrWorst <= 0.01;
const noTokens = tokens.below === 0 && errors.length === 0;
const noShift = Math.max(...Object.values(shifts).flat()) === 0;
printTarget(
  'five inline elements below the fold mint nothing without a scroll',
  noTokens,
  `${per100(tokens.below)} per 100 views, ${errors.length} page errors`,
);
printTarget('no layout shift when the session starts (declared height until the user is in the frame)', noShift, JSON.stringify(cls));
printTarget(
  'server-rendered, inline and modal: CLS at most 0.01 from first paint to the first screen + 1 s',
  ssrMet,
  JSON.stringify(ssrCls),
);
const file = await writeResult('inline', {
  views: VIEWS,
  sessions: SESSIONS,
  tokens,
  per100: { below: per100(tokens.below), scrolled: per100(tokens.scrolled) },
  cls,
  ssr: { sessions: SSR_SESSIONS, scriptLateMs: SCRIPT_LATE_MS, cls: ssrCls },
  pageErrors: errors,
  targets: [
    { name: 'inline below the fold: 0 tokens per 100 page views', value: per100(tokens.below), met: noTokens },
    { name: 'inline: CLS 0 when the session starts', value: Math.max(...Object.values(shifts).flat()), met: noShift },
    { name: 'server-rendered, inline and modal: CLS at most 0.01 to the first screen + 1 s', value: ssrWorst, met: ssrMet },
  ],
});
console.log(`wrote ${file}`);
