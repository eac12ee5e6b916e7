/**
 * One server of the load bench in its own process, so the load generator and
 * each server get their own event loop: `sandbox` or `backend` (the example
 * server, pointed at the sandbox through `BENCH_SANDBOX_URL` and
 * `BENCH_SANDBOX_SECRET`, never argv). Both take `BENCH_RATE_LIMIT`: the
 * sandbox's limit per second, and the same pace for the backend's client
 * (unset: the sandbox's limit off, the client at its mode's). Prints one JSON
 * line `{ url, secret?, webhookUrl? }` when listening and stops when stdin closes.
 */
import { startSandbox } from '../../sandbox/start-sandbox.js';
import { startExampleServer } from '../../server-example/server.js';

const which = process.argv[2];
const perSecond = Number(process.env.BENCH_RATE_LIMIT ?? 0);
let close: () => Promise<void>;
if (which === 'sandbox') {
  const sandbox = await startSandbox({ port: 0, rateLimitPerSecond: perSecond });
  close = () => sandbox.close();
  process.stdout.write(`${JSON.stringify({ url: sandbox.url, secret: sandbox.secret })}\n`);
} else if (which === 'backend') {
  const backend = await startExampleServer({
    port: 0,
    apiSecret: process.env.BENCH_SANDBOX_SECRET ?? '',
    baseUrl: process.env.BENCH_SANDBOX_URL ?? '',
    version: '2025-07-08',
    orgName: 'Bench Payroll',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    ...(perSecond > 0 && { rateLimit: { perSecond } }),
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  close = () => backend.close();
  process.stdout.write(`${JSON.stringify({ url: backend.url, webhookUrl: backend.webhookUrl })}\n`);
} else {
  console.error('usage: load-server.ts sandbox|backend');
  process.exit(2);
}
// The parent owns this process: when it goes (or closes our stdin), so do we.
process.stdin.resume();
process.stdin.on('end', () => void close().then(() => process.exit(0)));
