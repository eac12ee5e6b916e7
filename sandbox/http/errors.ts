/**
 * The spec's error body and a typed error that carries it.
 *
 * Every failure the sandbox answers with goes through {@link ApiError}, so the
 * body is always `{ error: { status_code, message, type, error_codes } }` and the
 * HTTP status always equals `status_code`. The body's type is inferred from the
 * schema `payroll-link/server` reads it with (`ErrorBodySchema`): one shape for
 * the sandbox, the client and the handlers.
 *
 * The handlers' style too (Hono's `HTTPException`): a route throws, one place
 * answers (`createSandboxHandler`, app.ts), as the handlers throw their
 * `HttpError` (src/server/handler/http-error.ts) to `answerErrors`, with the same
 * fields (`status`, `type`, `codes`, `headers`, `toResponse()`). A
 * class of its own all the same: deriving it would make `HttpError` a public
 * name of `payroll-link/server` (this side imports nothing else), kept for the
 * sandbox alone and inviting a use it does not have (an integrator's hook that
 * throws one still gets the generic 500); and its answer is the sandbox's own
 * `SandboxResponse`, a plain shape (see http-types.ts), not a Web `Response`.
 */
import type { z } from 'zod';
import type { ErrorBody, ErrorCode } from 'payroll-link/server';
import { jsonResponse, type SandboxResponse } from './http-types.js';

/** The `type` values the sandbox uses (the spec names only INVALID_REQUEST_PARAMETERS; the rest are ours). */
export type ErrorType =
  | 'INVALID_REQUEST_PARAMETERS'
  | 'INVALID_REQUEST_HEADERS'
  | 'AUTHENTICATION_ERROR'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'MISDIRECTED_REQUEST'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMIT_EXCEEDED'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_ERROR';

/** A failure the sandbox answers with the spec's error body. Throw it from any handler. */
export class ApiError extends Error {
  /** The HTTP status; equals `body.status_code`. */
  readonly status: number;
  /** The classification, e.g. INVALID_REQUEST_PARAMETERS. */
  readonly type: ErrorType;
  /** One or more stable codes with messages. */
  readonly codes: readonly ErrorCode[];
  /** Extra response headers (Retry-After, Allow). */
  readonly headers: Record<string, string>;

  constructor(status: number, type: ErrorType, message: string, codes: readonly ErrorCode[], headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.type = type;
    this.codes = codes.length > 0 ? codes : [{ error_code: type, message }];
    this.headers = headers;
  }

  /** The spec's error body. */
  toBody(): ErrorBody {
    return { error: { status_code: this.status, message: this.message, type: this.type, error_codes: [...this.codes] } };
  }

  /** The full response, with the error body and any extra headers. */
  toResponse(): SandboxResponse {
    return jsonResponse(this.status, this.toBody(), this.headers);
  }
}

/** Shorthand for an error with a single code. */
export const apiError = (
  status: number,
  type: ErrorType,
  errorCode: string,
  message: string,
  headers: Record<string, string> = {},
): ApiError => new ApiError(status, type, message, [{ error_code: errorCode, message }], headers);

/** 400 INVALID_PARAMS: a value is present but wrong. */
export const invalidParams = (message: string): ApiError => apiError(400, 'INVALID_REQUEST_PARAMETERS', 'INVALID_PARAMS', message);

/** 404 for a resource that does not exist. */
export const notFound = (errorCode: string, message: string): ApiError => apiError(404, 'NOT_FOUND', errorCode, message);

/** A dotted path for messages: `allocation.value`, `features[0]`. */
const pathText = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');

/** True when the issue is about a key absent from its parent object (a missing field, not a wrong one). */
const isMissing = (issue: z.core.$ZodIssue, input: unknown): boolean => {
  if (issue.code !== 'invalid_type' || issue.path.length === 0) return false;
  let parent: unknown = input;
  for (const key of issue.path.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return false;
    parent = (parent as Record<PropertyKey, unknown>)[key];
  }
  const last = issue.path[issue.path.length - 1];
  return parent !== null && typeof parent === 'object' && (parent as Record<PropertyKey, unknown>)[last as PropertyKey] === undefined;
};

/**
 * A readable message for an issue. zod/mini schemas (shared with the browser)
 * carry no locale, so their message is a bare "Invalid input": say more.
 */
const describe = (issue: z.core.$ZodIssue): string => {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`;
    case 'invalid_union':
      return 'does not match any allowed shape';
    default:
      return issue.message || 'is invalid';
  }
};

/**
 * Maps zod issues to the spec's 400 error body: an absent required field is
 * MISSING_FIELDS, anything else (wrong type, bad value, unknown key) is INVALID_PARAMS.
 *
 * @param where what was validated, for the message ("request body", "query").
 */
export const fromZodError = (error: { readonly issues: readonly z.core.$ZodIssue[] }, input: unknown, where: string): ApiError => {
  const codes: ErrorCode[] = error.issues.map((issue) => {
    const path = pathText(issue.path);
    if (isMissing(issue, input)) return { error_code: 'MISSING_FIELDS', message: `${path} is required` };
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((key) => pathText([...issue.path, key])).join(', ');
      return { error_code: 'INVALID_PARAMS', message: `unknown field(s): ${keys}` };
    }
    const detail = describe(issue);
    return { error_code: 'INVALID_PARAMS', message: path ? `${path}: ${detail}` : detail };
  });
  return invalidRequest(codes, where);
};

/**
 * The spec's 400 for input with these problems, one code each: its message says "Missing required fields" when
 * one is MISSING_FIELDS, "Invalid parameters" otherwise, then every code's message.
 */
export const invalidRequest = (codes: readonly ErrorCode[], where: string): ApiError => {
  const missing = codes.some((code) => code.error_code === 'MISSING_FIELDS');
  const summary = missing ? `Missing required fields in the ${where}` : `Invalid parameters in the ${where}`;
  return new ApiError(400, 'INVALID_REQUEST_PARAMETERS', `${summary}: ${codes.map((c) => c.message).join('; ')}`, codes);
};
