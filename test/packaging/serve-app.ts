// Serves a built example app on loopback with the fake token endpoint beside it (same origin, as
// an integrator's backend would be). The app is reached as http://localhost:port, the fake Link
// page as http://127.0.0.1:port: two origins, so the widget's origin checks are real.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';
import { handleFakeTokenRequest } from '../browser/fake-servers.mjs';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
};

/** Options of {@link serveApp}. */
export interface ServeOptions {
  /** URL path prefix → folder. The longest matching prefix wins. */
  mounts: Record<string, string>;
  /** Response headers for HTML pages, e.g. a Content-Security-Policy. */
  pageHeaders?: Record<string, string>;
  /**
   * Token routes an app calls by a fixed path (the docs' `/api/link-token`) → the fake
   * token endpoint's path and query that answers them, as the integrator's backend would.
   */
  tokenRoutes?: Record<string, string>;
}

/** A running app server. */
export interface AppServer {
  origin: string;
  close(): Promise<void>;
}

/** Fills `%QUERY:name%` in a page with the page's query parameter `name`, escaped for an attribute value. */
function fillFromQuery(html: string, query: URLSearchParams): string {
  const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  return html.replace(/%QUERY:(\w+)%/g, (_, name: string) => escape(query.get(name) ?? ''));
}

export async function serveApp(options: ServeOptions): Promise<AppServer> {
  const prefixes = Object.keys(options.mounts).sort((a, b) => b.length - a.length);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const tokenRoute = options.tokenRoutes?.[path];
      if (tokenRoute !== undefined) req.url = tokenRoute;
      if (await handleFakeTokenRequest(req, res)) return;
      // Browsers ask for it by themselves; a 404 would show up as a console error in every app.
      if (path === '/favicon.ico') return void res.writeHead(204).end();
      const prefix = prefixes.find((p) => path.startsWith(p));
      const file = prefix === undefined ? undefined : normalize(join(options.mounts[prefix]!, path.slice(prefix.length)));
      if (!file || !file.startsWith(normalize(options.mounts[prefix!]!)) || !(await stat(file).catch(() => null))?.isFile()) {
        res.writeHead(404).end();
        return;
      }
      const type = types[extname(file)] ?? 'application/octet-stream';
      if (type.startsWith('text/html')) {
        const html = fillFromQuery(await readFile(file, 'utf8'), new URL(req.url ?? '/', 'http://x').searchParams);
        res.writeHead(200, { 'content-type': type, ...options.pageHeaders }).end(html);
      } else {
        res.writeHead(200, { 'content-type': type }).end(await readFile(file));
      }
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
