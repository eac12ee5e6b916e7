/**
 * A free loopback port, for a server that must be named its port before it
 * starts (a framework's CLI, an app that reads PORT, a server another one must
 * be told of first). Prefer port 0 wherever the server can report what it got:
 * a probed port may be taken by another process before it is listened on, so
 * each caller keeps that gap short.
 */
import { createServer, type AddressInfo } from 'node:net';

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
