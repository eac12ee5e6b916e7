/** The names of this machine's loopback interface, as a listen address or a URL's hostname (`[::1]`). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/**
 * Whether `host` names loopback, so that only this machine can reach it. Exact names only: anything else (`0.0.0.0`, a
 * LAN address, a hostname) counts as reachable from elsewhere, the safe side for what this decides.
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase());
}
