/**
 * A fake of the outside world for the client's tests: a loopback HTTP proxy in
 * front of the real sandbox. By default it passes every request through and
 * counts what it saw (requests per method and path, the 429s the sandbox
 * answered); a test's `fault` answers a request itself instead, to make the
 * faults the sandbox never makes (a 503, a hang, a redirect, a broken body).
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Answers a request itself (returns true), or lets it through to the sandbox (false); `seen` is a count of requests (what it counts is the caller's). */
export type Fault = (request: IncomingMessage, response: ServerResponse, seen: number) => boolean;

/** A running proxy. */
export interface FakeOutside {
  readonly url: string;
  /** Every request, as `METHOD /path` (query excluded), in arrival order. */
  readonly requests: string[];
  /** When each request arrived (`performance.now()` of this process), in the same order. */
  readonly arrivedAt: number[];
  /** How many 429s the sandbox itself answered. */
  readonly sandbox429s: () => number;
  /** The `x-api-secret` of each request, for the tests that check where the secret went. */
  readonly secrets: (string | undefined)[];
  fault: Fault | null;
  /** How long the proxy holds the request numbered `seen` before passing it on (a stalled machine on the way); none when null. */
  holdMs: ((seen: number) => number) | null;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (the sandbox's base URL). */
export async function startFakeOutside(target: string): Promise<FakeOutside> {
  const upstream = new URL(target);
  let count429 = 0;
  const held = new Set<ServerResponse>();
  const proxy: FakeOutside = {
    url: '',
    requests: [],
    arrivedAt: [],
    secrets: [],
    sandbox429s: () => count429,
    fault: null,
    holdMs: null,
    close: () =>
      new Promise((resolve) => {
        for (const response of held) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    proxy.requests.push(`${request.method} ${path}`);
    proxy.arrivedAt.push(performance.now());
    proxy.secrets.push(request.headers['x-api-secret'] as string | undefined);
    held.add(response);
    response.on('close', () => held.delete(response));
    if (proxy.fault?.(request, response, proxy.requests.length)) return;
    const holdMs = proxy.holdMs?.(proxy.requests.length) ?? 0;
    if (holdMs > 0) setTimeout(() => passOn(request, response), holdMs);
    else passOn(request, response);
  });
  const passOn = (request: IncomingMessage, response: ServerResponse) => {
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        if (answer.statusCode === 429) count429++;
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => response.destroy());
    request.pipe(forward);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (proxy as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/** A logger that keeps every line, to check none carries the secret. */
export function keepingLog() {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  return { log: { info: keep('info'), warn: keep('warn'), error: keep('error') }, lines };
}

/** Everything about an error that could leak: its JSON, message, stack and cause. */
export function everythingOf(error: unknown): string {
  const value = error as { message?: unknown; stack?: unknown; cause?: unknown };
  return [
    JSON.stringify(error),
    String(value?.message),
    String(value?.stack),
    JSON.stringify(value?.cause ?? null),
    String(value?.cause),
  ].join('\n');
}
