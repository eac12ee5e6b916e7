/**
 * The Link page built from source, in memory, with esbuild: what the sandbox
 * uses in the repository (`npm run sandbox`, the tests), where the page's
 * source may change between runs. The published sandbox uses
 * `link-page-prebuilt.ts` instead (the package build swaps the module), so it
 * never needs esbuild at run time.
 */
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { LinkPageBuild } from './link-page.js';

const LINK_DIR = new URL('./app/', import.meta.url);
/** The page's script entry. */
export const LINK_APP_ENTRY = fileURLToPath(new URL('link-app.ts', LINK_DIR));
/** The page's HTML. */
export const LINK_INDEX_HTML = fileURLToPath(new URL('link-page.html', LINK_DIR));

/** How the page's script is bundled, here and by the package build (`scripts/build-sandbox.ts`). */
export const LINK_APP_BUILD_OPTIONS = {
  bundle: true,
  format: 'esm',
  minify: true,
  platform: 'browser',
  target: 'es2022',
  logLevel: 'silent',
} as const;

/** The page when `sandbox/link-page/app/link-page.html` does not exist. */
const GENERATED_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Link (sandbox)</title>
<script type="module" src="/link/app.js"></script>
</head>
<body>
<noscript>The Link flow needs JavaScript.</noscript>
</body>
</html>
`;

// One build per source version per process: tests start many sandboxes, and the source does not change under them.
const builds = new Map<string, Promise<LinkPageBuild>>();

/**
 * Builds the Link page (HTML and script bundle) once per version of the source; never throws.
 *
 * @param entry the page's script entry (tests point it elsewhere); `sandbox/link-page/app/link-app.ts` by default.
 */
export const buildLinkPage = async (entry: string = LINK_APP_ENTRY): Promise<LinkPageBuild> => {
  let modified: number;
  try {
    modified = (await stat(entry)).mtimeMs;
  } catch {
    return {
      ok: false,
      reason: `The Link page is not available yet: ${entry === LINK_APP_ENTRY ? 'sandbox/link-page/app/link-app.ts' : entry} does not exist.`,
    };
  }
  const key = `${entry}@${modified}`;
  let pending = builds.get(key);
  if (!pending) {
    pending = bundle(entry);
    builds.set(key, pending);
  }
  return pending;
};

const bundle = async (entry: string): Promise<LinkPageBuild> => {
  try {
    const result = await build({ ...LINK_APP_BUILD_OPTIONS, entryPoints: [entry], write: false });
    const script = result.outputFiles[0]?.text ?? '';
    const html = await readFile(LINK_INDEX_HTML, 'utf8').catch(() => GENERATED_HTML);
    return { ok: true, html, script };
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n').slice(0, 5).join(' ') : String(error);
    return { ok: false, reason: `The Link page could not be built from ${entry}: ${detail}` };
  }
};
