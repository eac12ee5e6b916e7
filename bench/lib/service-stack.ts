/**
 * The real service side, in this process: the sandbox (with its hosted Link
 * page) and the example backend configured with the sandbox's secret, both on
 * loopback with free ports. Nothing faked.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startSandbox } from '../../sandbox/start-sandbox.js';
import { startExampleServer } from '../../server-example/server.js';
import { readBody } from './http-server.js';

/** The running sandbox and backend. */
export interface ServiceStack {
  sandboxUrl: string;
  backendUrl: string;
  /** The hosted Link page. */
  linkUrl: string;
  close(): Promise<void>;
}

/** Starts the sandbox and the example backend; `rateLimitPerSecond: 0` turns the sandbox's limit off. */
export async function startServiceStack(options: { rateLimitPerSecond?: number } = {}): Promise<ServiceStack> {
  // No webhook URL: no bench looks at webhooks, and their retries would only add noise.
  const sandbox = await startSandbox({ port: 0, rateLimitPerSecond: options.rateLimitPerSecond ?? 10 });
  const backend = await startExampleServer({
    port: 0,
    apiSecret: sandbox.secret,
    baseUrl: sandbox.url,
    version: '2025-07-08',
    orgName: 'Bench Payroll',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  return {
    sandboxUrl: sandbox.url,
    backendUrl: backend.url,
    linkUrl: `${sandbox.url}/link`,
    close: async () => {
      await backend.close();
      await sandbox.close();
    },
  };
}

/** Forwards a request under `/api/` to `target` (as Vite's proxy does for the demo); false for other paths. */
export function createApiProxy(target: string): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> {
  return async (req, res, url) => {
    if (!url.pathname.startsWith('/api/')) return false;
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const upstream = await fetch(`${target}${url.pathname}${url.search}`, {
      method: req.method,
      headers: { 'content-type': req.headers['content-type'] ?? 'application/json', accept: req.headers.accept ?? '*/*' },
      body: hasBody ? await readBody(req) : undefined,
    });
    const headers: Record<string, string> = {};
    upstream.headers.forEach((value, name) => {
      if (name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection')
        headers[name] = value;
    });
    res.writeHead(upstream.status, headers).end(Buffer.from(await upstream.arrayBuffer()));
    return true;
  };
}
