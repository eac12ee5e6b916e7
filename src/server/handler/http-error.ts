/**
 * The handlers' one error style, after Hono's `HTTPException`: a handler that refuses a request throws an
 * {@link HttpError}, and the one boundary (`answerErrors`, post-handler.ts) writes its log line and answers it. No
 * handler returns "a value or a Response" for its caller to test.
 *
 * Internal (not a name of `payroll-link/server`): only the handlers throw it. An integrator's hook cannot answer
 * with one: whatever a hook throws is the generic 500, its message only in the log. The sandbox's `ApiError`
 * (sandbox/http/errors.ts) is the same style with the same fields, but a class of its own: see its comment.
 */
import type { ErrorCode } from '../error-body.js';
import { errorResponse, type ErrorAnswer, type ErrorAnswerOfCodes } from '../error-response.js';
import type { Logger } from '../logger.js';

/** A line the boundary writes when it answers the error: what the handler logged, at the moment it refused. */
export interface LogLine {
  level: keyof Logger;
  message: string;
  fields?: Record<string, unknown>;
}

/** A refusal in the spec's error body, thrown by a handler and answered by its boundary. */
export class HttpError extends Error {
  /** The HTTP status; equals the body's `status_code`. */
  readonly status: number;
  /** The spec's error `type`, e.g. SERVICE_UNAVAILABLE. */
  readonly type: string;
  /** The body's `error_codes`: one, or one per field of a 400. */
  readonly codes: readonly [ErrorCode, ...ErrorCode[]];
  /** Extra headers of the answer (Retry-After, Allow, Accept-Post). */
  readonly headers: Readonly<Record<string, string>>;
  /** Written by the boundary, through the handler's (redacting) logger, before it answers. */
  readonly logLine: LogLine | undefined;

  constructor(answer: ErrorAnswer | ErrorAnswerOfCodes, logLine?: LogLine) {
    super(answer.message);
    this.name = 'HttpError';
    this.status = answer.status;
    this.type = answer.type;
    this.codes = 'codes' in answer ? answer.codes : [{ error_code: answer.code, message: answer.message }];
    this.headers = answer.headers ?? {};
    this.logLine = logLine;
  }

  /** The answer: the spec's error body, the JSON headers every answer has, and this error's own. */
  toResponse(): Response {
    return errorResponse(this.status, this.type, this.message, [...this.codes], { ...this.headers });
  }
}
