/**
 * Serves a {@link SandboxHandler} with `node:http`. It reads at most
 * `maxBodyBytes + 1` bytes of a body (the rest is drained and dropped, so the
 * client still gets its 413), which lets the handler see "too large" without
 * holding a large body in memory.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { SandboxHandler } from '../app.js';
import { apiError } from './errors.js';

/** Reads the body, keeping at most `limit` bytes. */
const readCapped = (message: IncomingMessage, limit: number): Promise<Uint8Array> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    message.on('data', (chunk: Buffer) => {
      if (kept >= limit) return;
      const part = chunk.subarray(0, limit - kept);
      chunks.push(part);
      kept += part.length;
    });
    message.on('end', () => resolve(Buffer.concat(chunks)));
    message.on('error', reject);
  });

/** The request's URL; `//host/path` and absolute forms keep the target path, never another host. */
const requestUrl = (message: IncomingMessage, origin: string): URL => {
  const raw = message.url ?? '/';
  const url = raw.startsWith('/') ? new URL(origin + raw) : new URL(raw);
  return new URL(url.pathname + url.search, origin);
};

const write = (response: ServerResponse, status: number, headers: Record<string, string>, body: string | Uint8Array): void => {
  // A 204 has no body, and so no Content-Length (RFC 9110, 8.6).
  response.writeHead(status, status === 204 ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  response.end(body);
};

/** A `node:http` server that runs `handler` for each request. */
export const createNodeServer = (handler: SandboxHandler, options: { maxBodyBytes: number; origin: () => string }): Server =>
  createServer((message, response) => {
    void (async () => {
      let url: URL;
      try {
        url = requestUrl(message, options.origin());
      } catch {
        message.resume();
        const error = apiError(400, 'INVALID_REQUEST_PARAMETERS', 'INVALID_URL', 'The request target is not a valid URL').toResponse();
        write(response, error.status, error.headers, error.body);
        return;
      }
      try {
        const body = await readCapped(message, options.maxBodyBytes + 1);
        const headers = new Headers();
        for (const [name, value] of Object.entries(message.headers)) {
          if (typeof value === 'string') headers.set(name, value);
          else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
        }
        const result = await handler({ method: (message.method ?? 'GET').toUpperCase(), url, headers, body });
        write(response, result.status, result.headers, result.body);
      } catch {
        // The client went away mid-request: nothing to answer.
        if (!response.headersSent) response.destroy();
      }
    })();
  });
