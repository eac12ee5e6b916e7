/**
 * The Link page as the package ships it: `dist/sandbox/link/index.html` and
 * `dist/sandbox/link/app.js`, built by `scripts/build-sandbox.ts` when the
 * package is built and read here once per process. The package build puts this
 * module in place of `link-page-build.ts`, so the published sandbox needs no
 * esbuild (nor TypeScript) at run time. Same name and signature as there.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { LinkPageBuild } from './link-page.js';

let loaded: Promise<LinkPageBuild> | undefined;

/**
 * Reads the prebuilt page next to this module (`./link/`); never throws. Next to it in `dist/sandbox/`, where the
 * package build bundles it, not in the source's `sandbox/link-page/`.
 */
export const buildLinkPage = (): Promise<LinkPageBuild> => {
  loaded ??= read();
  return loaded;
};

const read = async (): Promise<LinkPageBuild> => {
  const dir = new URL('./link/', import.meta.url);
  try {
    const [html, script] = await Promise.all([readFile(new URL('index.html', dir), 'utf8'), readFile(new URL('app.js', dir), 'utf8')]);
    return { ok: true, html, script };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `The Link page files are missing from ${fileURLToPath(dir)} (${detail}); reinstall payroll-link.` };
  }
};
