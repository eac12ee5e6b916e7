/**
 * Debian's Chromium through playwright-core, with the same path and flags as
 * the browser tests (`test/browser/chromium.mjs`).
 */
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../test/browser/chromium.mjs';

/** Where Chromium is: `CHROME_PATH`, else Debian's. */
export const chromePath = (): string => chromiumPath;

/** Launches headless Chromium. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

/** A DevTools Protocol session on the page's main frame. */
export function cdpSession(page: Page): Promise<CDPSession> {
  return page.context().newCDPSession(page);
}

/** Collects the page's uncaught errors and unhandled rejections. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
