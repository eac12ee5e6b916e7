/**
 * The handlers' JSON answers, errors in the service's shape (`ErrorBody`, error-body.ts) among them. Apart from
 * that file's schema, so that a module that only answers (the Node adapter) does not bundle zod.
 */
import type { z } from 'zod';
import type { ErrorCode } from './error-body.js';
/**
 * Headers on every JSON answer. `no-store`: a Link token must never sit in a
 * shared or browser cache; `nosniff`: JSON stays JSON. The sandbox's answers use them too (sandbox/http/http-types.ts).
 */
export declare const JSON_HEADERS: {
    readonly 'content-type': 'application/json; charset=utf-8';
    readonly 'cache-control': 'no-store';
    readonly 'x-content-type-options': 'nosniff';
};
/** A JSON response with safe default headers: `no-store` and `nosniff` (see `JSON_HEADERS`). */
export declare function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): Response;
/**
 * An error response in the spec's shape.
 *
 * @example
 * errorResponse(400, 'INVALID_REQUEST_PARAMETERS', 'The request body is invalid.', [
 *   { error_code: 'MISSING_FIELDS', message: 'org_name is required.' },
 * ])
 */
export declare function errorResponse(status: number, type: string, message: string, errorCodes: [ErrorCode, ...ErrorCode[]], headers?: Record<string, string>): Response;
/** 400 for input that failed a zod schema: one `INVALID_PARAMS` entry per issue, naming the field; `what` says which input. */
export declare function invalidParamsResponse(error: z.ZodError, what?: 'request body' | 'query string'): Response;
/** An error response with a single error code whose message is also the top-level message. */
export declare function simpleErrorResponse(status: number, type: string, errorCode: string, message: string, headers?: Record<string, string>): Response;
