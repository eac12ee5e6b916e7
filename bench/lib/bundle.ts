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
export function bundleEntry(entry: string, options: { minify?: boolean } = {}): Promise<string> {
  const key = `${entry}|${options.minify ? 'min' : ''}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = build({
      entryPoints: [fromRoot(entry)],
      bundle: true,
      format: 'esm',
      write: false,
      target: 'es2022',
      platform: 'browser',
      minify: options.minify ?? false,
      logLevel: 'silent',
    }).then((result) => result.outputFiles[0]!.text);
    cache.set(key, pending);
  }
  return pending;
}
