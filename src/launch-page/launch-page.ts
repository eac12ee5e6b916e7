/**
 * The launch page's own script (`payroll-link/server/launches` serves the page; `scripts/build-package.ts` bundles this
 * with the element and its session code into one string, `LAUNCH_PAGE_SCRIPT`). It mints a Link token only after a
 * trusted tap on the element's button, keeps the receipt that comes with it, reports how the flow ended once
 * `link-exit` has fired (so that the Link page's own last screen was seen), and then goes to the redirect. Inside an
 * app's WebView it posts every event to the app (see `src/launch-bridge.ts`).
 */
import './page-setup.js';
import { inApp, toApp } from './app-bridge.js';
import '../element/payroll-link.js';
import type { PayrollLink } from '../element/payroll-link.js';
import { ELEMENT_EVENTS, type BridgedEventName, type ElementEventRow } from '../protocol/element-events.js';
import type { LaunchPageConfig } from '../server/launches/launch-page.js';
import type { SuccessDetail } from '../protocol.js';

const config = JSON.parse(document.getElementById('payroll-link-launch')!.textContent!) as LaunchPageConfig;
const link = document.querySelector<PayrollLink>('payroll-link')!;
const status = document.getElementById('payroll-link-launch-status')!;

// The first message: the app lets the Link page load in the page's frame, and nothing else but this page.
toApp('launch-start', { linkOrigin: new URL(config.linkUrl).origin });

// Every event of the element a launch page forwards (`bridge: true` in the events' table) goes to the app.
for (const [name, row] of Object.entries(ELEMENT_EVENTS) as [BridgedEventName, ElementEventRow][])
  if (row.bridge !== false) link.addEventListener(name, (event) => toApp(name, event.detail));
// A WebView opens a new window badly: the app opens it (the system browser, an auth session).
if (inApp) link.onOpenUrl = (url) => toApp('open-url', { url });

/** Set by a tap the user made (not a script's click): a messaging app's preview that runs the page mints nothing. */
let tapped = false;
link.addEventListener('click', (event) => (tapped ||= event.isTrusted), { capture: true });

/** The receipt of the latest token, and the success of its flow: what the result report carries. */
let receipt: string | null = null;
let success: SuccessDetail | null = null;

/**
 * Ends what the page offers: its words in the status (the expiry's with the app's way to a new link, when it gave one),
 * and the button gone. Focus on the button moves to the status first, so that it never falls to `<body>` (the status
 * takes focus by script only: tabindex -1).
 */
function end(text: string): void {
  status.textContent = text;
  if (text === config.words.expired && config.newLinkUrl) appendLink(config.newLinkUrl, config.words.newLink);
  if (document.activeElement === link) status.focus();
  link.hidden = true;
}

/** A link after the status's words: where the flow returns, or the app's way to a new link. */
function appendLink(href: string, text: string): void {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.textContent = text;
  status.append(' ', anchor);
}

/** How long the link still works, in ms, by the server's clock when it sent the page. */
const lasts = config.expiresIn * 1000;
/**
 * When the link stops working, on this device's clock: the server's time remaining added to it, so that a clock set
 * wrong moves the deadline with the time the user reads on it.
 */
const deadline = Date.now() + lasts;
{
  const at = new Date(deadline);
  // Today's words and format, or another day's (with the date): a link lasts 7 days at most, so the day of the month
  // tells. toLocaleString is Intl.DateTimeFormat's, in the page's language.
  const [words, format] = config.until[+(at.getDate() !== new Date().getDate())]!;
  document.getElementById('payroll-link-launch-expiry')!.textContent = words.replace(
    '{t}',
    at.toLocaleString(document.documentElement.lang, format),
  );
}

/**
 * Two minutes ahead, the warning; at the end, the expiry. Only while the flow is not open (one open may still finish
 * within the grace after expiry): its exit asks again. A timer may fire a little early: a second's slack.
 */
function checkTime(): void {
  const left = deadline - Date.now();
  if (link.open || link.hidden) return;
  if (left < 1000) end(config.words.expired);
  else if (left < 121_000) status.textContent = config.words.soon;
}
setTimeout(checkTime, lasts - 120_000);
setTimeout(checkTime, lasts);

/** The page's own answers to a token route that refuses: the link is used up, expired, revoked or done. */
const REFUSALS: Record<number, 'connected' | 'expired' | 'tooMany'> = { 409: 'connected', 410: 'expired', 429: 'tooMany' };

link.fetchToken = async () => {
  if (!tapped) throw new Error('No tap on the button yet: nothing is minted without the user.');
  const response = await fetch(config.tokenPath, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (!response.ok) {
    const refusal = REFUSALS[response.status];
    if (refusal) {
      const body = (await response.json().catch(() => null)) as { error?: { error_codes?: { error_code?: string }[] } } | null;
      const code = body?.error?.error_codes?.[0]?.error_code;
      end(config.words[code === 'LAUNCH_REVOKED' ? 'revoked' : refusal]);
    }
    throw new Error(`The launch's token route answered HTTP ${response.status}.`);
  }
  const body = (await response.json()) as {
    data: { id: string; token: string; expires: string; mode: 'sandbox' | 'development' | 'production' };
    receipt: string;
  };
  receipt = body.receipt;
  success = null;
  return body.data;
};

link.addEventListener('link-success', (event) => (success = event.detail));

/** Tries of the report on a 503 or a lost connection. */
const REPORT_TRIES = 3;
/** Asks, at most, about a success whose job is still running: the server settles it within about a minute. */
const WAITING_ASKS = 30;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The server's Retry-After, in ms: 1 to 60 s, 5 s when it says none. */
const retryAfterMs = (response: Response) => Math.min(Math.max(Number(response.headers.get('retry-after')) || 5, 1), 60) * 1000;

/**
 * Sends the report; a 503 or a lost connection is tried again, and while the server waits for the flow's job (202)
 * or has checked it often (429) the page says it is finishing and asks again when told. The answer, or null.
 */
async function report(body: Record<string, unknown>): Promise<{ status: 'success' | 'exit'; redirect: string | null } | null> {
  let failures = 0;
  for (let asks = 0; asks < WAITING_ASKS; asks++) {
    let response: Response | null = null;
    try {
      response = await fetch(config.resultPath, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch {
      // Lost on the way: try again.
    }
    if (response?.status === 200)
      return ((await response.json()) as { data: { status: 'success' | 'exit'; redirect: string | null } }).data;
    if (response?.status === 202 || response?.status === 429) {
      status.textContent = config.words.finishing;
      await wait(retryAfterMs(response));
      continue;
    }
    if (response && response.status !== 503) return null;
    if (++failures === REPORT_TRIES) return null;
    await wait(1_000 * failures);
  }
  return null;
}

link.addEventListener('link-exit', async ({ detail }) => {
  const linkTokenId = detail.linkTokenId;
  // No token (the tap's fetch was refused): there is no flow to report, and the page already says why. The modal
  // that went could give focus back only to a button now hidden: the status takes it instead of <body>.
  if (receipt === null || linkTokenId === null) {
    if (link.hidden) status.focus();
    return;
  }
  const body =
    success && success.linkTokenId === linkTokenId
      ? { status: 'success' as const, linkTokenId, accountId: success.accountId, jobId: success.jobId, receipt }
      : {
          status: 'exit' as const,
          linkTokenId,
          exitReason: detail.reason,
          ...(detail.accountId && { accountId: detail.accountId }),
          receipt,
        };
  const answer = await report(body);
  if (answer?.status === 'success') end(config.words.finished);
  else {
    status.textContent = config.words[answer ? 'left' : 'unconfirmed'];
    // Ended without a success: the link's time, which ran on while the flow was open, is told now.
    if (body.status === 'exit') checkTime();
  }
  // The app hears that the flow ended even unconfirmed (and asks its own backend what came of it).
  toApp('launch-done', answer ?? { status: body.status, redirect: null });
  if (answer?.redirect) {
    // A link back too: browsers may refuse an app's scheme to a script long after the tap.
    appendLink(answer.redirect, config.words.back);
    location.assign(answer.redirect);
  }
});
