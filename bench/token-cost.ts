/**
 * Bench 8, token cost (issue #17): every token is a billable `POST
 * /link_tokens` at the service. Counts the token requests `<payroll-link>`
 * sends per 100 page views with no interaction, per 100 page views with one
 * hover and no click, and per 100 completed sessions (hover, click, the flow
 * runs to its end), for `prefetch` (on intent), `prefetch="load"` and no
 * prefetch. Each view is a fresh page of one browser context, against the
 * tests' fake Link page and a fake token endpoint (both outside the widget).
 * Open latency for the same three is in the open-latency bench.
 */
import { collectPageErrors, launchChromium } from './lib/browser.js';
import { startFakeLinkServer } from './lib/fake-link-server.js';
import { startPageServer } from './lib/page-server.js';
import { printTable, printTarget, writeResult } from './lib/report.js';
import { createTokenEndpoint } from './lib/token-endpoint.js';

const VIEWS = Number(process.env.BENCH_VIEWS ?? 100);
const MODES = ['intent', 'load', 'off'] as const;
const USES = ['view', 'hover', 'session'] as const;
type Mode = (typeof MODES)[number];
type Use = (typeof USES)[number];

const link = await startFakeLinkServer();
const pages = await startPageServer({ entry: 'bench/pages/token-cost-page.ts', title: 'Token cost', extra: createTokenEndpoint() });
const browser = await launchChromium();
const counts = Object.fromEntries(MODES.map((m) => [m, { view: 0, hover: 0, session: 0 }])) as Record<Mode, Record<Use, number>>;
const errors: string[] = [];
try {
  const context = await browser.newContext();
  context.setDefaultTimeout(15_000);
  for (let i = 0; i < VIEWS; i++) {
    for (const mode of MODES) {
      for (const use of USES) {
        const page = await context.newPage();
        const pageErrors = collectPageErrors(page);
        try {
          const scenario = use === 'session' ? 'success' : 'idle';
          const linkUrl = `${link.url}/fake-link.html?scenario=${scenario}`;
          await page.goto(`${pages.url}/?prefetch=${mode}&key=${mode}-${use}-${i}&link=${encodeURIComponent(linkUrl)}`);
          await page.evaluate(() => window.tokenCost.settled());
          const button = page.getByRole('button', { name: 'Connect payroll' });
          if (use === 'hover') await button.hover();
          if (use === 'session') {
            await button.click();
            const reason = await page.evaluate(() => window.tokenCost.exit);
            if (reason !== 'completed') throw new Error(`session ended ${reason}`);
          }
          await page.evaluate(() => window.tokenCost.settled());
          counts[mode][use] += await page.evaluate(() => window.tokenCost.requests());
        } finally {
          errors.push(...pageErrors);
          await page.close();
        }
      }
    }
    if ((i + 1) % 25 === 0) process.stdout.write(`  ${i + 1}/${VIEWS} views of each\n`);
  }
} finally {
  await browser.close();
  await pages.close();
  await link.close();
}

const per100 = (n: number) => Math.round((n * 100) / VIEWS);
const labels: Record<Mode, string> = {
  intent: '<payroll-link prefetch>',
  load: '<payroll-link prefetch="load">',
  off: '<payroll-link> (no prefetch)',
};
const rows = MODES.map((mode) => ({
  variant: labels[mode],
  'per 100 page views, no interaction': per100(counts[mode].view),
  'per 100 hovers, no click': per100(counts[mode].hover),
  'per 100 completed sessions': per100(counts[mode].session),
}));
printTable(`Tokens minted (token requests sent), ${VIEWS} fresh page views of each kind`, rows);
const met = counts.intent.view === 0 && errors.length === 0;
printTarget(
  'prefetch mints no token on a page view without interaction',
  met,
  `${per100(counts.intent.view)} per 100 views, ${errors.length} page errors`,
);
const file = await writeResult('token-cost', {
  views: VIEWS,
  counts,
  per100: Object.fromEntries(MODES.map((m) => [m, Object.fromEntries(USES.map((u) => [u, per100(counts[m][u])]))])),
  pageErrors: errors,
  targets: [{ name: 'prefetch: 0 tokens per page view without interaction', value: per100(counts.intent.view), met }],
});
console.log(`wrote ${file}`);
