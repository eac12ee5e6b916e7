/**
 * The sandbox's own small request/response shapes.
 *
 * Why not the Web `Request`: the spec's examples send `limit` and `cursor` of
 * `GET /employers` in a JSON payload, and a Web `Request` refuses a body on GET.
 * These plain shapes keep the app runtime-neutral all the same: the Node adapter
 * (`node-adapter.ts`) is a few lines, and tests can call the app directly.
 */

/** An incoming request, body already read (and capped) by the adapter. */
export interface SandboxRequest {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** Absolute URL of the request. */
  readonly url: URL;
  /** Request headers (case-insensitive look-up). */
  readonly headers: Headers;
  /** Raw body bytes; empty when none. May be one byte longer than the cap, to signal "too large". */
  readonly body: Uint8Array;
}

/** An outgoing response. */
export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

/** A JSON response with the right content type. */
export const jsonResponse = (status: number, value: unknown, headers: Record<string, string> = {}): SandboxResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  body: JSON.stringify(value),
});
