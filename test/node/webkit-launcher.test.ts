/**
 * web-test-runner's WebKit launcher (test/browser/webkit-launcher.mjs), in real WebKitGTK: a test page's
 * navigation still pending when the run ends must not become an unhandled rejection. One did: webdriverio's
 * `deleteSession` aborts pending requests, the parent launcher never awaits the navigation it starts, and
 * web-test-runner stopped every browser on the rejection (a CI run refused for it). The page here is a
 * loopback server that never answers, so its navigation is pending for sure when the launcher stops.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { webkitLauncher } from '../browser/webkit-launcher.mjs';

const servers: Server[] = [];
after(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

test('stopping the WebKit launcher with a navigation pending leaves no unhandled rejection', { timeout: 120_000 }, async () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    // Answers nothing, ever: the navigation to it stays pending until the session ends.
    const server = createServer(() => {});
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    let arrived!: () => void;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    server.on('request', () => arrived());
    const launcher = webkitLauncher();
    await launcher.initialize({ concurrency: 1 }, []);
    await launcher.startSession('pending', `http://127.0.0.1:${(server.address() as AddressInfo).port}/never`);
    await requested;
    await launcher.stop();
    // A rejection is reported at the end of the task it happened in: one more turn of the event loop sees it.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(rejections.map(String), []);
  } finally {
    process.off('unhandledRejection', onRejection);
  }
});
