/** Serves a built folder (the demo's Vite build) from memory-free disk reads, with fixed headers on every answer. */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { send } from './http-server.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/** A handler for the files under `root` (`/` is `index.html`); 404 for anything else, never a path outside `root`. */
export function serveStatic(root: string, headers: Record<string, string>) {
  return async (_req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    const path = normalize(decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname));
    if (path.includes('..')) return (send(res, 400, 'text/plain', 'bad path', headers), true);
    try {
      const body = await readFile(join(root, path));
      send(res, 200, TYPES[extname(path)] ?? 'application/octet-stream', body, headers);
    } catch {
      send(res, 404, 'text/plain', 'not found', headers);
    }
    return true;
  };
}
