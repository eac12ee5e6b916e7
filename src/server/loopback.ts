/** The names of this machine's loopback interface, as a listen address or a URL's hostname (`[::1]`). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/**
 * Whether `host` names loopback, so that only this machine can reach it. Exact
 * names only: anything else (`0.0.0.0`, a LAN address, a hostname) counts as
 * reachable from elsewhere, the safe side for what this decides.
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase());
}

/**
 * Whether a request's `Host` header names loopback. A server on loopback is
 * still reachable from any web page open on this machine through DNS
 * rebinding (a name of the attacker's that resolves to 127.0.0.1), but the
 * browser then sends that name as `Host`: so routes meant for this machine's
 * own pages check it.
 */
export function isAddressedToLoopback(request: Request): boolean {
  const host = request.headers.get('host');
  if (host === null) return false;
  try {
    return isLoopbackHost(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}
