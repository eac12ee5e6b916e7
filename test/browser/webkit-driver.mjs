// WebKit (Safari's engine) for the tests: Debian's WebKitGTK MiniBrowser, driven over W3C WebDriver by its
// WebKitWebDriver, on an Xvfb display of its own (MiniBrowser has no headless mode). See the shared toolchain
// notes for the recipe. Whoever starts a driver owns it: `stop()` ends Xvfb, the driver and its browsers, and a
// watchdog ends them too if this Node process dies without calling it (a crash, SIGKILL), so none is ever left.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** Where WebKitGTK's MiniBrowser is: WEBKIT_PATH, or Debian's (package webkit2gtk-driver). */
export const miniBrowserPath = process.env.WEBKIT_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
/** Where WebKitWebDriver is: WEBKIT_DRIVER_PATH, or Debian's (package webkit2gtk-driver). */
export const webkitDriverPath = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
/** Where Xvfb is: XVFB_PATH, or Debian's (package xvfb). */
export const xvfbPath = process.env.XVFB_PATH ?? '/usr/bin/Xvfb';

/**
 * W3C capabilities for a MiniBrowser session. `--full-screen` hides MiniBrowser's toolbar: with it, a
 * set-window-rect gives an exact viewport (without it the window stays at least 447 px wide and the
 * viewport loses 38 px of height). Classic WebDriver, not BiDi: WebKitWebDriver speaks the classic protocol.
 */
export const webkitCapabilities = {
  browserName: 'MiniBrowser',
  'wdio:enforceWebDriverClassic': true,
  'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation', '--full-screen'] },
};

/** Bounds, not waits: how long Xvfb and the driver may take to come up on a loaded machine before they count as failed. */
const START_TIMEOUT_MS = 60_000;
/** A probed port may be taken before the driver listens on it (other test runs share the machine): try again, a few times. */
const PORT_ATTEMPTS = 3;

/**
 * Starts Xvfb and WebKitWebDriver on a free loopback port. Resolves once the driver answers `/status` as ready.
 * @returns {Promise<{ port: number, stop: () => Promise<void> }>}
 */
export async function startWebKitDriver() {
  const display = await startXvfb();
  try {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const driver = spawnGroup(webkitDriverPath, [`--port=${port}`, '--host=127.0.0.1'], { DISPLAY: `:${display.number}` });
      const ready = await driverReady(driver, port);
      if (ready === true) return { port, stop: stopAll([driver, display.process]) };
      await stopGroup(driver);
      if (attempt >= PORT_ATTEMPTS) throw new Error(`WebKitWebDriver did not start on port ${port}: ${ready}`);
    }
  } catch (error) {
    await stopGroup(display.process);
    throw error;
  }
}

/** Xvfb on the first free display number, which it picks itself (`-displayfd`): no race with other Xvfb servers on the machine. */
async function startXvfb() {
  const xvfb = spawnGroup(xvfbPath, ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], {}, [
    'ignore',
    'ignore',
    'pipe',
    'pipe',
  ]);
  let stderr = '';
  xvfb.stderr.on('data', (chunk) => (stderr += chunk));
  let written = '';
  const number = await bounded(
    new Promise((resolve, reject) => {
      xvfb.stdio[3].on('data', (chunk) => {
        written += chunk;
        if (written.includes('\n')) resolve(Number(written.trim()));
      });
      xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it gave its display: ${stderr.trim()}`)));
      xvfb.once('error', reject);
    }),
    'Xvfb did not give its display',
  ).catch(async (error) => {
    await stopGroup(xvfb);
    throw error;
  });
  // Read no more: nothing of Xvfb's may keep the test process alive.
  xvfb.stdio[3].destroy();
  xvfb.stderr.unref();
  return { number, process: xvfb };
}

/** Asks `/status` until the driver says it is ready; `true`, or why not (it exited, or the bound passed). */
async function driverReady(driver, port) {
  let exited = null;
  driver.once('exit', (code) => (exited = `it exited (${code})`));
  driver.once('error', (error) => (exited = error.message));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) return exited;
    try {
      const status = await (await fetch(`http://127.0.0.1:${port}/status`)).json();
      if (status?.value?.ready === true) return true;
    } catch {
      // Not listening yet: ask again once the spawn has had a turn.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return `no ready /status within ${START_TIMEOUT_MS} ms`;
}

/** Our running groups, ended synchronously when the process exits or is told to stop, whatever the test runner does. */
const running = new Set();
function endAllNow() {
  for (const child of running) killGroup(child, 'SIGKILL');
}
process.once('exit', endAllNow);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    endAllNow();
    // Leave the rest to the test runner's own handler, if it has one; else end as that signal would have.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}

/**
 * Spawns `command` as the leader of a process group of its own (its browsers join it), plus a watchdog that
 * ends the group when our end of its stdin closes: when this process exits by any means, SIGKILL included.
 */
function spawnGroup(command, args, env, stdio = ['ignore', 'ignore', 'pipe']) {
  const child = spawn(command, args, { detached: true, stdio, env: { ...process.env, ...env } });
  child.stderr?.resume();
  child.stderr?.unref();
  child.unref();
  child.watchdog = spawn('sh', ['-c', 'cat >/dev/null; kill -KILL -"$1" 2>/dev/null', 'watchdog', String(child.pid)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.watchdog.unref();
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Ends a group: SIGTERM, then SIGKILL if it is still there after a bound. Resolves once the leader has exited. */
async function stopGroup(child) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  // The leader's children (MiniBrowser, its web processes) may outlive it by a moment: end whatever is left.
  killGroup(child, 'SIGKILL');
  running.delete(child);
  // Its work is done: end it rather than close its stdin, so it never signals a group number used again.
  child.watchdog.kill('SIGKILL');
}

function stopAll(children) {
  let stopping;
  return () => (stopping ??= Promise.all(children.map(stopGroup)).then(() => {}));
}

function bounded(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A free loopback port for the driver, which must be told its port before it starts (test/free-port.ts, for plain Node). */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
