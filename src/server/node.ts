/**
 * `payroll-link/server/node`: the handlers of `payroll-link/server` on Node's `http` server and the frameworks built on
 * it (Express 4 and 5, Connect, Fastify). The handlers speak Web `Request`/`Response`; these few functions translate,
 * whether or not a body parser has already read the body, and never let a failure escape into the framework.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { errorResponse } from './error-response.js';
import { describeError } from './describe-error.js';
import { escapeControls } from './handler/escape-controls.js';
import type { Logger } from './logger.js';

/** A Web-standard handler, such as `createLinkTokenHandler()` or `createWebhookHandler()` return. */
export type WebHandler = (request: Request) => Promise<Response>;

/** A Node request, perhaps with the body a framework's body parser left on it (Express, Connect). */
export type NodeRequest = IncomingMessage & { body?: unknown };

/**
 * Node's request as a Web `Request`. An unread body streams through as it is. A body that a parser has already read
 * (`express.json()`, Fastify) cannot be read again, so the parsed value is used instead: `parsedBody` when given, else
 * `req.body`; an object is written back as JSON, a string or a Buffer as it is, and only when the handler reads it
 * (after its authenticity check). The `Content-Type` stays the client's, so the handler still refuses what was not
 * JSON.
 *
 * Behind a body parser the original bytes are gone: a parser that decoded invalid UTF-8 has already turned it into
 * U+FFFD, which then passes as valid text (`express.json()` and Fastify do so). Mount the handlers before any body
 * parser (or with a route-level `express.raw({ type: 'application/json' })`) to have invalid UTF-8 refused with a 400.
 */
export function toWebRequest(req: NodeRequest, parsedBody: unknown = req.body): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of [value ?? []].flat()) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  // A fixed origin: handlers route on the path, and a forged Host header must not shift it.
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers });
  if (!bodyWasRead(req)) {
    return new Request(url, {
      method,
      headers,
      body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
      duplex: 'half', // Node needs this for a streamed request body.
    } as RequestInit);
  }
  // The bytes are gone; what the parser made of them is all there is, and its length is not the original's.
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  if (parsedBody === undefined || parsedBody === null) return new Request(url, { method, headers });
  return new Request(url, { method, headers, body: lazilySerialised(parsedBody), duplex: 'half' } as RequestInit);
}

/**
 * The parsed body written back as JSON only when the handler reads it, which it does after checking authenticity: a
 * stranger's deeply nested JSON costs nothing. A value that cannot be written back (deeper than JSON.stringify can
 * recurse, a cycle, a BigInt) errors the stream, which the handler answers as an unreadable body (400), not as a crash.
 */
function lazilySerialised(body: unknown): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        try {
          const text = serialise(body);
          controller.enqueue(typeof text === 'string' ? new TextEncoder().encode(text) : text);
          controller.close();
        } catch {
          controller.error(new TypeError('the parsed body cannot be written back as JSON'));
        }
      },
    },
    // No read ahead: nothing is serialised until the handler asks for the body.
    { highWaterMark: 0 },
  );
}

/** Whether something (a body parser) has already consumed the request's stream. */
function bodyWasRead(req: IncomingMessage): boolean {
  // readableDidRead: some data was taken; readableEnded: all of it; `_body`: body-parser's own mark.
  return req.readableDidRead || req.readableEnded || (req as { _body?: unknown })._body === true;
}

function serialise(body: unknown): string | Uint8Array {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return JSON.stringify(body);
}

/** Writes a Web `Response` to Node's response. */
export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.appendHeader(name, value));
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /** Where a failure of the adapter itself is logged. Defaults to `console`. */
  log?: Pick<Logger, 'error'>;
}

/**
 * A Web-standard handler as a Node request listener, which is also an Express or Connect route handler:
 * `createServer(toNodeHandler(h))`, `app.post('/api/link-token', toNodeHandler(h))`. It always answers and its promise
 * never rejects: a failure becomes a JSON 500 in the service's error shape, logged once, and the process lives on
 * (Express 4 would otherwise crash on an unhandled rejection).
 *
 * @example
 * app.use(express.json());
 * app.post('/api/link-token', toNodeHandler(handleLinkToken));
 */
export function toNodeHandler(
  handler: WebHandler,
  options: NodeHandlerOptions = {},
): (req: NodeRequest, res: ServerResponse) => Promise<void> {
  const log = options.log ?? console;
  return async function nodeHandler(req, res) {
    try {
      const response = await handler(toWebRequest(req));
      // A body left unread (a refused upload) would stall this connection's next request: close it instead.
      if (!req.complete) res.shouldKeepAlive = false;
      await sendWebResponse(response, res);
    } catch (error) {
      // One line, whatever the error's message carries (#48: a CR/LF from outside must not write a line of its own).
      log.error(`payroll-link: the request could not be answered: ${escapeControls(describeError(error))}`);
      try {
        if (!res.headersSent) {
          res.shouldKeepAlive = false;
          // Headers of the answer that failed (its content type, Allow, Retry-After) must not ride on the 500.
          for (const name of res.getHeaderNames()) res.removeHeader(name);
          await sendWebResponse(
            errorResponse(500, 'INTERNAL_ERROR', 'The server could not answer this request.', [
              { error_code: 'INTERNAL_ERROR', message: 'The server could not answer this request.' },
            ]),
            res,
          );
        } else {
          res.end();
        }
      } catch {
        res.destroy();
      }
    }
  };
}
