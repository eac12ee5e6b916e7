/**
 * The tests' fake Link page (`test/browser/fake-link/`) served by a plain Node
 * server on 127.0.0.1: the second origin of the bench pages, which run on
 * `localhost`. Bench-only pages (the fuzz frames) can be served beside it.
 * It fakes the hosted Link flow, which lies outside the widget under test.
 */
import { readFile } from 'node:fs/promises';
import { bundleEntry, fromRoot } from './bundle.js';
import { pageHtml, send, startHttpServer, type RunningServer } from './http-server.js';

/** Extra pages: path of the HTML (e.g. `/fuzz-link.html`) → entry file from the repository root. */
export type ExtraPages = Record<string, string>;

/** Starts the fake Link origin. Its page is at `${url}/fake-link.html?scenario=...`. */
export async function startFakeLinkServer(extra: ExtraPages = {}): Promise<RunningServer> {
  const html = await readFile(fromRoot('test/browser/fake-link/fake-link.html'), 'utf8');
  const js = await bundleEntry('test/browser/fake-link/fake-link.ts');
  const files = new Map<string, { type: string; body: string }>([
    ['/fake-link.html', { type: 'text/html', body: html }],
    ['/fake-link.js', { type: 'text/javascript', body: js }],
  ]);
  for (const [path, entry] of Object.entries(extra)) {
    const script = path.replace(/\.html$/, '.js');
    files.set(path, { type: 'text/html', body: pageHtml(path, script) });
    files.set(script, { type: 'text/javascript', body: await bundleEntry(entry) });
  }
  return startHttpServer((_req, res, url) => {
    const file = files.get(url.pathname);
    if (file) send(res, 200, file.type, file.body);
    else send(res, 404, 'text/plain', 'not found');
  });
}
