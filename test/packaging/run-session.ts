// One Link session in an example app, driven in Chromium as a user would, and the checks every
// app shares. The apps report what they saw through test/packaging/apps/shared/harness.ts.
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { Seen } from './apps/shared/harness.js';

/** The ids the fake Link page sends (test/browser/fake-link/fake-link.ts, scenario "success"). */
export const FAKE_ACCOUNT_ID = '3f0c2a3e-5d6b-4c8d-9e0f-1a2b3c4d5e6f';
export const FAKE_JOB_ID = '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The fake Link page's URL for a session that logs in and succeeds. */
export const successfulLinkUrl = (fakeLinkOrigin: string) => `${fakeLinkOrigin}/fake-link.html?scenario=success`;

/** The fake token endpoint's path for one session: its calls are counted under `key`. */
export const fakeTokenPath = (key: string) => `/fake-token?key=${key}&plan=ok`;

/** How to run one session. */
export interface SessionPlan {
  /** The app's page. */
  pageUrl: string;
  /** The key of the session's fake token endpoint (see {@link fakeTokenPath}). */
  key: string;
  /** Any app server: each one answers `/fake-token/calls`. */
  callsOrigin: string;
  /** Whether the app asks for `prefetch`: then the token request must leave before the click. */
  prefetch: boolean;
  /** The page's token request, as the browser sends it. */
  isTokenRequest: (url: URL) => boolean;
}

/** What one session in one app showed. */
export interface SessionResult {
  seen: Seen[];
  tokenCalls: Array<{ method: string; body: string }>;
  litCopies: number;
  reactVersion: string | undefined;
  effects: number;
  violations: string[];
  /** The docs snippets' `save()` calls, where the app records them. */
  saved: Array<{ accountId: string; jobId: string }>;
  pageErrors: string[];
}

/**
 * Opens the app's page, hovers the button and waits for the token fetched
 * ahead when the app asks for `prefetch`, clicks the button as a user would,
 * and waits for `exit`.
 */
export async function runSession(browser: Browser, plan: SessionPlan): Promise<SessionResult> {
  const page: Page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  try {
    const tokenRequest = page.waitForRequest((request) => plan.isTokenRequest(new URL(request.url())), { timeout: 10_000 });
    await page.goto(plan.pageUrl);
    // The app's recorder is running (the Next.js app starts it after hydration).
    await page.waitForFunction(() => Array.isArray(window.payrollLinkSeen), undefined, { timeout: 10_000 });
    // With prefetch, the token is on its way once the pointer is over the button, before any click.
    if (plan.prefetch) {
      await page.locator('payroll-link button').hover();
      await tokenRequest;
    }
    await page.locator('payroll-link button').click();
    // The session's end, or a policy violation (the plain page records them) that would stop it.
    const ended = () => window.payrollLinkSeen?.some((seen) => seen.kind === 'exit') || (window.payrollLinkViolations?.length ?? 0) > 0;
    await page.waitForFunction(ended, undefined, { timeout: 15_000 });
    const state = await page.evaluate(() => ({
      seen: window.payrollLinkSeen,
      litCopies: (window.litElementVersions ?? []).length,
      reactVersion: window.payrollLinkReact,
      effects: window.payrollLinkEffects ?? 0,
      violations: window.payrollLinkViolations ?? [],
      saved: window.payrollLinkSaved ?? [],
    }));
    const calls = await fetch(`${plan.callsOrigin}/fake-token/calls?key=${plan.key}`);
    const tokenCalls = (await calls.json()) as SessionResult['tokenCalls'];
    return { ...state, tokenCalls, pageErrors };
  } finally {
    await page.close();
  }
}

/** The checks every app shares: typed details with the fake's ids, in order, one frame, one token, one Lit. */
export function assertSession(result: SessionResult, endUserId: string): void {
  assert.deepEqual(result.pageErrors, []);
  assert.deepEqual(
    result.seen.map((s) => s.kind),
    ['open', 'login', 'success', 'exit'],
  );
  const [open, login, success, exit] = result.seen as [Seen, Seen, Seen, Seen];
  const linkTokenId = (open.detail as { linkTokenId: string }).linkTokenId;
  assert.match(linkTokenId, UUID);
  assert.deepEqual(login.detail, {
    accountId: FAKE_ACCOUNT_ID,
    platformId: (login.detail as { platformId: string }).platformId,
    linkTokenId,
  });
  assert.deepEqual(success.detail, { accountId: FAKE_ACCOUNT_ID, jobId: FAKE_JOB_ID, linkTokenId });
  assert.deepEqual(exit.detail, { reason: 'completed', error: null, linkTokenId, accountId: FAKE_ACCOUNT_ID });
  // One Link frame while the session runs, none once it has ended.
  assert.deepEqual(
    result.seen.map((s) => s.frames),
    [1, 1, 1, 0],
  );
  assert.equal(result.tokenCalls.length, 1, 'one token fetch per session');
  assert.equal(result.tokenCalls[0]!.method, 'POST');
  assert.deepEqual(JSON.parse(result.tokenCalls[0]!.body), { end_user_id: endUserId });
  assert.equal(result.litCopies, 1, 'one copy of Lit on the page');
}
