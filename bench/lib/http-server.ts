/**
 * A tiny node:http server on loopback for bench pages and fakes. Port 0 picks
 * a free port; `close()` also drops kept-alive and hanging connections.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Handles one request; an exception becomes a 500. */
export type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

/** A running server. */
export interface RunningServer {
  /** e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1. `publicHost` names it in `url` (e.g. `localhost`,
 * to make the page a different site from a frame served on `127.0.0.1`).
 */
export async function startHttpServer(handler: Handler, publicHost = '127.0.0.1'): Promise<RunningServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://bench.invalid');
    Promise.resolve(handler(req, res, url)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${publicHost}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Reads a request body as text, up to `limit` bytes (more is cut off: these servers only take small JSON). */
export function readBody(req: IncomingMessage, limit = 100_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      if (text.length < limit) text += chunk;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** Sends a body with a content type and extra headers. */
export function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers }).end(body);
}

/** A small HTML page that loads one module script: what every bench page is. */
export function pageHtml(title: string, script: string, body = ''): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title><script type="module" src="${script}"></script></head>
<body>${body}</body>
</html>
`;
}
