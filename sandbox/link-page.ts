/**
 * Serves the hosted Link page: `GET /link` (HTML) and `GET /link/app.js`
 * (bundled once, at start-up, from `sandbox/link/link-app.ts` with esbuild, in
 * memory). While the page's source is missing or does not build, both answer
 * 503 with a message that says why, and the rest of the sandbox works on.
 */
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { apiError } from './errors.js';
import type { SandboxResponse } from './http-types.js';
import type { Router } from './router.js';

/** The Link page's headers: strict CSP, embeddable anywhere (it lives in the widget's iframe), no referrer. */
export const LINK_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors *",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

const LINK_DIR = new URL('./link/', import.meta.url);
const ENTRY = fileURLToPath(new URL('link-app.ts', LINK_DIR));
const INDEX = fileURLToPath(new URL('index.html', LINK_DIR));

/** The page when `sandbox/link/index.html` does not exist. */
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

/** The built page, or why there is none. */
export type LinkPageBuild = { readonly ok: true; readonly html: string; readonly script: string } | { readonly ok: false; readonly reason: string };

// One build per source version per process: tests start many sandboxes, and the source does not change under them.
const builds = new Map<string, Promise<LinkPageBuild>>();

/**
 * Builds the Link page (HTML and script bundle) once per version of the source; never throws.
 *
 * @param entry the page's script entry (tests point it elsewhere); `sandbox/link/link-app.ts` by default.
 */
export const buildLinkPage = async (entry: string = ENTRY): Promise<LinkPageBuild> => {
  let modified: number;
  try {
    modified = (await stat(entry)).mtimeMs;
  } catch {
    return { ok: false, reason: `The Link page is not available yet: ${entry === ENTRY ? 'sandbox/link/link-app.ts' : entry} does not exist.` };
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
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      format: 'esm',
      minify: true,
      write: false,
      platform: 'browser',
      target: 'es2022',
      logLevel: 'silent',
    });
    const script = result.outputFiles[0]?.text ?? '';
    const html = await readFile(INDEX, 'utf8').catch(() => GENERATED_HTML);
    return { ok: true, html, script };
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n').slice(0, 5).join(' ') : String(error);
    return { ok: false, reason: `The Link page could not be built from ${entry}: ${detail}` };
  }
};

/** Adds `GET /link` and `GET /link/app.js`. */
export const addLinkPageRoutes = (router: Router<null>, page: LinkPageBuild): void => {
  const unavailable = (): never => {
    throw apiError(503, 'SERVICE_UNAVAILABLE', 'LINK_PAGE_UNAVAILABLE', page.ok ? '' : page.reason);
  };
  router.on('GET', '/link', (): SandboxResponse => {
    if (!page.ok) return unavailable();
    return { status: 200, headers: { ...LINK_PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body: page.html };
  });
  router.on('GET', '/link/app.js', (): SandboxResponse => {
    if (!page.ok) return unavailable();
    return {
      status: 200,
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' },
      body: page.script,
    };
  });
};
