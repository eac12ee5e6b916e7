/**
 * The handlers' JSON answers, errors in the service's shape (`ErrorBody`, error-body.ts) among them. Apart from
 * that file's schema, so that a module that only answers (the Node adapter) does not bundle zod.
 */
import type { z } from 'zod';
import type { ErrorBody, ErrorCode } from './error-body.js';

/**
 * Headers on every JSON answer. `no-store`: a Link token must never sit in a
 * shared or browser cache; `nosniff`: JSON stays JSON.
 */
const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/** A JSON response with safe default headers: `no-store` and `nosniff` (see `JSON_HEADERS`). */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/**
 * An error response in the spec's shape.
 *
 * @example
 * errorResponse(400, 'INVALID_REQUEST_PARAMETERS', 'The request body is invalid.', [
 *   { error_code: 'MISSING_FIELDS', message: 'org_name is required.' },
 * ])
 */
export function errorResponse(
  status: number,
  type: string,
  message: string,
  errorCodes: [ErrorCode, ...ErrorCode[]],
  headers: Record<string, string> = {},
): Response {
  const body: ErrorBody = { error: { status_code: status, message, type, error_codes: errorCodes } };
  return jsonResponse(status, body, headers);
}

/** 400 for input that failed a zod schema: one `INVALID_PARAMS` entry per issue, naming the field; `what` says which input. */
export function invalidParamsResponse(error: z.ZodError, what: 'request body' | 'query string' = 'request body'): Response {
  const { status, type, message, codes } = invalidParamsAnswer(error, what);
  return errorResponse(status, type, message, codes);
}

/** The answer of {@link invalidParamsResponse}, as data (a handler throws it as an `HttpError`). */
export function invalidParamsAnswer(error: z.ZodError, what: 'request body' | 'query string' = 'request body'): ErrorAnswerOfCodes {
  const codes = error.issues.map((issue) => ({
    error_code: 'INVALID_PARAMS',
    message: issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
  }));
  // A ZodError always has at least one issue.
  return {
    status: 400,
    type: 'INVALID_REQUEST_PARAMETERS',
    message: `The ${what} is invalid.`,
    codes: codes as [ErrorCode, ...ErrorCode[]],
  };
}

/**
 * An error answer with one error code, as data: the status, the spec's error `type`, the `error_codes[0].error_code`,
 * the message (top-level and of that code), and extra headers. Named fields, so that the type and the code (two strings
 * side by side) cannot be swapped unnoticed.
 */
export interface ErrorAnswer {
  status: number;
  type: string;
  code: string;
  message: string;
  headers?: Record<string, string>;
}

/** An error answer with several codes (a 400 naming each field): an {@link ErrorAnswer} whose codes are listed. */
export interface ErrorAnswerOfCodes extends Omit<ErrorAnswer, 'code'> {
  codes: [ErrorCode, ...ErrorCode[]];
}

/** The response for an {@link ErrorAnswer}. */
export function errorAnswer({ status, type, code, message, headers = {} }: ErrorAnswer): Response {
  return errorResponse(status, type, message, [{ error_code: code, message }], headers);
}

/** An error response with a single error code whose message is also the top-level message. */
export function simpleErrorResponse(
  status: number,
  type: string,
  errorCode: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return errorAnswer({ status, type, code: errorCode, message, headers });
}
