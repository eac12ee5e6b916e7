/**
 * The browser engine running this test page, from its user agent (test code only: the widget itself never
 * asks). For the few behaviours only some engines show, so each test runs where its behaviour shows and says
 * which engine covers what.
 */
export type Engine = 'chromium' | 'firefox' | 'webkit';

function detect(userAgent: string): Engine {
  if (/\bFirefox\//.test(userAgent)) return 'firefox';
  if (/\b(Chrome|Chromium|HeadlessChrome)\//.test(userAgent)) return 'chromium';
  // WebKitGTK's MiniBrowser, like Safari, says AppleWebKit and Safari without Chrome.
  if (/\bAppleWebKit\//.test(userAgent)) return 'webkit';
  throw new Error(`unknown browser engine: ${userAgent}`);
}

export const engine: Engine = detect(navigator.userAgent);
