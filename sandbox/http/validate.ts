/**
 * Request validation with zod: every body and every query goes through here,
 * so every failure is the spec's 400 error body.
 */
import { z } from 'zod';
import { apiError, fromZodError } from './errors.js';
import type { SandboxRequest } from './http-types.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** `application/json`, optionally with the only charset a body is read in (case-insensitive, as media types are). */
const JSON_MEDIA_TYPE = /^application\/json\s*(;\s*charset\s*=\s*("utf-8"|utf-8)\s*)?$/i;

/**
 * Refuses a request whose Content-Type is not JSON. A browser sends a
 * cross-site form post (urlencoded, multipart or text/plain, which can still
 * carry JSON-looking text) without asking first; `application/json` it sends
 * cross-site only after a CORS preflight, which the sandbox never grants.
 *
 * @throws ApiError 415 UNSUPPORTED_MEDIA_TYPE.
 */
export const requireJsonContentType = (request: SandboxRequest): void => {
  if (JSON_MEDIA_TYPE.test(request.headers.get('content-type')?.trim() ?? '')) return;
  throw apiError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    'UNSUPPORTED_MEDIA_TYPE',
    'Send the request body as JSON, with the header Content-Type: application/json',
  );
};

/**
 * Parses the body as JSON and validates it.
 *
 * @param options.optional when true, an empty body counts as `{}` (for endpoints whose body is optional).
 * @throws ApiError 400 INVALID_REQUEST_BODY for bytes that are not a JSON object, 400 MISSING_FIELDS/INVALID_PARAMS for schema failures.
 */
export const parseBody = <S extends z.core.$ZodType>(
  request: SandboxRequest,
  schema: S,
  options: { optional?: boolean } = {},
): z.core.output<S> => {
  const value = readJsonObject(request, options.optional ?? false) ?? {};
  const result = z.safeParse(schema, value);
  if (!result.success) throw fromZodError(result.error, value, 'request body');
  return result.data;
};

/** Reads the body as a JSON object; `undefined` when empty and optional. */
export const readJsonObject = (request: SandboxRequest, optional: boolean): Record<string, unknown> | undefined => {
  if (request.body.byteLength === 0) {
    if (optional) return undefined;
    throw apiError(400, 'INVALID_REQUEST_PARAMETERS', 'INVALID_REQUEST_BODY', 'The request body is empty; send a JSON object');
  }
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(request.body));
  } catch {
    throw apiError(400, 'INVALID_REQUEST_PARAMETERS', 'INVALID_REQUEST_BODY', 'The request body is not valid UTF-8 JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw apiError(400, 'INVALID_REQUEST_PARAMETERS', 'INVALID_REQUEST_BODY', 'The request body must be a JSON object');
  }
  return value as Record<string, unknown>;
};

/**
 * The query string as an object. A repeated key becomes an array, so a schema
 * that expects one string refuses `?limit=1&limit=2` instead of picking one.
 */
export const queryObject = (url: URL): Record<string, string | string[]> => {
  // No prototype: `?__proto__=1` is a key like any other, refused by strict schemas.
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of url.searchParams) {
    const previous = query[key];
    query[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return query;
};

/** Validates the query string (plus optional extra values, such as GET-body parameters). */
export const parseQuery = <S extends z.core.$ZodType>(
  request: SandboxRequest,
  schema: S,
  extra: Record<string, unknown> = {},
): z.core.output<S> => {
  const value = { ...extra, ...queryObject(request.url) };
  const result = z.safeParse(schema, value);
  if (!result.success) throw fromZodError(result.error, value, 'query');
  return result.data;
};

/** Validates one path parameter. */
export const parseParam = <S extends z.core.$ZodType>(name: string, value: string, schema: S): z.core.output<S> => {
  const result = z.safeParse(schema, value);
  if (!result.success) throw fromZodError(result.error, { [name]: value }, `path parameter ${name}`);
  return result.data;
};
