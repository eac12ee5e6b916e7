import { errorAnswer } from './error-response.js';

/** The body read as JSON (with its text, for a signature check), or the error response to send instead. */
export type JsonBodyResult = { ok: true; value: unknown; text: string } | { ok: false; response: Response };

/**
 * Reads an untrusted request body as JSON: `application/json` only (else 415),
 * at most `maxBytes` (else 413, checked on the declared length and again while
 * reading, since a chunked body declares none), valid UTF-8 JSON (else 400
 * `INVALID_REQUEST_BODY`). It never throws.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBodyResult> {
  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return fail(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.', {
      'accept-post': 'application/json',
    });
  }
  const tooLarge = () => fail(413, 'REQUEST_TOO_LARGE', `The body is larger than ${maxBytes} bytes.`);
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return tooLarge();

  const bytes = await readCapped(request, maxBytes);
  if (bytes === 'too-large') return tooLarge();
  if (bytes === 'unreadable') return fail(400, 'INVALID_REQUEST_BODY', 'The body could not be read.');
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { ok: true, value: JSON.parse(text) as unknown, text };
  } catch {
    return fail(400, 'INVALID_REQUEST_BODY', 'The body is not valid JSON.');
  }
}

function fail(status: number, code: string, message: string, headers: Record<string, string> = {}): JsonBodyResult {
  return { ok: false, response: errorAnswer({ status, type: 'INVALID_REQUEST', code, message, headers }) };
}

/**
 * Reads a request's or a response's body, stopping as soon as it passes
 * `maxBytes` (the stream is then left unread, not cancelled: the caller
 * decides whether to cancel it).
 */
export async function readCapped(message: Pick<Request, 'body'>, maxBytes: number): Promise<Uint8Array | 'too-large' | 'unreadable'> {
  if (message.body === null) return new Uint8Array();
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        // Stop reading without cancelling: a cancel can tear the connection down before the 413 is sent.
        reader.releaseLock();
        return 'too-large';
      }
      chunks.push(value);
    }
  } catch {
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
