/**
 * The skeleton both handlers share, and their one error boundary: the options
 * are checked when the handler is made (a {@link ConfigError}), then each
 * request goes through 405 → the checks before the body → the body → the
 * handler's own work, and a throw at any of these stages is a 500 in the
 * spec's error body, logged once, with nothing of the request or the throw in
 * the answer.
 */
import type { z } from 'zod';
import { ConfigError } from '../config-error.js';
import { describeError } from '../describe-error.js';
import { errorAnswer, type ErrorAnswer } from '../error-response.js';
import { readJsonBody } from '../json-request.js';
import type { Logger } from '../logger.js';

/** The options parsed by `schema`, defaults filled in; a {@link ConfigError} naming each wrong field otherwise. */
export function parseOptions<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw ConfigError.fromZod(what, parsed.error);
  return parsed.data;
}

/** A body read by the skeleton: the parsed JSON, and the text it came from (for a signature check). */
export interface JsonBody {
  value: unknown;
  text: string;
}

/** What a handler adds to the skeleton. */
export interface PostHandlerParts {
  /** Names the handler at the start of its log lines: `link token`, `webhook`. */
  subject: string;
  /** Already redacted: it gets the description of an unexpected throw. */
  log: Logger;
  /** The message of the 405, saying what to send with POST. */
  postOnly: string;
  /** A check before the body is read (the webhook's URL secret): an answer refuses, undefined goes on. */
  beforeBody?: (request: Request) => Promise<Response | undefined>;
  /** Cap on the body, in bytes (see `readJsonBody`). */
  maxBodyBytes: number;
  /** The handler's own work on a POST whose body is JSON. */
  handle: (request: Request, body: JsonBody) => Promise<Response>;
  /** The 500 for a throw that nothing else caught: the same one the handler gives for its own failures. */
  internalError: ErrorAnswer;
}

/** A Web-standard handler that never throws: see the module's comment for its stages. */
export function postHandler(parts: PostHandlerParts): (request: Request) => Promise<Response> {
  const { subject, log, postOnly, beforeBody, maxBodyBytes, handle, internalError } = parts;
  const methodNotAllowed: ErrorAnswer = {
    status: 405,
    type: 'INVALID_REQUEST',
    code: 'METHOD_NOT_ALLOWED',
    message: postOnly,
    headers: { allow: 'POST' },
  };

  async function stages(request: Request): Promise<Response> {
    if (request.method !== 'POST') return errorAnswer(methodNotAllowed);
    const refusal = await beforeBody?.(request);
    if (refusal) return refusal;
    const body = await readJsonBody(request, maxBodyBytes);
    if (!body.ok) return body.response;
    return await handle(request, { value: body.value, text: body.text });
  }

  return async (request) => {
    try {
      return await stages(request);
    } catch (error) {
      // Nothing above should throw; if it does, the sender still gets an answer and the log the reason.
      log.error(`${subject}: unexpected failure: ${describeError(error)}`);
      return errorAnswer(internalError);
    }
  };
}
