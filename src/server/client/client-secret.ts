/**
 * The API secret of each client `createPayrollClient` made, kept beside the client rather than on it: no
 * property, however hidden, holds it (a caller's `console.log(client)` or a serialiser never meets it), and
 * only this package's code, which imports this module, can ask for it, to scrub it from the lines it logs
 * (the token handler and the launches given `client`). Not exported from the package's entry points.
 */
const secrets = new WeakMap<object, string>();

/** Records `client`'s secret (once, as the client is made), under the client and under its `linkTokens` group. */
export function keepClientSecret(client: { linkTokens: object }, apiSecret: string): void {
  secrets.set(client, apiSecret);
  // A shallow copy (`{ ...client, extra }`), which the handlers accept as a client, shares this group.
  secrets.set(client.linkTokens, apiSecret);
}

/**
 * The secret of a client `createPayrollClient` made, or of a shallow copy of one; undefined for a look-alike of
 * the app's own making (its secret is not this package's to know).
 */
export function clientSecret(client: { linkTokens?: unknown }): string | undefined {
  const group = client.linkTokens;
  return secrets.get(client) ?? (typeof group === 'object' && group !== null ? secrets.get(group) : undefined);
}
