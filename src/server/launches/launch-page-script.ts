/**
 * The launch page's one script: the element, its session code and the page's own (`src/launch-page/launch-page.ts`),
 * bundled by esbuild into one string at build time (`scripts/build-package.ts` writes this module's file in `dist/`),
 * so that the page runs where there is no file system (workerd) and loads no script file. Run from the sources (the
 * Node tests), the page carries this stand-in instead, which marks the page as unbuilt: the tests of the page's
 * behaviour run the built package.
 */
export const LAUNCH_PAGE_SCRIPT: string = 'document.documentElement.dataset.launchPage = "unbuilt";';
