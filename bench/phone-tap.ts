/**
 * Bench 1b, open latency on a phone (issue #28): a tap → Link open, in headless Chromium in a touch context
 * (390x844, `hasTouch`, `isMobile`: the page matches `(hover: none)`, checked per session), on loopback
 * against the real sandbox Link page and the real example backend. A tap is real touch events: touchstart,
 * then touchend 80 ms later (a human tap), with no pointer moving before it; the page has a mobile viewport tag, so no
 * double-tap delay comes between the touchend and the click. Three variants, interleaved, each
 * session in a fresh page that the user looks at for a second before tapping: a bare `<iframe>` inserted on the click (baseline), `<payroll-link prefetch>`, and
 * `<payroll-link>` without prefetch. The clock starts at the click, which follows the touchend, as in the
 * desktop bench (open-latency.ts); the time from the touchstart is reported too.
 */
import type { BrowserContext } from 'playwright-core';
import { launchChromium } from './lib/browser.js';
import { startPageServer } from './lib/page-server.js';
import { printTable, printTarget, writeResult } from './lib/report.js';
import { createApiProxy, startServiceStack } from './lib/service-stack.js';
import { round, summarize } from './lib/stats.js';
import type { LatencyResult } from './pages/latency-page.js';
import { interleave } from './lib/interleave.js';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 30);
const WARMUP = 3;
/** Issue #28: a tap opens `<payroll-link prefetch>` no slower than a bare frame. */
const TARGET_RATIO = 1.0;
/** How long the user looks at the page, the button shown, before tapping it. */
const GLANCE_MS = 1_000;
/** How long the finger rests on the screen: touchstart to touchend. */
const DWELL_MS = 80;
const VARIANTS = ['bare', 'prefetch', 'plain'] as const;
type Variant = (typeof VARIANTS)[number];

interface Sample {
  /** Click → open (ready message for the bare frame, `link-open` for the element). */
  total: number;
  /** Touchstart → open. */
  fromTouch: number;
  /** Click → the frame's ready message reached the page. */
  frame: number;
  /** Session-code chunks the page loaded before the tap. */
  codeBeforeTap: number;
  /** Token requests before the tap. */
  tokensBeforeTap: number;
}

async function session(context: BrowserContext, pageUrl: string, linkUrl: string, variant: Variant): Promise<Sample> {
  const page = await context.newPage();
  const seen = { code: 0, tokens: 0 };
  page.on('request', (request) => {
    if (/\/session-code[^/]*\.js$/.test(new URL(request.url()).pathname)) seen.code++;
    if (request.url().endsWith('/api/link-token')) seen.tokens++;
  });
  try {
    await page.goto(`${pageUrl}/?variant=${variant}&link=${encodeURIComponent(linkUrl)}`);
    const button = page.getByRole('button', { name: 'Connect payroll' });
    await button.waitFor();
    if (!(await page.evaluate(() => window.latency.noHover))) throw new Error('the touch context does not match (hover: none)');
    // A user's glance at the page before the tap, not a synchronisation: the same for every variant, so a
    // build that loads nothing before the tap is measured the same way (what loaded is counted below).
    await page.waitForTimeout(GLANCE_MS);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const before = { ...seen };
    const box = (await button.boundingBox())!;
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const cdp = await context.newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    // The finger's dwell, not a synchronisation: what a human tap is.
    await page.waitForTimeout(DWELL_MS);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForFunction(() => window.latency.readyAt !== null);
    const result: LatencyResult = await page.evaluate(() => window.latency);
    if (result.clickAt === null || result.tapAt === null) throw new Error('the tap made no touchstart or no click');
    return {
      total: result.readyAt! - result.clickAt,
      fromTouch: result.readyAt! - result.tapAt,
      frame: result.frameReadyAt! - result.clickAt,
      codeBeforeTap: before.code,
      tokensBeforeTap: before.tokens,
    };
  } finally {
    await page.close();
  }
}

const stack = await startServiceStack({ rateLimitPerSecond: 0 });
const pages = await startPageServer({
  entry: 'bench/pages/latency-page.ts',
  title: 'Open latency on a phone',
  extra: createApiProxy(stack.backendUrl),
});
const browser = await launchChromium();
let samples: Record<Variant, Sample[]>;
try {
  // One touch context, as one phone's browser: a fresh page per session.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  context.setDefaultTimeout(15_000);
  samples = await interleave(VARIANTS, { warmup: WARMUP, rounds: SESSIONS }, (variant) =>
    session(context, pages.url, stack.linkUrl, variant),
  );
} finally {
  await browser.close();
  await pages.close();
  await stack.close();
}

const total = (v: Variant) => summarize(samples[v].map((s) => s.total));
const fromTouch = (v: Variant) => summarize(samples[v].map((s) => s.fromTouch));
const frame = (v: Variant) => summarize(samples[v].map((s) => s.frame));
const p90 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)]!;
};
const totalP90 = (v: Variant) => p90(samples[v].map((s) => s.total));
const most = (v: Variant, key: 'codeBeforeTap' | 'tokensBeforeTap') => Math.max(0, ...samples[v].map((s) => s[key]));
const bare = total('bare');
const labels: Record<Variant, string> = {
  bare: 'bare <iframe> (baseline)',
  prefetch: '<payroll-link prefetch>',
  plain: '<payroll-link> (no prefetch)',
};
const rows = VARIANTS.map((variant) => ({
  variant: labels[variant],
  n: total(variant).n,
  'median ms': round(total(variant).median),
  'p90 ms': round(totalP90(variant)),
  'median ×bare': round(total(variant).median / bare.median, 2),
  'p90 ×bare': round(totalP90(variant) / totalP90('bare'), 2),
  'touchstart→open ms': round(fromTouch(variant).median),
  'click→frame ready': round(frame(variant).median),
  'code loads before tap': most(variant, 'codeBeforeTap'),
  'tokens before tap': most(variant, 'tokensBeforeTap'),
}));
printTable(
  `Open latency on a phone: tap (${DWELL_MS} ms) → Link open, 390x844 touch (${SESSIONS} sessions each, real sandbox Link page)`,
  rows,
);
const ratio = total('prefetch').median / bare.median;
const met = ratio <= TARGET_RATIO && most('prefetch', 'tokensBeforeTap') === 0;
printTarget(
  `prefetch, tap on a phone: median ≤ ${TARGET_RATIO}× bare, no token before the tap`,
  met,
  `${round(ratio, 2)}× (p90 ${round(totalP90('prefetch') / totalP90('bare'), 2)}×)`,
);
const rounded = (v: Variant) => ({
  n: total(v).n,
  median: round(total(v).median),
  p90: round(totalP90(v)),
  min: round(total(v).min),
  max: round(total(v).max),
});
const file = await writeResult('phone-tap', {
  sessions: SESSIONS,
  warmupRounds: WARMUP,
  dwellMs: DWELL_MS,
  unit: 'ms',
  summary: Object.fromEntries(
    VARIANTS.map((v) => [
      v,
      { clickToOpen: rounded(v), touchstartToOpen: round(fromTouch(v).median), clickToFrameReady: round(frame(v).median) },
    ]),
  ),
  samples: Object.fromEntries(
    VARIANTS.map((v) => [
      v,
      samples[v].map((s) => ({
        total: round(s.total),
        fromTouch: round(s.fromTouch),
        frame: round(s.frame),
        codeBeforeTap: s.codeBeforeTap,
        tokensBeforeTap: s.tokensBeforeTap,
      })),
    ]),
  ),
  ratios: Object.fromEntries(
    VARIANTS.map((v) => [v, { median: round(total(v).median / bare.median, 3), p90: round(totalP90(v) / totalP90('bare'), 3) }]),
  ),
  targets: [
    { name: `prefetch, tap on a phone: median ≤ ${TARGET_RATIO}× bare iframe, no token before the tap`, value: round(ratio, 3), met },
  ],
});
console.log(`wrote ${file}`);
