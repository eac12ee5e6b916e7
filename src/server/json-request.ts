import * as z from 'zod';
import { timeLimit } from '../shared/time-limit.js';
import { untilAborted } from '../shared/until-aborted.js';
import { HttpError } from './handler/http-error.js';

/** A body read as JSON: the parsed value, and the text it came from (for a signature check). */
export interface JsonBody {
  value: unknown;
  text: string;
}

/**
 * The handlers' `bodyTimeoutMs` option (the token handler's, the webhook receiver's, the launches'): how long a
 * request's body may take to arrive, in milliseconds, from when the handler starts reading it. Past it the answer
 * is 408 `REQUEST_TIMEOUT`, logged once: a sender that stalls mid-body holds the request no longer than this.
 */
export const BodyTimeoutMsSchema = z.int().min(1).max(300_000).default(10_000);

/** What bounds a body: its size, its time, and whose log line a timeout writes (`link token`, `webhook`). */
export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
  subject: string;
}

/**
 * Reads an untrusted request body as JSON: `application/json` only (else 415), at most `maxBytes` (else 413, checked on
 * the declared length and again while reading, since a chunked body declares none), within `timeoutMs` (else 408, the
 * body cancelled and one line logged), valid UTF-8 JSON (else 400 `INVALID_REQUEST_BODY`). Each refusal is thrown as an
 * {@link HttpError}.
 */
export async function readJsonBody(request: Request, { maxBytes, timeoutMs, subject }: BodyLimits): Promise<JsonBody> {
  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw refusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.', {
      'accept-post': 'application/json',
    });
  }
  const tooLarge = () => refusal(413, 'REQUEST_TOO_LARGE', `The body is larger than ${maxBytes} bytes.`);
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge();

  // This request's own timer, made and cleared here: nothing another request made is waited on (workerd).
  const [deadline, timedOut, dispose] = timeLimit(timeoutMs);
  let bytes: Awaited<ReturnType<typeof readCapped>>;
  try {
    bytes = await readCapped(request, maxBytes, deadline);
  } catch (error) {
    if (!timedOut()) throw error;
    throw new HttpError(
      { status: 408, type: 'INVALID_REQUEST', code: 'REQUEST_TIMEOUT', message: `The body did not arrive within ${timeoutMs} ms.` },
      { level: 'warn', message: `${subject}: the request body did not arrive within ${timeoutMs} ms; answered 408` },
    );
  } finally {
    dispose();
  }
  if (bytes === 'too-large') throw tooLarge();
  if (bytes === 'unreadable') throw refusal(400, 'INVALID_REQUEST_BODY', 'The body could not be read.');
  let text: string;
  let value: unknown;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    value = JSON.parse(text) as unknown;
  } catch {
    throw refusal(400, 'INVALID_REQUEST_BODY', 'The body is not valid JSON.');
  }
  return { value, text };
}

function refusal(status: number, code: string, message: string, headers: Record<string, string> = {}): HttpError {
  return new HttpError({ status, type: 'INVALID_REQUEST', code, message, headers });
}

/**
 * Reads a request's or a response's body, stopping as soon as it passes `maxBytes` (the stream is then left unread, not
 * cancelled: the caller decides whether to cancel it). When `deadline` aborts first, the body is cancelled (nothing
 * more of it is read or waited for) and this rejects with the signal's reason.
 */
export async function readCapped(
  message: Pick<Request, 'body'>,
  maxBytes: number,
  deadline?: AbortSignal,
): Promise<Uint8Array | 'too-large' | 'unreadable'> {
  if (message.body === null) return new Uint8Array();
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await (deadline ? untilAborted(reader.read(), deadline) : reader.read());
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        // Stop reading without cancelling: a cancel can tear the connection down before the 413 is sent.
        reader.releaseLock();
        return 'too-large';
      }
      chunks.push(value);
    }
  } catch (error) {
    if (deadline?.aborted) {
      // The read still pending settles as done once cancelled; untilAborted has let go of it.
      reader.cancel(deadline.reason).catch(() => {});
      throw error;
    }
    return 'unreadable';
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
