/**
 * Test doubles for what lies outside the example backend: a tiny scripted
 * "service" on loopback that records what it receives and answers, hangs or
 * resets as each test says (fault injection), and a logger that captures lines.
 * The round-trip tests use the real sandbox instead.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../src/server/logger.js';
import type { ExampleServerOptions } from '../../server-example/server.js';

/** A request as the fake service saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** performance.now() at arrival. */
  at: number;
}

/** What the fake service does with request number `n` (1-based). */
export type UpstreamScript = (request: RecordedRequest, n: number, res: ServerResponse) => void;

/** A running fake service. */
export interface FakeUpstream {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a fake service on a free loopback port. */
export async function startUpstream(script: UpstreamScript): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      };
      requests.push(recorded);
      script(recorded, requests.length, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Answers JSON with a status and optional headers. */
export function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'x-service-request-id': crypto.randomUUID(), ...headers });
  res.end(text);
}

/** A valid `POST /link_tokens` answer. */
export function tokenEnvelope(overrides: Record<string, unknown> = {}) {
  return {
    data: {
      id: crypto.randomUUID(),
      token: `lt_${crypto.randomUUID()}`,
      expires: new Date(Date.now() + 3_600_000).toISOString(),
      mode: 'sandbox',
      ...overrides,
    },
  };
}

/** The spec's error body, as the service sends it. */
export function serviceError(status: number, code: string, message: string) {
  return { error: { status_code: status, message, type: 'INVALID_REQUEST_PARAMETERS', error_codes: [{ error_code: code, message }] } };
}

/** A logger that keeps every line (message and fields as JSON) for assertions. */
export function captureLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message}${fields === undefined ? '' : ` ${JSON.stringify(fields)}`}`);
  };
  return { log: { info: record('info'), warn: record('warn'), error: record('error') }, lines };
}

/** The webhook secret the example server is started with in tests. */
export const WEBHOOK_SECRET = 'whsec_example_server_tests';

/**
 * Options of the example server in front of a fake service: a free port, short backoff, and timeouts
 * far above any loopback answer (even on a loaded machine): none of these services hangs.
 */
export function exampleServerOptions(service: FakeUpstream, apiSecret: string, log: Logger = captureLog().log): ExampleServerOptions {
  return {
    port: 0,
    apiSecret,
    baseUrl: service.url,
    version: '2025-07-08',
    orgName: 'Acme',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    log,
    webhookSecret: WEBHOOK_SECRET,
    timeouts: { attemptMs: 5_000, totalMs: 10_000 },
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  };
}

/** The token handler's configuration for a running service (the real sandbox): its URL and secret, the latest version. */
export function serviceConfigFor(service: { secret: string; url: string }): ExampleServerOptions {
  return {
    apiSecret: service.secret,
    baseUrl: service.url,
    version: '2025-07-08',
    orgName: 'Acme Payroll',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    log: captureLog().log,
  };
}
