/**
 * Preloaded into each test process by `npm run test:repeat -- --stall MS`: blocks the process's event loop for
 * `TEST_STALL_MS` milliseconds at random moments (on average every two stalls' length), as a loaded machine does
 * when it takes the CPU away from a process. A test that needs something to happen within a span of time (a
 * sandbox timer racing an assertion, a request that must arrive before a timeout, two calls within a rate
 * limit's second) fails here within a few runs; a test that waits for the event it needs does not.
 *
 * The thread sleeps (`Atomics.wait`) rather than spins, so the stalls load no core of a shared machine.
 */
const stallMs = Number(process.env['TEST_STALL_MS'] ?? 0);

// Kept from before any test runs: a test that mocks the timers (`mock.timers`) must not stop the stalls.
const { setTimeout: realSetTimeout } = globalThis;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

const stallLater = (): void => {
  realSetTimeout(() => {
    Atomics.wait(sleeper, 0, 0, stallMs);
    stallLater();
  }, Math.random() * 4 * stallMs).unref();
};

if (stallMs > 0) stallLater();
