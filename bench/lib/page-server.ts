/**
 * Serves one bench page on `localhost` (a different site from the Link frame
 * on `127.0.0.1`, as in production): `/` is the HTML, `/page.js` the page's
 * entry bundled (minified and split into chunks, as integrators ship it) with
 * its chunks beside it, and anything else goes to `extra` (token endpoints,
 * proxies).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bundlePage } from './bundle.js';
import { pageHtml, send, startHttpServer, type RunningServer } from './http-server.js';

/** What a bench page server serves. */
export interface PageServerOptions {
  /** The page's script entry, from the repository root, e.g. `bench/pages/soak-page.ts`. */
  entry: string;
  title: string;
  /** HTML inside `<body>`. */
  body?: string;
  /** Other routes; returns false when it does not handle the path. */
  extra?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean;
}

/** Starts a bench page server; the page is at `${url}/`. */
export async function startPageServer(options: PageServerOptions): Promise<RunningServer> {
  const files = await bundlePage(options.entry);
  const html = pageHtml(options.title, '/page.js', options.body ?? '');
  return startHttpServer(async (req, res, url) => {
    if (url.pathname === '/') return send(res, 200, 'text/html', html);
    const js = files.get(url.pathname);
    if (js !== undefined) return send(res, 200, 'text/javascript', js);
    if (options.extra && (await options.extra(req, res, url))) return;
    send(res, 404, 'text/plain', 'not found');
  }, 'localhost');
}
