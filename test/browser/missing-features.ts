// Imported first by missing-features.test.ts, so that it runs before the element's module loads: takes away the
// browser features that jsdom, happy-dom, a server's DOM shim or an old WebView may lack, and that the element or
// the core would call when connected or rendered. The test page is its own (one page per test file).

/** The globals taken away: each is an own property of `window` in every engine (checked by the test). */
export const MISSING_FEATURES = ['matchMedia', 'IntersectionObserver', 'ResizeObserver', 'requestIdleCallback'] as const;

for (const name of MISSING_FEATURES) delete (window as unknown as Record<string, unknown>)[name];

/** Every uncaught error and unhandled rejection on this page since the element loaded. */
export const uncaught: unknown[] = [];
window.addEventListener('error', (event) => uncaught.push(event.error ?? event.message));
window.addEventListener('unhandledrejection', (event) => uncaught.push(event.reason));
