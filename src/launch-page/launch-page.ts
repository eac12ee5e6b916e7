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
import type { PayrollLinkEventName } from '../element/events.js';
import type { LaunchPageConfig } from '../server/launches/launch-page.js';
import type { SuccessDetail } from '../protocol.js';

const config = JSON.parse(document.getElementById('payroll-link-launch')!.textContent!) as LaunchPageConfig;
const link = document.querySelector<PayrollLink>('payroll-link')!;
const status = document.getElementById('payroll-link-launch-status')!;

// The first message: the app lets the Link page load in the page's frame, and nothing else but this page.
toApp('launch-start', { linkOrigin: new URL(config.linkUrl).origin });

// Every event of the element goes to the app: a record of them all, so that an event the map gains and this page
// does not forward is a type error here. But `link-ready`: the element fires it for a prefetched frame only, and
// this page never prefetches (nothing is minted before the tap).
const EVENTS = Object.keys({
  'link-open': 1,
  'link-login': 1,
  'link-success': 1,
  'link-error': 1,
  'link-exit': 1,
  'link-event': 1,
} satisfies Record<Exclude<PayrollLinkEventName, 'link-ready'>, 1>) as Exclude<PayrollLinkEventName, 'link-ready'>[];
for (const name of EVENTS) link.addEventListener(name, (event) => toApp(name, event.detail));
// A WebView opens a new window badly: the app opens it (the system browser, an auth session).
if (inApp) link.onOpenUrl = (url) => toApp('open-url', { url });

/** Set by a tap the user made (not a script's click): a messaging app's preview that runs the page mints nothing. */
let tapped = false;
link.addEventListener('click', (event) => (tapped ||= event.isTrusted), { capture: true });

/** The receipt of the latest token, and the success of its flow: what the result report carries. */
let receipt: string | null = null;
let success: SuccessDetail | null = null;

/** The page's own answers to a token route that refuses: the link is used up, expired, revoked or done. */
const REFUSALS: Record<number, keyof LaunchPageConfig['words']> = { 409: 'connected', 410: 'expired', 429: 'tooMany' };

link.fetchToken = async () => {
  if (!tapped) throw new Error('No tap on the button yet: nothing is minted without the user.');
  const response = await fetch(config.tokenPath, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (!response.ok) {
    const refusal = REFUSALS[response.status];
    if (refusal) {
      const body = (await response.json().catch(() => null)) as { error?: { error_codes?: { error_code?: string }[] } } | null;
      const code = body?.error?.error_codes?.[0]?.error_code;
      status.textContent = config.words[code === 'LAUNCH_REVOKED' ? 'revoked' : refusal];
      link.hidden = true;
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

/** A link back to where the flow returns: browsers may refuse an app's scheme to a script long after the tap. */
function showReturnLink(redirect: string): void {
  const back = document.createElement('a');
  back.href = redirect;
  back.textContent = config.words.back;
  status.append(' ', back);
}

link.addEventListener('link-exit', async ({ detail }) => {
  const linkTokenId = detail.linkTokenId;
  // No token (the tap's fetch was refused): there is no flow to report, and the page already says why.
  if (receipt === null || linkTokenId === null) return;
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
  if (!answer) {
    status.textContent = config.words.unconfirmed;
    // The app still hears that the flow ended (and asks its own backend what came of it).
    toApp('launch-done', { status: body.status, redirect: null });
    return;
  }
  toApp('launch-done', answer);
  if (answer.status === 'success') link.hidden = true;
  status.textContent = config.words[answer.status === 'success' ? 'finished' : 'left'];
  if (answer.redirect) {
    showReturnLink(answer.redirect);
    location.assign(answer.redirect);
  }
});
