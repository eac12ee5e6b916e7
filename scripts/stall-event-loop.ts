/**
 * Preloaded into each test process by `npm run test:repeat -- --stall MS`: before a random one in
 * {@link STALL_ONE_IN} of the process's network callbacks (a connection accepted, a request's bytes read, a
 * response's bytes written), the event loop stalls for `TEST_STALL_MS` milliseconds, as on a loaded machine that
 * takes the CPU away from the process at the worst moment. Timers come due meanwhile and fire first when it
 * resumes. A test that needs its next request to land within a span of time (before a sandbox timer, a client's
 * timeout, a rate limit's second) fails here within a few runs; a test that waits for the event it needs does not.
 *
 * Stalls fall on network callbacks, not at random times: a race's window is often a single round trip, which a
 * stall at a random time would hardly ever hit. The thread sleeps (`Atomics.wait`), so no core is burnt.
 */
import { createHook } from 'node:async_hooks';

/** How rare a stall is: one network callback in this many. */
const STALL_ONE_IN = 40;

/** Async resources whose callbacks are network events. */
const NETWORK = new Set([
  'TCPWRAP',
  'TCPCONNECTWRAP',
  'TCPSERVERWRAP',
  'HTTPINCOMINGMESSAGE',
  'HTTPCLIENTREQUEST',
  'WRITEWRAP',
  'SHUTDOWNWRAP',
]);

const stallMs = Number(process.env['TEST_STALL_MS'] ?? 0);

if (stallMs > 0) {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const network = new Set<number>();
  createHook({
    init(asyncId, type) {
      if (NETWORK.has(type)) network.add(asyncId);
    },
    before(asyncId) {
      if (network.has(asyncId) && Math.random() * STALL_ONE_IN < 1) Atomics.wait(sleeper, 0, 0, stallMs);
    },
    destroy(asyncId) {
      network.delete(asyncId);
    },
  }).enable();
}
