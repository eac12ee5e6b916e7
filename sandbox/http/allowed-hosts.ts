/**
 * Who may reach the sandbox. Its secret is a published test credential and its
 * triggers post webhooks to the developer's backend, so it listens on loopback
 * unless told otherwise (`allowRemote`, `--allow-remote`), and it answers only a
 * request addressed to a name that cannot be another site's: a page elsewhere
 * in the developer's browser can point its own DNS name at 127.0.0.1 (DNS
 * rebinding), but the browser then sends that name in `Host`, and such a
 * request gets 421.
 *
 * Always served, as Vite's dev server does: `localhost` and `*.localhost`
 * (browsers resolve them to loopback themselves, RFC 6761), any IP address (a
 * page served from an IP literal is the sandbox's own), and the name it was told
 * to listen on. Anything else only when listed (`allowedHosts`,
 * `--allowed-host`): a tunnel's name. The port is not compared: a rebinding
 * page is told apart by its name, and `adb reverse` or a tunnel may reach the
 * sandbox on another port.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { apiError } from './errors.js';

/**
 * A name for `allowedHosts`: a host name such as `tunnel.example`, or `.ngrok-free.app` for it and every name under
 * it; `subject` names it in the message (the option, or the CLI's flag).
 */
export const allowedHostSchema = (subject: string) =>
  z
    .string()
    .regex(
      /^\.?[a-z0-9-]+(\.[a-z0-9-]+)*$/i,
      `${subject} must be a host name such as tunnel.example, or .ngrok-free.app for every name under it (no scheme, port or path)`,
    )
    .transform((host) => host.toLowerCase());

/** Whether listening on `host` keeps the sandbox to this machine: `localhost`, 127.0.0.0/8 or `::1`. */
export const isLoopbackAddress = (host: string): boolean => {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost') return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  // `0:0:0:0:0:0:0:1` and other spellings of ::1: the URL parser writes an IPv6 address in its shortest form.
  return isIP(name) === 6 && new URL(`http://[${name}]`).hostname === '[::1]';
};

/** The name a `Host` header addresses (lower case; an IPv6 address without brackets), or null when it is not a bare `host[:port]`. */
const hostnameOf = (header: string | null): string | null => {
  // User info, a path, a query or a fragment would make the URL parser read another name than the one the header starts with.
  if (header === null || !/^[^\s/\\?#@]+$/.test(header) || !URL.canParse(`http://${header}`)) return null;
  return new URL(`http://${header}`).hostname.replace(/^\[(.*)\]$/, '$1');
};

/**
 * The Host rule of a sandbox listening on `listenHost`, with the extra names `allowedHosts`.
 *
 * @returns a check that throws ApiError 421 MISDIRECTED_REQUEST (HOST_NOT_ALLOWED) for a `Host` header it does not serve.
 */
export const hostRule = (listenHost: string, allowedHosts: readonly string[]): ((header: string | null) => void) => {
  const listening = listenHost.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const listed = (name: string) =>
    allowedHosts.some((entry) => (entry.startsWith('.') ? name === entry.slice(1) || name.endsWith(entry) : name === entry));
  return (header) => {
    const name = hostnameOf(header);
    if (name !== null && (name === 'localhost' || name.endsWith('.localhost') || isIP(name) !== 0 || name === listening || listed(name)))
      return;
    throw apiError(
      421,
      'MISDIRECTED_REQUEST',
      'HOST_NOT_ALLOWED',
      `The sandbox does not answer requests addressed to ${name ?? 'this Host header'}: only localhost, an IP address or a name ` +
        'given with --allowed-host (allowedHosts), because a page can point a name of its own at 127.0.0.1 (DNS rebinding). ' +
        "Behind a tunnel, start the sandbox with --allowed-host <the tunnel's host name>.",
    );
  };
};
