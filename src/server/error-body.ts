import * as z from 'zod';

/** The schema of {@link ErrorCode}. */
export const ErrorCodeSchema = z.object({ error_code: z.string().min(1), message: z.string() });

/** The schema of {@link ErrorBody}. */
export const ErrorBodySchema = z.object({
  error: z.object({
    status_code: z.int(),
    message: z.string(),
    type: z.string().min(1),
    error_codes: z.array(ErrorCodeSchema).min(1),
  }),
});

/** One entry of `error.error_codes`, `{ error_code, message }`: clients branch on `error_code`. */
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;
/**
 * The service's error body (spec, "Errors"): `{ error: { status_code, message, type, error_codes } }`. The handlers
 * answer the browser in the same shape (src/server/error-response.ts), so one client-side branch handles both.
 */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
