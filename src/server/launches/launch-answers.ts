/** The launches' routes' own parts: what the page reports, and the error answers. */
import * as z from 'zod';
import type { ErrorAnswer } from '../error-response.js';

/** Tokens one launch may mint (on every instance together, with a shared store): enough for a few tries, not for a script that mints on repeat. */
export const MAX_TOKENS_PER_LAUNCH = 5;

/** What the page reports when the flow has ended. */
export const ResultReportSchema = z.strictObject({
  status: z.enum(['success', 'exit']),
  linkTokenId: z.uuid(),
  accountId: z.uuid().optional(),
  jobId: z.uuid().optional(),
  exitReason: z.enum(['completed', 'user_closed', 'error', 'closed_by_host']).optional(),
  receipt: z.string().min(1).max(512),
});

/** The launches' error answers, beside the handlers' shared ones. */
export const ANSWERS = {
  notFound: { status: 404, type: 'NOT_FOUND', code: 'LAUNCH_NOT_FOUND', message: 'No such launch.' },
  expired: { status: 410, type: 'GONE', code: 'LAUNCH_EXPIRED', message: 'This link has expired.' },
  revoked: { status: 410, type: 'GONE', code: 'LAUNCH_REVOKED', message: 'This link is no longer valid.' },
  connected: { status: 409, type: 'CONFLICT', code: 'LAUNCH_COMPLETED', message: 'This link has already connected an account.' },
  tooMany: {
    status: 429,
    type: 'RATE_LIMIT_EXCEEDED',
    code: 'LAUNCH_TOKEN_LIMIT',
    message: `This link has minted ${MAX_TOKENS_PER_LAUNCH} tokens; ask for a new link.`,
  },
  notOurs: {
    status: 403,
    type: 'FORBIDDEN',
    code: 'RESULT_NOT_VERIFIED',
    message: 'The result does not match this launch.',
  },
  successFields: {
    status: 400,
    type: 'INVALID_REQUEST_PARAMETERS',
    code: 'INVALID_REQUEST_PARAMETERS',
    message: 'A success names its accountId and jobId.',
  },
  methodNotAllowed: {
    status: 405,
    type: 'INVALID_REQUEST',
    code: 'METHOD_NOT_ALLOWED',
    message: 'Use GET for the page.',
    headers: { allow: 'GET, HEAD' },
  },
  internal: { status: 500, type: 'INTERNAL_ERROR', code: 'INTERNAL_ERROR', message: 'The server could not handle the result.' },
  resultBusy: {
    status: 503,
    type: 'SERVICE_UNAVAILABLE',
    code: 'RESULT_IN_PROGRESS',
    message: 'The result is being handled; try again shortly.',
    headers: { 'retry-after': '2' },
  },
  uncheckable: {
    status: 503,
    type: 'SERVICE_UNAVAILABLE',
    code: 'RESULT_UNCONFIRMED',
    message: 'The payroll service could not confirm the result right now; try again shortly.',
    headers: { 'retry-after': '2' },
  },
  checkLimit: {
    status: 429,
    type: 'RATE_LIMIT_EXCEEDED',
    code: 'RESULT_CHECK_LIMIT',
    message: 'This link has been checked too often; try again shortly.',
  },
  storeFull: {
    status: 503,
    type: 'SERVICE_UNAVAILABLE',
    code: 'LAUNCH_STORE_FULL',
    message: 'The server holds as many launches as it can; try again later.',
    headers: { 'retry-after': '30' },
  },
  storeUnavailable: {
    status: 503,
    type: 'SERVICE_UNAVAILABLE',
    code: 'STORE_UNAVAILABLE',
    message: 'The server could not record the result; try again shortly.',
    headers: { 'retry-after': '2' },
  },
} satisfies Record<string, ErrorAnswer>;
