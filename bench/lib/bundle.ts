/**
 * Bundles bench pages (and the tests' fake Link page) with esbuild, in memory,
 * the same way `test/browser/fake-servers.mjs` bundles the fake Link page.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = new URL('../../', import.meta.url);

/** Path of a file from the repository root. */
export const fromRoot = (path: string): string => fileURLToPath(new URL(path, ROOT));

const cache = new Map<string, Promise<string>>();

/** The browser bundle (ESM, ES2022) of an entry file given from the repository root; built once per process. */
export function bundleEntry(entry: string): Promise<string> {
  let pending = cache.get(entry);
  if (!pending) {
    pending = build({
      entryPoints: [fromRoot(entry)],
      bundle: true,
      format: 'esm',
      write: false,
      target: 'es2022',
      platform: 'browser',
      logLevel: 'silent',
    }).then((result) => result.outputFiles[0]!.text);
    cache.set(entry, pending);
  }
  return pending;
}

/**
 * A bench page's bundle as an app ships it: minified, with code splitting, so that what the element loads on
 * intent (the session's code) is a chunk the page fetches then, not code inlined in `page.js`. Keys are the
 * served paths: `/page.js` and its chunks.
 */
export async function bundlePage(entry: string): Promise<Map<string, string>> {
  const result = await build({
    entryPoints: { page: fromRoot(entry) },
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: fromRoot('bench/.pages'),
    write: false,
    target: 'es2022',
    platform: 'browser',
    minify: true,
    logLevel: 'silent',
  });
  const outdir = fromRoot('bench/.pages');
  return new Map(result.outputFiles.map((file) => [file.path.slice(outdir.length), file.text]));
}
