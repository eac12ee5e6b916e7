/**
 * Bench 4, token backend faults: each row scripts the integrator's token
 * endpoint (a fake: it stands outside the widget) to fail one way, clicks
 * `<payroll-link>` with the widget's default tuning (15 s per try, 3 tries,
 * 400 ms backoff base) and records what the user saw and when. Every row must
 * end in a defined state: the Link frame open, or one `link-exit` with a typed
 * error, the button's error state, no spinner and no modal left.
 */
import { collectPageErrors, launchChromium } from './lib/browser.js';
import { startFakeLinkServer } from './lib/fake-link-server.js';
import { startPageServer } from './lib/page-server.js';
import { printTable, printTarget, writeResult } from './lib/report.js';
import { round } from './lib/stats.js';
import { createTokenEndpoint } from './lib/token-endpoint.js';
import type { FaultOutcome, FaultRow } from './pages/faults-page.js';

interface Fault {
  fault: string;
  plan: string;
  prefetch?: boolean;
  clickAfterMs?: number;
  /** What a correct widget does: open the flow, or end with this error code. */
  expect: 'open' | string;
}

const FAULTS: Fault[] = [
  { fault: 'none (baseline)', plan: 'ok', expect: 'open' },
  { fault: 'timeout: endpoint never answers', plan: 'hang', expect: 'TOKEN_TIMEOUT' },
  { fault: '429 once, Retry-After: 1', plan: '429r1,ok', expect: 'open' },
  { fault: '429 always, Retry-After: 1', plan: '429r1', expect: 'TOKEN_HTTP_429' },
  { fault: '429, Retry-After: 120 (too long to wait)', plan: '429r120', expect: 'TOKEN_HTTP_429' },
  { fault: '503 twice, then ok', plan: '503,503,ok', expect: 'open' },
  { fault: '503 thrice', plan: '503', expect: 'TOKEN_HTTP_503' },
  { fault: 'malformed JSON', plan: 'malformed', expect: 'TOKEN_MALFORMED' },
  { fault: 'schema-invalid envelope', plan: 'invalid', expect: 'TOKEN_INVALID' },
  { fault: 'expired token', plan: 'expired', expect: 'TOKEN_EXPIRED' },
  { fault: 'prefetched token went stale before the click', plan: 'ttl2000,ok', prefetch: true, clickAfterMs: 1_200, expect: 'open' },
  { fault: 'connection reset once, then ok', plan: 'reset,ok', expect: 'open' },
  { fault: 'connection reset thrice', plan: 'reset', expect: 'TOKEN_NETWORK' },
  { fault: 'HTTP 401 (not retried)', plan: '401', expect: 'TOKEN_HTTP_401' },
];
/** Rows that take long by design run in their own page, beside the others. */
const SLOW = new Set(['hang']);

const tokens = createTokenEndpoint();
const link = await startFakeLinkServer();
const pages = await startPageServer({ entry: 'bench/pages/faults-page.ts', title: 'Token faults', extra: tokens });
const browser = await launchChromium();
const results = new Map<Fault, { outcome: FaultOutcome; calls: number }>();
const pageErrors: string[][] = [];
const started = Date.now();
try {
  const context = await browser.newContext();
  context.setDefaultTimeout(90_000);
  const runRow = async (fault: Fault, page: Awaited<ReturnType<typeof context.newPage>>) => {
    const key = `${FAULTS.indexOf(fault)}-${fault.plan}`;
    const row: FaultRow = {
      tokenUrl: `/token?key=${encodeURIComponent(key)}&plan=${fault.plan}`,
      linkUrl: `${link.url}/fake-link.html?scenario=idle`,
      prefetch: fault.prefetch ?? false,
      clickAfterMs: fault.clickAfterMs ?? 0,
    };
    const outcome = await page.evaluate((r) => window.faults.run(r), row);
    const { calls } = (await (await fetch(`${pages.url}/token/calls?key=${encodeURIComponent(key)}`)).json()) as { calls: number };
    results.set(fault, { outcome, calls });
  };
  const open = async () => {
    const page = await context.newPage();
    pageErrors.push(collectPageErrors(page));
    await page.goto(pages.url);
    await page.waitForFunction(() => window.faults !== undefined);
    return page;
  };
  const slow = Promise.all(FAULTS.filter((f) => SLOW.has(f.plan)).map(async (fault) => runRow(fault, await open())));
  const page = await open();
  for (const fault of FAULTS.filter((f) => !SLOW.has(f.plan))) await runRow(fault, page);
  await slow;
} finally {
  await browser.close();
  await pages.close();
  await link.close();
}

/** A row ends in a defined state: open with a frame and no spinner, or one exit with a typed error and the error state. */
function judge(fault: Fault, { outcome: o }: { outcome: FaultOutcome }) {
  const exits = o.events.filter((e) => e === 'link-exit').length;
  if (o.outcome === 'open') {
    const defined =
      o.state.dialogs === 1 && o.state.frames === 1 && o.state.buttonBusy === 'false' && o.closedAfterOpen === 'closed_by_host';
    return { defined, asExpected: fault.expect === 'open', seen: 'Link frame open' };
  }
  if (o.outcome === 'exit' && o.exit) {
    const error = o.exit.error;
    const defined =
      exits === 1 &&
      o.events.at(-1) === 'link-exit' &&
      o.exit.reason === 'error' &&
      error !== null &&
      ['networkError', 'invalidLinkToken'].includes(error.type) &&
      o.errors.length === 1 &&
      o.state.dialogs === 0 &&
      o.state.frames === 0 &&
      o.state.buttonBusy === 'false' &&
      o.state.errorShown &&
      !o.state.open;
    return { defined, asExpected: error?.code === fault.expect, seen: `error state: ${error?.type}/${error?.code}` };
  }
  return { defined: false, asExpected: false, seen: 'nothing (stuck)' };
}

const rows = FAULTS.map((fault) => {
  const result = results.get(fault)!;
  const verdict = judge(fault, result);
  return {
    fault: fault.fault,
    plan: fault.plan,
    'what the user saw': verdict.seen,
    'after ms': round(result.outcome.ms, 0),
    'token calls': result.calls,
    'defined state': verdict.defined,
    expected: verdict.asExpected,
  };
});
printTable(
  `Token backend faults (${round((Date.now() - started) / 1000)} s; default tuning: 15 s per try, 3 tries, backoff 400 ms base)`,
  rows,
);
const allDefined = rows.every((r) => r['defined state']);
const allExpected = rows.every((r) => r.expected);
printTarget('every row ends in a defined state', allDefined, `${rows.filter((r) => r['defined state']).length}/${rows.length}`);
printTarget('every row ends as the contract says', allExpected, `${rows.filter((r) => r.expected).length}/${rows.length}`);
const uncaught = pageErrors.flat();
printTarget('no uncaught errors', uncaught.length === 0, String(uncaught.length));
const file = await writeResult('token-faults', {
  tuning: { timeoutMs: 15_000, maxAttempts: 3, backoffBaseMs: 400, maxRetryWaitMs: 10_000 },
  rows: FAULTS.map((fault, i) => ({ ...rows[i], expect: fault.expect, detail: results.get(fault) })),
  pageErrors: uncaught,
  targets: [
    { name: 'every row ends in a defined state', met: allDefined },
    { name: 'every row ends as the contract says', met: allExpected },
    { name: 'no uncaught errors', met: uncaught.length === 0 },
  ],
});
console.log(`wrote ${file}`);
