/**
 * The skeleton the POST handlers share (token, webhook, a launch's token and result), and the one error boundary,
 * `answerErrors`, which wraps the launches' router too: the options are checked when the handler is made (a
 * {@link ConfigError}), then each request goes through 405 → the checks before the body → the body (its type, size and
 * time bounded: `readJsonBody`) → the handler's own work. A stage refuses by throwing an {@link HttpError}, which the
 * boundary logs (its line) and answers; any other throw at any stage is a 500 in the spec's error body, logged once,
 * with nothing of the request or the throw in the answer.
 */
import type { z } from 'zod';
import { ConfigError } from '../config-error.js';
import { describeError } from '../describe-error.js';
import { errorAnswer, type ErrorAnswer } from '../error-response.js';
import { readJsonBody, type JsonBody } from '../json-request.js';
import type { Logger } from '../logger.js';
import { HttpError } from './http-error.js';

/** The options parsed by `schema`, defaults filled in; a {@link ConfigError} naming each wrong field otherwise. */
export function parseOptions<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  // The input reported, so that a missing option is called missing (ConfigError.fromZod); the error is not kept.
  const parsed = schema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw ConfigError.fromZod(what, parsed.error);
  return parsed.data;
}

/** What every handler's boundary needs: whose lines it writes, where, and its 500. */
export interface BoundaryParts {
  /** Names the handler at the start of its log lines: `link token`, `webhook`. */
  subject: string;
  /** Already redacted: it gets each {@link HttpError}'s line and the description of an unexpected throw. */
  log: Logger;
  /** The 500 for a throw that nothing else caught: the same one the handler gives for its own failures. */
  internalError: ErrorAnswer;
}

/** What a handler adds to the skeleton. */
export interface PostHandlerParts extends BoundaryParts {
  /** The message of the 405, saying what to send with POST. */
  postOnly: string;
  /** A check before the body is read (the webhook's URL secret): it throws an {@link HttpError} to refuse. */
  beforeBody?: (request: Request) => Promise<void>;
  /** Cap on the body, in bytes (see `readJsonBody`). */
  maxBodyBytes: number;
  /** Bound on the time the body takes to arrive, in milliseconds (see `readJsonBody`). */
  bodyTimeoutMs: number;
  /** The handler's own work on a POST whose body is JSON: its answer, or an {@link HttpError} thrown. */
  handle: (request: Request, body: JsonBody) => Promise<Response>;
}

/**
 * The one error boundary, after Hono's `errorHandler`: `work`'s answer, or, for an {@link HttpError} it threw, that
 * error's log line and answer; anything else thrown is the 500, logged once. The handler it makes never throws.
 */
export function answerErrors(
  { subject, log, internalError }: BoundaryParts,
  work: (request: Request) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      return await work(request);
    } catch (error) {
      if (error instanceof HttpError) {
        if (error.logLine) log[error.logLine.level](error.logLine.message, error.logLine.fields);
        return error.toResponse();
      }
      // Nothing above should throw anything else; if it does, the sender still gets an answer and the log the reason.
      log.error(`${subject}: unexpected failure: ${describeError(error)}`);
      return errorAnswer(internalError);
    }
  };
}

/** A Web-standard handler that never throws: see the module's comment for its stages. */
export function postHandler(parts: PostHandlerParts): (request: Request) => Promise<Response> {
  const { subject, postOnly, beforeBody, maxBodyBytes, bodyTimeoutMs, handle } = parts;
  const methodNotAllowed: ErrorAnswer = {
    status: 405,
    type: 'INVALID_REQUEST',
    code: 'METHOD_NOT_ALLOWED',
    message: postOnly,
    headers: { allow: 'POST' },
  };

  return answerErrors(parts, async (request) => {
    if (request.method !== 'POST') throw new HttpError(methodNotAllowed);
    await beforeBody?.(request);
    return await handle(request, await readJsonBody(request, { maxBytes: maxBodyBytes, timeoutMs: bodyTimeoutMs, subject }));
  });
}
